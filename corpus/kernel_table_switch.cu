// Two smoothing passes over a periodic 64x64 grid, one along rows and one
// along columns. A launcher fills a table of kernel pointers in a switch on
// its axis and launches each entry with the grid and block a setup function
// stored in global dim3 tables: the row pass in blocks of 64 x 4, the column
// pass in blocks of 4 x 64. Each pass's shared tile holds a halo for the
// block shape of its own entry; in the other shape threads would read halo
// slots no thread stored. The third axis's pass is stored only for an axis
// the program never asks for: it is never launched.

#define N 64
#define PENCILS 4
#define R 2

typedef void (*Pass)(const float *, float *);

__global__ void smooth_rows(const float *in, float *out) {
  __shared__ float tile[PENCILS][N + 2 * R];
  int x = threadIdx.x, p = threadIdx.y;
  int row = blockIdx.x * PENCILS + p;
  tile[p][x + R] = in[row * N + x];
  if (x < R) {
    tile[p][x] = in[row * N + x + N - R]; // left halo: the row's last values
    tile[p][x + N + R] = in[row * N + x]; // right halo: its first
  }
  __syncthreads();
  out[row * N + x] = (tile[p][x] + tile[p][x + R] + tile[p][x + 2 * R]) / 3.0f;
}

__global__ void smooth_cols(const float *in, float *out) {
  __shared__ float tile[N + 2 * R][PENCILS];
  int y = threadIdx.y, p = threadIdx.x;
  int col = blockIdx.x * PENCILS + p;
  tile[y + R][p] = in[y * N + col];
  if (y < R) {
    tile[y][p] = in[(y + N - R) * N + col];
    tile[y + N + R][p] = in[y * N + col];
  }
  __syncthreads();
  out[y * N + col] = (tile[y][p] + tile[y + R][p] + tile[y + 2 * R][p]) / 3.0f;
}

// Every thread reads its neighbour's slot with no barrier after the store.
__global__ void sharpen_depth(const float *in, float *out) {
  __shared__ float line[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  line[threadIdx.x] = in[i];
  out[i] = 2.0f * line[threadIdx.x] - line[(threadIdx.x + 1) % blockDim.x];
}

__global__ void halve(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 0.5f;
}

dim3 grids[3][2], blocks[3][2];

void configure() {
  grids[0][0] = dim3(N / PENCILS);
  blocks[0][0] = dim3(N, PENCILS);
  grids[1][0] = dim3(N / PENCILS);
  blocks[1][0] = dim3(PENCILS, N);
  for (int axis = 0; axis < 3; ++axis) {
    grids[axis][1] = dim3(N * N / 256);
    blocks[axis][1] = dim3(256);
  }
}

void run(int axis) {
  Pass passes[2];
  switch (axis) {
  case 0:
    passes[0] = smooth_rows;
    break;
  case 1:
    passes[0] = smooth_cols;
    break;
  case 2:
    passes[0] = sharpen_depth;
    break;
  }
  passes[1] = halve;
  float *in, *out;
  cudaMalloc(&in, N * N * sizeof(float));
  cudaMalloc(&out, N * N * sizeof(float));
  cudaMemset(in, 0, N * N * sizeof(float));
  for (int pass = 0; pass < 2; ++pass)
    passes[pass]<<<grids[axis][pass], blocks[axis][pass]>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
}

int main() {
  configure();
  run(0);
  run(1);
  return 0;
}
