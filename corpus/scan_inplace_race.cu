// In-place Hillis-Steele scan: one barrier per step is not enough because a
// step both reads s[tid - off] and overwrites s[tid]. Lockstep hides the
// race inside a warp; across warps thread 32 reads s[31] while warp 0
// rewrites it.
__global__ void scan_inplace_race(const float *in, float *out, int n) {
  __shared__ float s[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned off = 1; off < blockDim.x; off *= 2) {
    float v = (tid >= off) ? s[tid - off] : 0.0f;
    s[tid] += v;
    __syncthreads();
  }
  if (i < n)
    out[i] = s[tid];
}
