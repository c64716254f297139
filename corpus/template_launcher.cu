// A 1-D box filter templated on its tile width, launched only through a
// template launcher that always uses blocks of TILE threads. Each block
// stages TILE elements in shared memory; in blocks wider than TILE two
// threads would share a slot, but the program never launches those.

template <int TILE> __global__ void box_filter(const float *in, float *out, int n) {
  __shared__ float tile[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  tile[threadIdx.x % TILE] = i < n ? in[i] : 0.0f;
  __syncthreads();
  float left = tile[(threadIdx.x + TILE - 1) % TILE];
  float right = tile[(threadIdx.x + 1) % TILE];
  if (i < n)
    out[i] = (left + tile[threadIdx.x % TILE] + right) / 3.0f;
}

template <int TILE> void runBoxFilter(const float *in, float *out, int n) {
  box_filter<TILE><<<(n + TILE - 1) / TILE, TILE>>>(in, out, n);
}

int sizeFromInput(int argc, char **argv);

int main(int argc, char **argv) {
  int n = sizeFromInput(argc, argv);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  runBoxFilter<64>(in, out, n);
  runBoxFilter<128>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
