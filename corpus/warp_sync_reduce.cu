// Classic warp-synchronous tail of a tree reduction: once 32 partial sums
// remain, warp 0 finishes without barriers through a volatile pointer.
// Race-free in lockstep (pre-Volta) semantics; with independent thread
// scheduling the unsynchronised steps race with each other.
__global__ void warp_sync_reduce(const float *in, float *out, int n) {
  __shared__ float sd[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sd[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sd[tid] += sd[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *vs = sd;
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];
    vs[tid] += vs[tid + 8];
    vs[tid] += vs[tid + 4];
    vs[tid] += vs[tid + 2];
    vs[tid] += vs[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sd[0];
}
