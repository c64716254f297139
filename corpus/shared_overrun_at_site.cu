// A per-block scan whose up-sweep bounds its slots by the whole input's
// length n instead of the block's tile: with the host's n of 64 and tiles of
// 16, slots past the tile are read and written. The tile is sized by the
// kernel itself, and the call site fixes grid, block and n: the overrun is
// the program's bug at its own launch, not a launch simulee made up.
#include <cuda_runtime.h>

#define TILE 16

__global__ void block_scan(const float *in, float *out, int n) {
  __shared__ float tile[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = 1; stride < TILE; stride *= 2) {
    int slot = (threadIdx.x + 1) * stride * 2 - 1;
    if (slot < n)
      tile[slot] += tile[slot - stride];
    __syncthreads();
  }
  if (i < n)
    out[i] = tile[threadIdx.x];
}

int main() {
  const int n = 64;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  block_scan<<<(n + TILE - 1) / TILE, TILE>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
