// Grid-wide synchronization with cooperative groups: a relaxation over the
// whole array, where every thread reads its neighbours' values of the last
// step, which threads of other blocks wrote. relax_synced separates the steps
// with this_grid().sync() (it ping-pongs two arrays): race-free.
// relax_unsynced syncs only its block: the neighbours at the block's edges
// belong to other blocks, whose writes (line 39) race with the reads of the
// left and right neighbours (lines 33 and 34).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void relax_synced(int *a, int *b, int n, int steps) {
  cg::grid_group grid = cg::this_grid();
  int i = int(grid.thread_rank());
  for (int s = 0; s < steps; ++s) {
    if (i < n) {
      int left = a[i > 0 ? i - 1 : i];
      int right = a[i + 1 < n ? i + 1 : i];
      b[i] = (left + 2 * a[i] + right) / 4;
    }
    grid.sync();
    int *t = a;
    a = b;
    b = t;
  }
}

__global__ void relax_unsynced(int *a, int n, int steps) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int s = 0; s < steps; ++s) {
    int mine = 0;
    if (i < n) {
      int left = a[i > 0 ? i - 1 : i];
      int right = a[i + 1 < n ? i + 1 : i];
      mine = (left + 2 * a[i] + right) / 4;
    }
    block.sync();
    if (i < n)
      a[i] = mine;
    block.sync();
  }
}
