// Exclusive scan of 2 * blockDim.x elements in one block (Blelloch).
// Elements are loaded and stored coalesced, so every barrier orders accesses
// of different warps. Race-free. Needs blockDim.x a power of two.
__global__ void scan_blelloch(const float *in, float *out, int n) {
  __shared__ float t[2048];
  unsigned tid = threadIdx.x;
  unsigned m = 2 * blockDim.x;
  t[tid] = (tid < n) ? in[tid] : 0.0f;
  t[tid + blockDim.x] = (tid + blockDim.x < n) ? in[tid + blockDim.x] : 0.0f;
  unsigned offset = 1;
  for (unsigned d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      t[bi] += t[ai];
    }
    offset *= 2;
  }
  if (tid == 0)
    t[m - 1] = 0.0f;
  for (unsigned d = 1; d < m; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      float left = t[ai];
      t[ai] = t[bi];
      t[bi] += left;
    }
  }
  __syncthreads();
  if (tid < n)
    out[tid] = t[tid];
  if (tid + blockDim.x < n)
    out[tid + blockDim.x] = t[tid + blockDim.x];
}
