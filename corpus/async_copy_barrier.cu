// A shifted copy staged in shared memory on sm_80's asynchronous paths:
// the block copies its tile with cuda::memcpy_async completed by a
// cuda::barrier (an mbarrier object), then each thread reads its
// neighbour's element. The barrier's arrive_and_wait orders the copy before
// the reads, as __syncthreads would. Race-free.
#include <cooperative_groups.h>
#include <cuda/barrier>

namespace cg = cooperative_groups;

__global__ void async_copy_barrier(const float *in, float *out, int n) {
  __shared__ alignas(16) float tile[1024];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  int rank = block.thread_rank(), base = blockIdx.x * block.size();
  int count = min(int(block.size()), n - base);
  if (count > 0)
    cuda::memcpy_async(block, tile, in + base, sizeof(float) * count, bar);
  bar.arrive_and_wait();
  if (rank + 1 < count)
    out[base + rank] = tile[rank + 1];
}
