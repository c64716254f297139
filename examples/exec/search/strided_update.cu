// simulee exec --search example: each thread updates element
// (threadIdx.x * stride) % 64 of one block's array. The program only ever
// uses stride 1, a permutation, so its own launch is race-free; a stride
// sharing a factor with 64 (2, 4, ... or 0) sends two threads to one element:
// a data race at line 12 that `simulee exec --search 5` finds by mutating the
// program's launch, and plain `simulee exec` does not report.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void stridedUpdate(int *values, int stride) {
  int slot = (threadIdx.x * stride) % 64;
  values[slot] += 1;
}

int main() {
  int host[64] = {}, *device;
  cudaMalloc(&device, sizeof host);
  cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice);
  stridedUpdate<<<1, 64>>>(device, 1);
  cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i)
    if (host[i] != 1) {
      printf("FAILED at %d\n", i);
      return 1;
    }
  printf("PASSED\n");
  return 0;
}
