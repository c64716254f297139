// simulee exec example: a three-kernel pipeline on two streams ordered by an
// event, with asynchronous copies and event timing. simulee's runtime is
// synchronous, so every order the program asks for holds. Clean.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *x, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= factor;
}

__global__ void offset(float *x, float delta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += delta;
}

// One partial sum per block, through shared memory.
__global__ void blockSums(const float *x, float *sums, int n) {
  extern __shared__ float partial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    sums[blockIdx.x] = partial[0];
}

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t error = (call);                                                                    \
    if (error != cudaSuccess) {                                                                    \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(error), __LINE__);                   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main() {
  const int n = 2000, threads = 128, blocks = (n + threads - 1) / threads;
  float *host, *sums;
  CHECK(cudaMallocHost(&host, n * sizeof(float)));
  CHECK(cudaMallocHost(&sums, blocks * sizeof(float)));
  for (int i = 0; i < n; ++i)
    host[i] = 1.0f;
  float *dx, *dsums;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dsums, blocks * sizeof(float)));
  cudaStream_t first, second;
  CHECK(cudaStreamCreate(&first));
  CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  cudaEvent_t scaled, start, stop;
  CHECK(cudaEventCreate(&scaled));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  CHECK(cudaEventRecord(start, first));
  CHECK(cudaMemcpyAsync(dx, host, n * sizeof(float), cudaMemcpyHostToDevice, first));
  scale<<<blocks, threads, 0, first>>>(dx, 3.0f, n);
  CHECK(cudaEventRecord(scaled, first));
  CHECK(cudaStreamWaitEvent(second, scaled, 0));
  offset<<<blocks, threads, 0, second>>>(dx, 1.0f, n);
  blockSums<<<blocks, threads, threads * sizeof(float), second>>>(dx, dsums, n);
  CHECK(cudaMemcpyAsync(sums, dsums, blocks * sizeof(float), cudaMemcpyDeviceToHost, second));
  CHECK(cudaEventRecord(stop, second));
  CHECK(cudaStreamSynchronize(second));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaGetLastError());

  float total = 0;
  for (int b = 0; b < blocks; ++b)
    total += sums[b];
  if (total != 4.0f * n || ms < 0) {
    printf("FAILED: total %f\n", total);
    return 1;
  }
  cudaEventDestroy(scaled);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(first);
  cudaStreamDestroy(second);
  cudaFree(dx);
  cudaFree(dsums);
  cudaFreeHost(host);
  cudaFreeHost(sums);
  printf("PASSED\n");
  return 0;
}
