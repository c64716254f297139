// An exponential moving average kept in the thread's own shared slot; the
// barrier in the loop is redundant in every iteration.
__global__ void redundant_loop_barrier(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = (i < n) ? in[i] : 0.0f;
  s[threadIdx.x] = 0.0f;
  for (int k = 0; k < 4; ++k) {
    s[threadIdx.x] = s[threadIdx.x] * 0.5f + x;
    __syncthreads();
  }
  if (i < n)
    out[i] = s[threadIdx.x];
}
