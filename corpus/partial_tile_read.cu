// Only the lower half of the block stages its element in the shared tile,
// but every thread reads its own slot back: the upper half reads bytes no
// thread of the block ever wrote.
__global__ void partial_tile_read(const float *in, float *out, int n) {
  __shared__ float tile[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < blockDim.x / 2)
    tile[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x];
}
