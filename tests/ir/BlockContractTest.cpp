// The block shape a kernel's CUB collectives were instantiated for, read
// from the debug info before CUB's code is inlined into the kernel.
#include "ir/Loader.h"

#include <gtest/gtest.h>

#include <array>

using namespace simulee;

namespace {

const char *kSource = R"(
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

__global__ void oneDimensional(const int *in, int *out) {
  using Reduce = cub::BlockReduce<int, 128>;
  __shared__ Reduce::TempStorage temp;
  int sum = Reduce(temp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = sum;
}

__global__ void twoDimensional(const float *in, float *out) {
  using Reduce = cub::BlockReduce<float, 16, cub::BLOCK_REDUCE_RAKING, 8>;
  __shared__ Reduce::TempStorage temp;
  float sum = Reduce(temp).Sum(in[threadIdx.y * 16 + threadIdx.x]);
  if (threadIdx.x == 0 && threadIdx.y == 0) *out = sum;
}

__global__ void loadThenScan(const int *in, int *out) {
  using Load = cub::BlockLoad<int, 64, 4>;
  using Scan = cub::BlockScan<int, 64>;
  __shared__ union { Load::TempStorage load; Scan::TempStorage scan; } temp;
  int items[4];
  Load(temp.load).Load(in, items);
  __syncthreads();
  Scan(temp.scan).InclusiveSum(items, items);
  for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = items[i];
}

__global__ void disagreeing(const int *in, int *out) {
  __shared__ cub::BlockReduce<int, 64>::TempStorage a;
  __shared__ cub::BlockReduce<int, 128>::TempStorage b;
  int x = cub::BlockReduce<int, 64>(a).Sum(in[threadIdx.x]);
  int y = cub::BlockReduce<int, 128>(b).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = x + y;
}

__global__ void plain(int *out) { out[threadIdx.x] = 1; }
)";

std::array<uint32_t, 3> contractOf(const ir::Program &program, const std::string &name) {
  const ir::KernelInfo *kernel = program.findKernel(name);
  EXPECT_NE(kernel, nullptr) << name;
  if (!kernel)
    return {};
  return {kernel->contractBlock[0], kernel->contractBlock[1], kernel->contractBlock[2]};
}

TEST(BlockContract, CubCollectivesFixTheBlockShapeTheyWereInstantiatedFor) {
  Result<ir::Program> program = ir::loadProgramFromCuda(kSource, "contracts.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  using Dims = std::array<uint32_t, 3>;
  EXPECT_EQ(contractOf(*program, "_Z14oneDimensionalPKiPi"), (Dims{128, 1, 1}));
  EXPECT_EQ(contractOf(*program, "_Z14twoDimensionalPKfPf"), (Dims{16, 8, 1}));
  EXPECT_EQ(contractOf(*program, "_Z12loadThenScanPKiPi"), (Dims{64, 1, 1}));
  EXPECT_EQ(contractOf(*program, "_Z11disagreeingPKiPi"), (Dims{0, 0, 0}));
  EXPECT_EQ(contractOf(*program, "_Z5plainPi"), (Dims{0, 0, 0}));
  const ir::KernelInfo *kernel = program->findKernel("_Z14oneDimensionalPKiPi");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->contractSource, "cub::BlockReduce (BLOCK_DIM_X = 128)");
}

const char *kSharedArrays = R"(
#define BLOCK 256
__global__ void blockSum(const float *in, float *out) {
  __shared__ float partial[BLOCK];
  int tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// Sized for any block: no contract.
__global__ void anyBlock(const float *in, float *out) {
  __shared__ float partial[1024];
  partial[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = partial[blockDim.x - 1 - threadIdx.x];
}

// Two dimensions: the array says nothing about the block's shape.
__global__ void tile(const float *in, float *out) {
  __shared__ float row[64];
  row[threadIdx.x] = in[threadIdx.y * 64 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 64 + threadIdx.x] = row[63 - threadIdx.x];
}

__global__ void disagreeing(const float *in, float *out) {
  __shared__ float a[128], b[256];
  a[threadIdx.x] = in[threadIdx.x];
  b[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = a[0] + b[0];
}
)";

TEST(BlockContract, SharedArrayStoredAtThreadIdxNamesTheBlockSize) {
  Result<ir::Program> program = ir::loadProgramFromCuda(kSharedArrays, "arrays.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  using Dims = std::array<uint32_t, 3>;
  EXPECT_EQ(contractOf(*program, "_Z8blockSumPKfPf"), (Dims{256, 1, 1}));
  EXPECT_EQ(contractOf(*program, "_Z8anyBlockPKfPf"), (Dims{0, 0, 0}));
  EXPECT_EQ(contractOf(*program, "_Z4tilePKfPf"), (Dims{0, 0, 0}));
  EXPECT_EQ(contractOf(*program, "_Z11disagreeingPKfPf"), (Dims{0, 0, 0}));
  const ir::KernelInfo *kernel = program->findKernel("_Z8blockSumPKfPf");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->contractSource,
            "__shared__ array 'partial' (256 elements, stored at [threadIdx.x])");
}

const char *kSharedTiles = R"(
#define TILE 16
__global__ void tiledProduct(const float *a, const float *b, float *c, int n) {
  __shared__ float aTile[TILE][TILE];
  __shared__ float bTile[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int p = 0; p < n / TILE; ++p) {
    aTile[threadIdx.y][threadIdx.x] = a[row * n + p * TILE + threadIdx.x];
    bTile[threadIdx.y][threadIdx.x] = b[(p * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += aTile[threadIdx.y][k] * bTile[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}
// A wide tile: 32 columns by 8 rows of threads.
__global__ void wide(const float *in, float *out) {
  __shared__ float t[8][32];
  t[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.x * 8 + threadIdx.y] = t[threadIdx.y][31 - threadIdx.x];
}
// Padded against bank conflicts: 17 columns say nothing of the block.
__global__ void padded(const float *in, float *out) {
  __shared__ float t[16][17];
  t[threadIdx.y][threadIdx.x] = in[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  out[threadIdx.x * 16 + threadIdx.y] = t[threadIdx.x][threadIdx.y];
}
// Stored transposed: no contract is read from it.
__global__ void transposedStore(const float *in, float *out) {
  __shared__ float t[16][16];
  t[threadIdx.x][threadIdx.y] = in[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = t[threadIdx.y][threadIdx.x];
}
)";

TEST(BlockContract, SharedTileStoredAtThreadIdxYXNamesTheBlockShape) {
  Result<ir::Program> program = ir::loadProgramFromCuda(kSharedTiles, "tiles.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  using Dims = std::array<uint32_t, 3>;
  EXPECT_EQ(contractOf(*program, "_Z12tiledProductPKfS0_Pfi"), (Dims{16, 16, 1}));
  EXPECT_EQ(contractOf(*program, "_Z4widePKfPf"), (Dims{32, 8, 1}));
  EXPECT_EQ(contractOf(*program, "_Z6paddedPKfPf"), (Dims{0, 0, 0}));
  EXPECT_EQ(contractOf(*program, "_Z15transposedStorePKfPf"), (Dims{0, 0, 0}));
  const ir::KernelInfo *kernel = program->findKernel("_Z12tiledProductPKfS0_Pfi");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->contractSource,
            "__shared__ tile 'aTile' (16 x 16, stored at [threadIdx.y][threadIdx.x])");
}

} // namespace
