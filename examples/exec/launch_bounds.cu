// simulee exec example: a kernel declared __launch_bounds__(128) launched
// once with 256-thread blocks, which a GPU refuses (cudaGetLastError says
// so, and simulee reports the launch), then correctly with 128.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void __launch_bounds__(128) reverseTiles(const int *in, int *out, int n) {
  __shared__ int tile[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  if (i < n)
    out[i] = tile[127 - threadIdx.x];
}

int main() {
  const int n = 1024;
  int host[n], *in, *out;
  for (int i = 0; i < n; ++i)
    host[i] = i;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  reverseTiles<<<n / 256, 256>>>(in, out, n);
  printf("256 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
  reverseTiles<<<n / 128, 128>>>(in, out, n);
  printf("128 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("out[0] = %d\n", host[0]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
