// sm_80's asynchronous copies into shared memory and its block barriers:
// a block-wide moving sum whose input tiles arrive through
//   1. __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior
//      (cp.async, each thread its own 16 bytes),
//   2. cuda::memcpy_async of the whole tile, completed by a cuda::barrier
//      (mbarrier objects), and
//   3. cooperative_groups::memcpy_async with cooperative_groups::wait;
// and a fourth kernel that waits for its own copy but reads its neighbours'
// without the barrier that makes them visible: a data race between the
// copy (line 62) and the reads (line 27), whose output depends on how the
// GPU schedules its warps (not printed). The first three are checked
// against the host's results. Expected: that one race.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kBlock = 128, kTile = 4 * kBlock; // four floats per thread

// out[i] = tile[i] + tile[i + 1] (the tile's last element alone).
__device__ void neighbourSums(const float *tile, float *out) {
  for (int i = threadIdx.x; i < kTile; i += blockDim.x)
    out[blockIdx.x * kTile + i] = tile[i] + (i + 1 < kTile ? tile[i + 1] : 0.0f);
}

__global__ void pipelinePrimitives(const float *in, float *out) {
  __shared__ alignas(16) float tile[kTile];
  __pipeline_memcpy_async(&tile[4 * threadIdx.x], &in[blockIdx.x * kTile + 4 * threadIdx.x],
                          4 * sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  neighbourSums(tile, out);
}

__global__ void barrierCopy(const float *in, float *out) {
  __shared__ alignas(16) float tile[kTile];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * kTile, sizeof(float) * kTile, bar);
  bar.arrive_and_wait();
  neighbourSums(tile, out);
}

__global__ void groupCopy(const float *in, float *out) {
  __shared__ alignas(16) float tile[kTile];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * kTile, sizeof(float) * kTile);
  cg::wait(block);
  neighbourSums(tile, out);
}

__global__ void waitWithoutBarrier(const float *in, float *out) {
  __shared__ alignas(16) float tile[kTile];
  __pipeline_memcpy_async(&tile[4 * threadIdx.x], &in[blockIdx.x * kTile + 4 * threadIdx.x],
                          4 * sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0); // this thread's copy only
  neighbourSums(tile, out);
}

int main() {
  const int blocks = 3, n = blocks * kTile;
  std::vector<float> in(n), expected(n);
  for (int i = 0; i < n; ++i)
    in[i] = float(i % 13);
  for (int i = 0; i < n; ++i)
    expected[i] = in[i] + (i % kTile + 1 < kTile ? in[i + 1] : 0.0f);
  float *dIn, *dOut;
  cudaMalloc(&dIn, n * sizeof(float));
  cudaMalloc(&dOut, n * sizeof(float));
  cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  void (*kernels[])(const float *, float *) = {pipelinePrimitives, barrierCopy, groupCopy,
                                                waitWithoutBarrier};
  const char *names[] = {"pipeline primitives", "cuda::memcpy_async", "cg::memcpy_async",
                         "wait without barrier"};
  for (int k = 0; k < 4; ++k) {
    cudaMemset(dOut, 0, n * sizeof(float));
    kernels[k]<<<blocks, kBlock>>>(dIn, dOut);
    std::vector<float> out(n);
    cudaMemcpy(out.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      wrong += out[i] != expected[i];
    if (k < 3)
      printf("%s: %d wrong\n", names[k], wrong);
  }
  cudaFree(dIn);
  cudaFree(dOut);
  return 0;
}
