// simulee exec example: a 1-D convolution whose weights live in __constant__
// memory (cudaMemcpyToSymbol), and a __device__ counter read back with
// cudaMemcpyFromSymbol. Clean.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kRadius = 3;
__constant__ float weights[2 * kRadius + 1];
__device__ unsigned launchedBlocks;

__global__ void convolve(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    atomicAdd(&launchedBlocks, 1u);
  if (i >= n)
    return;
  float sum = 0;
  for (int d = -kRadius; d <= kRadius; ++d) {
    int j = i + d;
    if (j >= 0 && j < n)
      sum += weights[d + kRadius] * in[j];
  }
  out[i] = sum;
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  float host[n], result[n], w[2 * kRadius + 1];
  for (int i = 0; i < n; ++i)
    host[i] = float(i % 10);
  for (int d = 0; d < 2 * kRadius + 1; ++d)
    w[d] = 1.0f / (d + 1);
  cudaMemcpyToSymbol(weights, w, sizeof w);
  unsigned zero = 0;
  cudaMemcpyToSymbol(launchedBlocks, &zero, sizeof zero);
  float *din, *dout;
  cudaMalloc(&din, sizeof host);
  cudaMalloc(&dout, sizeof result);
  cudaMemcpy(din, host, sizeof host, cudaMemcpyHostToDevice);
  convolve<<<blocks, threads>>>(din, dout, n);
  cudaMemcpy(result, dout, sizeof result, cudaMemcpyDeviceToHost);
  unsigned counted = 0;
  cudaMemcpyFromSymbol(&counted, launchedBlocks, sizeof counted);
  for (int i = 0; i < n; ++i) {
    float expected = 0;
    for (int d = -kRadius; d <= kRadius; ++d)
      if (i + d >= 0 && i + d < n)
        expected += w[d + kRadius] * host[i + d];
    if (result[i] != expected) {
      printf("FAILED at %d: %f != %f\n", i, result[i], expected);
      return 1;
    }
  }
  if (counted != unsigned(blocks)) {
    printf("FAILED: %u blocks counted, %d launched\n", counted, blocks);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
