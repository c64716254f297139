// Loops before a launch that end only when what they test allows it, and
// loops whose variables start where an outer one is and shrink; for
// CallSiteReaderTest.
#include <iostream>

__global__ void exchange(int *d, int j, int k, int n) {}
__global__ void scale(int *d, int m) {}
__global__ void trim(int *d, int t, int s) {}

bool isPowerOfTwo(int x) { return x > 0 && (x & (x - 1)) == 0; }

int main() {
  int n;
  std::cin >> n;
  while (!isPowerOfTwo(n)) {
    if (!isPowerOfTwo(n)) {
      std::cout << "again: a power of two\n";
      std::cin >> n;
    } else
      break;
  }
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  int j, k;
  for (k = 2; k <= n; k <<= 1)
    for (j = k >> 1; j > 0; j = j >> 1)
      exchange<<<n / 256, 256>>>(d, j, k, n);

  int m = 0; // what std::cin >> m reads is m's value, not 0
  while (true) {
    std::cin >> m;
    if (m > 0 && m % 32 == 0) {
      std::cout << "taken\n";
      break;
    }
  }
  scale<<<1, 32>>>(d, m);

  int t;
  do {
    std::cin >> t;
  } while (t < 1 || t > 64);
  // A break whose branch changes what it tests: nothing is known after.
  int u;
  std::cin >> u;
  while (u < 100) {
    std::cin >> u;
    if (u == 7) {
      u = 0;
      break;
    }
  }
  for (int s = t; s > 0; s -= 4)
    trim<<<1, 32>>>(d, t, s);
  trim<<<1, 32>>>(d, u, 0);
  // A start read from the variable itself: its value before the loop.
  for (t = t / 2; t > 0; t /= 2)
    trim<<<1, 32>>>(d, t, 0);
  return 0;
}
