// Cooperative groups: tiles of 16 reduce with shuffles; then tile 0 of each
// warp passes a value through shared memory to tile 1, separated by a
// tile-wide and a block-wide sync.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void tileReduce(const int *in, int *tileSums, int *exchanged) {
  __shared__ int staging[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[i];
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    value += tile.shfl_down(value, offset);
  int total = tile.shfl(value, 0);
  if (tile.thread_rank() == 0)
    tileSums[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = total;

  staging[block.thread_rank()] = total + (int)tile.thread_rank();
  tile.sync();
  block.sync();
  unsigned partner = block.thread_rank() ^ 16u;
  exchanged[i] = staging[partner];
}
