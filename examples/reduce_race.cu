// A block-wide sum in shared memory whose loop forgot the barrier between the
// steps: a thread reads a partner's slot while the partner may still write it.
__global__ void reduce(const float *in, float *out, int n) {
  __shared__ float partial[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    // missing __syncthreads() here
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}
