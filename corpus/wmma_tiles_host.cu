// C = A B (row-major halves, float C) on tensor cores: a block of four warps
// computes a 32 x 32 tile of C, each warp one 16 x 16 quarter with
// nvcuda::wmma. Every step the block stages a 32 x 16 slice of A and a
// 16 x 32 slice of B in shared memory, waits, and each warp loads its
// fragments from there; the second barrier keeps the next step's staging
// from overwriting slices other warps still read. The host asserts whole
// tiles, so there are no bounds checks.
#include <cassert>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define TILE 32
#define STEP 16

__global__ void wmma_tiles(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ half As[TILE * STEP];
  __shared__ half Bs[STEP * TILE];
  int warp = threadIdx.x / 32, warpRow = warp / 2, warpCol = warp % 2;
  int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  for (int k0 = 0; k0 < K; k0 += STEP) {
    for (int i = threadIdx.x; i < TILE * STEP; i += blockDim.x) {
      As[i] = A[(row0 + i / STEP) * K + k0 + i % STEP];
      Bs[i] = B[(k0 + i / TILE) * N + col0 + i % TILE];
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::load_matrix_sync(a, As + warpRow * 16 * STEP, STEP);
    wmma::load_matrix_sync(b, Bs + warpCol * 16, TILE);
    wmma::mma_sync(sum, a, b, sum);
    __syncthreads();
  }
  float *out = C + (row0 + warpRow * 16) * N + col0 + warpCol * 16;
  wmma::store_matrix_sync(out, sum, N, wmma::mem_row_major);
}

void gemm(const half *A, const half *B, float *C, int M, int N, int K) {
  assert(M % TILE == 0 && N % TILE == 0 && K % STEP == 0);
  dim3 grid(N / TILE, M / TILE);
  wmma_tiles<<<grid, 128>>>(A, B, C, M, N, K);
}
