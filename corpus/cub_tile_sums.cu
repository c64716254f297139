// Each 16x16 block sums its tile of a width x height image with a 2-D
// cub::BlockReduce and thread (0,0) stores the tile's sum. No host code:
// the block shape comes from the reduction's template arguments (16, 16),
// the only shape CUB's collective works in. Race-free.
#include <cub/block/block_reduce.cuh>

using TileReduce = cub::BlockReduce<float, 16, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 16>;

__global__ void tileSums(const float *in, float *sums, int width, int height) {
  __shared__ TileReduce::TempStorage temp;
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  float value = x < width && y < height ? in[y * width + x] : 0.0f;
  float sum = TileReduce(temp).Sum(value);
  if (threadIdx.x == 0 && threadIdx.y == 0)
    sums[blockIdx.y * gridDim.x + blockIdx.x] = sum;
}
