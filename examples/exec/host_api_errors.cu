// simulee exec example: memory errors of the host side of the API, reported
// as findings: a copy past the end of an allocation (line 33), a copy from an
// allocation after cudaFree (line 36), a copy whose pointers go the other
// way from its kind (line 38: into device memory with
// cudaMemcpyDeviceToHost, refused as on a GPU), and a kernel reading device
// memory that nothing ever wrote (line 14: `bias` was allocated but never
// set).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void addBias(float *x, const float *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += bias[i % 4];
}

__global__ void fill(float *x, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = value;
}

int main() {
  const int n = 64;
  float host[2 * n] = {};
  float *x, *bias, *scratch;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&bias, 4 * sizeof(float));
  cudaMalloc(&scratch, n * sizeof(float));
  fill<<<1, n>>>(x, 1.0f, n);
  addBias<<<1, n>>>(x, bias, n);
  // Copies twice the allocation's size: the copy fails with an error.
  cudaError_t past = cudaMemcpy(host, x, 2 * n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(scratch);
  fill<<<1, n>>>(x, 2.0f, n);
  cudaError_t afterFree = cudaMemcpy(host, scratch, n * sizeof(float), cudaMemcpyDeviceToHost);
  // The kind names the wrong direction: host -> device is meant.
  cudaError_t reversed = cudaMemcpy(x, host, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("copy past the end: %s\n", cudaGetErrorName(past));
  printf("copy after free: %s\n", cudaGetErrorName(afterFree));
  printf("copy against its kind: %s\n", cudaGetErrorName(reversed));
  cudaFree(x);
  cudaFree(bias);
  return 0;
}
