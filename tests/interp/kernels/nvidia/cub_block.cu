// CUB's block- and warp-level collectives, compiled against NVIDIA's CCCL:
// their warp paths run on inline PTX (%laneid, shfl.sync with predicates).
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

constexpr int kBlock = 128;

__global__ void blockReduceSum(const int *in, int *out) {
  using BlockReduce = cub::BlockReduce<int, kBlock>;
  __shared__ typename BlockReduce::TempStorage temp;
  int value = in[blockIdx.x * kBlock + threadIdx.x];
  int sum = BlockReduce(temp).Sum(value);
  if (threadIdx.x == 0)
    out[blockIdx.x] = sum;
}

__global__ void blockReduceMax(const float *in, float *out) {
  using BlockReduce = cub::BlockReduce<float, kBlock, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  __shared__ typename BlockReduce::TempStorage temp;
  float value = in[blockIdx.x * kBlock + threadIdx.x];
  float best = BlockReduce(temp).Reduce(value, cub::Max());
  if (threadIdx.x == 0)
    out[blockIdx.x] = best;
}

// Each warp of the block scans its 32 values.
__global__ void warpInclusiveScan(const int *in, int *inclusive, int *exclusive) {
  using WarpScan = cub::WarpScan<int>;
  __shared__ typename WarpScan::TempStorage temp[kBlock / 32];
  int warp = threadIdx.x / 32;
  int i = blockIdx.x * kBlock + threadIdx.x;
  int value = in[i];
  int inc = 0, exc = 0;
  WarpScan(temp[warp]).InclusiveSum(value, inc);
  WarpScan(temp[warp]).ExclusiveSum(value, exc);
  inclusive[i] = inc;
  exclusive[i] = exc;
}

// One radix-sort step as sorting kernels use it: every block sorts its tile.
__global__ void blockRadixSort(const unsigned *keys, unsigned *sorted) {
  constexpr int kItems = 2;
  using BlockSort = cub::BlockRadixSort<unsigned, 64, kItems>;
  __shared__ typename BlockSort::TempStorage temp;
  unsigned items[kItems];
  int base = blockIdx.x * 64 * kItems + threadIdx.x * kItems;
  for (int k = 0; k < kItems; ++k)
    items[k] = keys[base + k];
  BlockSort(temp).Sort(items);
  for (int k = 0; k < kItems; ++k)
    sorted[base + k] = items[k];
}
