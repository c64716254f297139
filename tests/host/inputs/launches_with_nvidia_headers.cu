// Host code that uses NVIDIA's library types: it parses only with the
// headers the device side is compiled with.
#include <cub/block/block_reduce.cuh>
#include <cuda_fp16.h>
#include <thrust/device_vector.h>

constexpr int kThreads = 128;
using BlockReduce = cub::BlockReduce<int, kThreads>;

__global__ void blockSums(const int *in, int *sums) {
  __shared__ BlockReduce::TempStorage temp;
  int sum = BlockReduce(temp).Sum(in[blockIdx.x * kThreads + threadIdx.x]);
  if (threadIdx.x == 0)
    sums[blockIdx.x] = sum;
}

int main() {
  thrust::device_vector<int> in(4 * kThreads, 1), sums(4);
  __half scale = __float2half(1.0f);
  (void)scale;
  blockSums<<<4, kThreads>>>(thrust::raw_pointer_cast(in.data()),
                             thrust::raw_pointer_cast(sums.data()));
  return 0;
}
