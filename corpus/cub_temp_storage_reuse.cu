// A block sums its values with CUB and then takes their maximum, both
// through one shared TempStorage. CUB's rule: a TempStorage used again needs
// a __syncthreads() in between, or the second collective overwrites what
// slow warps of the first still read. `sumThenMax` keeps the rule;
// `sumThenMaxNoBarrier` breaks it.
#include <cub/block/block_reduce.cuh>

constexpr int kThreads = 128;
using BlockReduce = cub::BlockReduce<int, kThreads>;

__global__ void sumThenMax(const int *in, int *sums, int *maxima) {
  __shared__ BlockReduce::TempStorage temp;
  int value = in[blockIdx.x * kThreads + threadIdx.x];
  int sum = BlockReduce(temp).Sum(value);
  __syncthreads();
  int best = BlockReduce(temp).Reduce(value, cub::Max());
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sum;
    maxima[blockIdx.x] = best;
  }
}

__global__ void sumThenMaxNoBarrier(const int *in, int *sums, int *maxima) {
  __shared__ BlockReduce::TempStorage temp;
  int value = in[blockIdx.x * kThreads + threadIdx.x];
  int sum = BlockReduce(temp).Sum(value);
  int best = BlockReduce(temp).Reduce(value, cub::Max());
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sum;
    maxima[blockIdx.x] = best;
  }
}

int main() {
  const int blocks = 4;
  int *in, *sums, *maxima;
  cudaMalloc(&in, blocks * kThreads * sizeof(int));
  cudaMalloc(&sums, blocks * sizeof(int));
  cudaMalloc(&maxima, blocks * sizeof(int));
  sumThenMax<<<blocks, kThreads>>>(in, sums, maxima);
  sumThenMaxNoBarrier<<<blocks, kThreads>>>(in, sums, maxima);
  return 0;
}
