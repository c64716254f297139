// Benchmark copy of tests/interp/kernels/matmul_tiled.cu (kept separate so tests can change).
// C = A * B for n x n row-major matrices, n a multiple of TILE, through
// shared-memory tiles.
#define TILE 16

__global__ void matmulTiled(const float *A, const float *B, float *C, int n) {
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    tileA[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    tileB[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}
