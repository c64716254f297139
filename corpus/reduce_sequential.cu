// Block-wide sum with sequential addressing (stride halves each step).
// Race-free: a barrier separates every step.
__global__ void reduce_sequential(const float *in, float *out, int n) {
  __shared__ float sd[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sd[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sd[tid] += sd[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sd[0];
}
