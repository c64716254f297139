// Warp-level shuffle reduction; lane 0 of each warp publishes its total,
// then thread 0 adds the totals after a barrier. Race-free.
__global__ void reduce_warp_shuffle(const float *in, float *out, int n) {
  __shared__ float warpSums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  unsigned warp = threadIdx.x >> 5;
  float v = (i < n) ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w)
      total += warpSums[w];
    out[blockIdx.x] = total;
  }
}
