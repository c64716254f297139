// A launch formatted as Visual Studio leaves it (`k << <g, b >> > (...)`),
// which nvcc accepts. The kernel sums a block into shared memory with no
// barrier between the writes (line 8) and the read (line 13): a data race.
#include "block_total.h"

__global__ void blockTotal(const int *in, int *out) {
  __shared__ int part[BLOCK_THREADS];
  part[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int i = 0; i < BLOCK_THREADS; ++i)
      sum +=
          part[i];
    out[blockIdx.x] = sum;
  }
}

int main() {
  const int blocks = 4;
  int *in, *out;
  cudaMalloc(&in, blocks * BLOCK_THREADS * sizeof(int));
  cudaMalloc(&out, blocks * sizeof(int));
  blockTotal << <blocks, BLOCK_THREADS >> > (in, out);
  cudaDeviceSynchronize();
  return 0;
}
