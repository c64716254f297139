// A block reduction templated on the block size, instantiated by the host
// code at 256 and at 64 threads. The "small blocks need no barrier" shortcut
// is wrong: block_sum<64> has two warps, and even within one warp the steps
// race under independent thread scheduling. block_sum<256> is race-free.

template <int BLOCK>
__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    if (BLOCK > 64)
      __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

int elementCount(int argc, char **argv); // from the command line

int main(int argc, char **argv) {
  int n = elementCount(argc, argv);
  int partials = (n + 255) / 256;
  float *in, *partial, *total;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, partials * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  block_sum<256><<<(n + 255) / 256, 256>>>(in, partial, n);
  block_sum<64><<<1, 64>>>(partial, total, partials);
  cudaDeviceSynchronize();
  return 0;
}
