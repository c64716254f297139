// simulee exec example: device pointers stored in device memory. A batch of
// vectors is reached through an array of device pointers the host copied to
// the device, and the results through a __device__ pointer variable set with
// cudaMemcpyToSymbol. Every pointer is simulee's own device pointer, so the
// kernels follow them to the right allocations. Clean.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float *totals;

__global__ void scaleBatch(float *const *vectors, int n, float factor) {
  float *v = vectors[blockIdx.y];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= factor;
}

__global__ void sumBatch(float *const *vectors, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&totals[blockIdx.y], vectors[blockIdx.y][i]);
}

int main() {
  const int batch = 4, n = 300;
  float *vectors[batch];
  float host[n];
  for (int b = 0; b < batch; ++b) {
    for (int i = 0; i < n; ++i)
      host[i] = float(b + 1);
    cudaMalloc(&vectors[b], n * sizeof(float));
    cudaMemcpy(vectors[b], host, sizeof host, cudaMemcpyHostToDevice);
  }
  float **dVectors, *dTotals;
  cudaMalloc(&dVectors, sizeof vectors);
  cudaMemcpy(dVectors, vectors, sizeof vectors, cudaMemcpyHostToDevice);
  cudaMalloc(&dTotals, batch * sizeof(float));
  cudaMemset(dTotals, 0, batch * sizeof(float));
  cudaMemcpyToSymbol(totals, &dTotals, sizeof dTotals);
  dim3 grid((n + 127) / 128, batch);
  scaleBatch<<<grid, 128>>>(dVectors, n, 2.0f);
  sumBatch<<<grid, 128>>>(dVectors, n);
  float result[batch];
  cudaMemcpy(result, dTotals, sizeof result, cudaMemcpyDeviceToHost);
  for (int b = 0; b < batch; ++b)
    if (result[b] != 2.0f * (b + 1) * n) {
      printf("FAILED: batch %d sums to %f\n", b, result[b]);
      return 1;
    }
  printf("PASSED\n");
  return 0;
}
