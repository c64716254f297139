// simulee exec example: a program sharing device memory with another process
// (CUDA IPC), which simulee's runtime does not provide. `simulee exec` must
// refuse it with one clear error naming each function and the line calling
// it (exit status 2), never run it with a silent wrong result.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(int *x) { x[threadIdx.x] = threadIdx.x; }

int main() {
  int *x;
  cudaMalloc(&x, 32 * sizeof(int));
  touch<<<1, 32>>>(x);
  cudaIpcMemHandle_t handle;
  cudaIpcGetMemHandle(&handle, x);
  void *mapped = nullptr;
  cudaIpcOpenMemHandle(&mapped, handle, cudaIpcMemLazyEnablePeerAccess);
  printf("done\n");
  return 0;
}
