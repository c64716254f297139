// Compile check: a complete CUDA program with host code (runtime API, launch
// syntax, standard library) compiles with simulee's device header.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <math.h>
#include <iostream>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <helper_cuda.h>

__constant__ float scale[4];
__device__ int counter;

__global__ void addOne(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * scale[0] + 1.0f;
  if (i == 0)
    printf("thread %d of %d sees %f\n", i, n, data[0]);
}

int main() {
  const int n = 1024;
  std::vector<float> host(n, 1.0f);
  float *device = nullptr;
  checkCudaErrors(cudaMalloc(&device, n * sizeof(float)));
  cudaMemcpy(device, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  float hostScale[4] = {2.0f, 0.0f, 0.0f, 0.0f};
  cudaMemcpyToSymbol(scale, hostScale, sizeof(hostScale));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  dim3 block(256);
  dim3 grid((n + block.x - 1) / block.x);
  addOne<<<grid, block>>>(device, n);
  addOne<<<grid, block, 0, stream>>>(device, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    std::cerr << cudaGetErrorString(error) << "\n";
  cudaDeviceSynchronize();
  cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::cout << prop.name << " warp " << prop.warpSize << " " << std::sqrt(host[0]) << " "
            << std::max(host[0], host[1]) << " " << ms << "\n";
  cudaStreamDestroy(stream);
  cudaFree(device);
  cudaDeviceReset();
  return std::abs(-1) + abs(-2) - 3;
}
