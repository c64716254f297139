// Transpose through a shared tile without the barrier between the tile's
// fill and its transposed read.
#define TDIM 32
#define ROWS 8
__global__ void transpose_nosync(const float *in, float *out, int n) {
  __shared__ float tile[TDIM][TDIM + 1];
  int x = blockIdx.x * TDIM + threadIdx.x;
  int y = blockIdx.y * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += ROWS)
    if (x < n && y + j < n)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  x = blockIdx.y * TDIM + threadIdx.x;
  y = blockIdx.x * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += ROWS)
    if (x < n && y + j < n)
      out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
