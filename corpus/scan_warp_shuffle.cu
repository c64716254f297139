// Inclusive scan per block: __shfl_up_sync scan inside each warp, warp
// totals scanned by warp 0, then added back. Race-free.
__global__ void scan_warp_shuffle(const float *in, float *out, int n) {
  __shared__ float sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  unsigned warp = threadIdx.x >> 5;
  unsigned nwarps = (blockDim.x + 31) / 32;
  float v = (i < n) ? in[i] : 0.0f;
  for (unsigned off = 1; off < 32; off <<= 1) {
    float up = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off)
      v += up;
  }
  if (lane == 31)
    sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float s = (lane < nwarps) ? sums[lane] : 0.0f;
    for (unsigned off = 1; off < 32; off <<= 1) {
      float up = __shfl_up_sync(0xffffffffu, s, off);
      if (lane >= off)
        s += up;
    }
    if (lane < nwarps)
      sums[lane] = s;
  }
  __syncthreads();
  if (warp > 0)
    v += sums[warp - 1];
  if (i < n)
    out[i] = v;
}
