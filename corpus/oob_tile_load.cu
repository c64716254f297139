// Stages a tile without checking i < n; the input holds exactly n elements,
// so the tail of the last block reads out of bounds.
__global__ void oob_tile_load(const float *in, float *out, int n) {
  __shared__ float tile[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x] + tile[(threadIdx.x + 1) % blockDim.x];
}
