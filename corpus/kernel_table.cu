// Two 16x16 tile kernels chosen at run time from a table of kernel pointers
// and launched with one dim3(16, 16) block. Both index their tile with a
// hard-coded width of 16: in any other block shape two threads would share
// a slot, but the table's launch is the only one the program makes.

#define TILE 16

__global__ void tile_flip_rows(const float *in, float *out, int width) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x % TILE;
  int y = blockIdx.y * TILE + threadIdx.y % TILE;
  tile[threadIdx.y % TILE][threadIdx.x % TILE] = in[y * width + x];
  __syncthreads();
  out[y * width + x] = tile[TILE - 1 - threadIdx.y % TILE][threadIdx.x % TILE];
}

__global__ void tile_flip_cols(const float *in, float *out, int width) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x % TILE;
  int y = blockIdx.y * TILE + threadIdx.y % TILE;
  tile[threadIdx.y % TILE][threadIdx.x % TILE] = in[y * width + x];
  __syncthreads();
  out[y * width + x] = tile[threadIdx.y % TILE][TILE - 1 - threadIdx.x % TILE];
}

int main(int argc, char **argv) {
  const int width = 64;
  float *in, *out;
  cudaMalloc(&in, width * width * sizeof(float));
  cudaMalloc(&out, width * width * sizeof(float));
  void (*const flips[])(const float *, float *, int) = {tile_flip_rows, tile_flip_cols};
  dim3 block(TILE, TILE);
  dim3 grid(width / TILE, width / TILE);
  flips[argc % 2]<<<grid, block>>>(in, out, width);
  cudaDeviceSynchronize();
  return 0;
}
