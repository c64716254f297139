// Runs merged pairwise in passes: each pass doubles the run length, and the
// host sizes every launch from it inside the loop (one block per pair of
// runs, one thread per element of a run). In bounds and race-free at every
// launch the host makes; a block or grid the loop never uses overruns the
// buffers, so a search that roams outside the loop's launches finds false
// out-of-bounds reads.
#include <cuda_runtime.h>

#define ELEMENTS 4096

__global__ void merge_pass(const int *in, int *out) {
  int base = blockIdx.x * 2 * blockDim.x;
  int t = threadIdx.x;
  int a = in[base + t];
  int b = in[base + blockDim.x + t];
  out[base + 2 * t] = min(a, b);
  out[base + 2 * t + 1] = max(a, b);
}

int main() {
  int *in, *out;
  cudaMalloc(&in, ELEMENTS * sizeof(int));
  cudaMalloc(&out, ELEMENTS * sizeof(int));
  dim3 grid, block;
  for (int run = 32; run <= 512; run <<= 1) {
    block = dim3(run);
    grid = dim3(ELEMENTS / (2 * run));
    merge_pass<<<grid, block>>>(in, out);
    cudaDeviceSynchronize();
  }
  cudaFree(in);
  cudaFree(out);
  return 0;
}
