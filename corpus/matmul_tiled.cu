// C = A * B for n x n matrices with 16 x 16 shared tiles (block 16 x 16).
// Race-free: one barrier before using a tile, one before overwriting it.
#define TILE 16
__global__ void matmul_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[ty][tx] = (row < n && k0 + tx < n) ? A[row * n + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < n && col < n) ? B[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}
