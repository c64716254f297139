// simulee exec example: __managed__ variables, which host and kernels both
// read and write without any copy. A managed threshold set by the host, a
// managed counter the kernel increments and the host reads after
// cudaDeviceSynchronize, a managed array filled by the host, and a symbol
// copy into a managed variable that the host then sees. The second kernel
// reads the counter while other warps increment it: a race.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__managed__ int threshold;
__managed__ unsigned above;
__managed__ float samples[256];
__managed__ int scale = 2;

__global__ void countAbove(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && samples[i] * scale > threshold)
    atomicAdd(&above, 1u);
}

__global__ void countAndPeek(int n, unsigned *peeked) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && samples[i] > threshold)
    atomicAdd(&above, 1u);
  if (i == n - 1)
    *peeked = above; // other warps may still be counting
}

int main() {
  const int n = 256;
  for (int i = 0; i < n; ++i)
    samples[i] = float(i % 16);
  threshold = 20;
  countAbove<<<2, 128>>>(n);
  cudaDeviceSynchronize();
  unsigned expected = 0;
  for (int i = 0; i < n; ++i)
    expected += samples[i] * scale > threshold;
  printf("above %d: %u (expected %u)\n", threshold, above, expected);

  int newScale = 3;
  cudaMemcpyToSymbol(scale, &newScale, sizeof newScale);
  printf("scale after the symbol copy: %d\n", scale);
  above = 0;
  countAbove<<<2, 128>>>(n);
  cudaDeviceSynchronize();
  printf("above %d at scale 3: %u\n", threshold, above);

  unsigned *peeked;
  cudaMallocManaged(&peeked, sizeof *peeked);
  above = 0;
  threshold = 7;
  countAndPeek<<<2, 128>>>(n, peeked);
  cudaDeviceSynchronize();
  assert(above == 128);
  printf("above %d: %u\n", threshold, above);
  cudaFree(peeked);
  return 0;
}
