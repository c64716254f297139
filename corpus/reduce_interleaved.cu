// Block-wide sum with interleaved addressing: at step s, thread t adds
// element 2*s*t + s into element 2*s*t. Race-free: a barrier after each step.
__global__ void reduce_interleaved(const float *in, float *out, int n) {
  __shared__ float sd[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sd[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index + s < blockDim.x)
      sd[index] += sd[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sd[0];
}
