// One step of a bitonic sort: thread i compares keys i and i ^ j and orders
// them up or down by bit k of i. The partner stays inside the keys only when
// j < n, which the host guarantees without an assert: it reads n until it
// is a power of two of at least 256 (a loop that ends only then), doubles k
// from 2 up to n and halves j from k / 2 (steps written out, `j = j >> 1`).
#include <iostream>

__global__ void exchange_step(int *keys, int j, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned partner = i ^ j;
  if (partner > i) {
    bool ascending = (i & k) == 0;
    int mine = keys[i], theirs = keys[partner];
    if ((mine > theirs) == ascending) {
      keys[i] = theirs;
      keys[partner] = mine;
    }
  }
}

bool isPowerOfTwo(int x) { return x > 0 && (x & (x - 1)) == 0; }

int main() {
  int n = 0;
  std::cin >> n;
  while (!isPowerOfTwo(n) || n < 256) {
    std::cout << "the size must be a power of two, 256 or more: ";
    std::cin >> n;
  }
  int *keys;
  cudaMalloc(&keys, n * sizeof(int));
  int j, k;
  for (k = 2; k <= n; k <<= 1)
    for (j = k >> 1; j > 0; j = j >> 1)
      exchange_step<<<n / 256, 256>>>(keys, j, k);
  cudaDeviceSynchronize();
  cudaFree(keys);
  return 0;
}
