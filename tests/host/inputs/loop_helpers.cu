// Helpers of integers with loops, read as procedures.
#include <cstdlib>

__global__ void wrap(int *data, size_t mask) {}

static size_t floorPow2(size_t x) {
  if (x == 0)
    return 0;
  size_t p = 1;
  while (p <= x / 2)
    p <<= 1;
  return p;
}

int gcd(int a, int b) {
  while (b != 0) {
    int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

int digits(int v) {
  int count = 0;
  do {
    ++count;
    v /= 10;
  } while (v != 0);
  return count;
}

int evenSum(int n) {
  int sum = 0;
  for (int i = 1; i <= n; ++i) {
    if (i % 2)
      continue;
    sum += i;
    if (sum > 1000)
      break;
  }
  return sum;
}

int spin(int n) {
  while (n > 0)
    n = n + 1 - 1;
  return n;
}



int main(int argc, char **argv) {
  size_t bytes = floorPow2(strtoull(argv[1], nullptr, 10));
  int *d;
  cudaMalloc(&d, bytes);
  wrap<<<gcd(96, 64), digits(12345)>>>(d, bytes / sizeof(int) - 1);
  wrap<<<evenSum(10), 1>>>(d, 0);
  wrap<<<spin(1), 1>>>(d, 0);
  return 0;
}
