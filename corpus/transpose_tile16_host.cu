// A 16x16-tile matrix transpose written for blockDim (16, 16) and the grid
// (n + 15) / 16 in both axes that its host code always launches. The tile is
// a flat array with room for any block, indexed with the 16-wide pitch, so
// other block shapes break it: with blockDim.x > 16 rows of the tile overlap
// and threads race on them.
#define TILE 16

__global__ void transpose_tile16(const float *in, float *out, int n) {
  __shared__ float tile[4 * TILE * TILE]; // room for any block of up to 1024 threads
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < n && y < n)
    tile[threadIdx.y * TILE + threadIdx.x] = in[y * n + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x;
  int ty = blockIdx.x * TILE + threadIdx.y;
  if (tx < n && ty < n)
    out[ty * n + tx] = tile[threadIdx.x * TILE + threadIdx.y];
}

int matrixSize(int argc, char **argv); // from the command line

int main(int argc, char **argv) {
  int n = matrixSize(argc, argv);
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + 15) / 16);
  transpose_tile16<<<grid, block>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
