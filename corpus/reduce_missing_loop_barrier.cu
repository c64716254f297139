// Tree reduction whose loop has no barrier between steps. While all active
// threads are in warp 0 lockstep hides it; with more than 64 threads, warp
// 0 reads partial sums warp 1 is still producing.
__global__ void reduce_missing_loop_barrier(const float *in, float *out, int n) {
  __shared__ float sd[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sd[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sd[tid] += sd[tid + s];
  }
  if (tid == 0)
    out[blockIdx.x] = sd[0];
}
