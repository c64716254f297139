// Each iteration computes b from a, syncs, then a from b, but does not sync
// again: the next iteration's first phase races with this one's second
// phase (needs iters >= 2 and more than one warp).
__global__ void double_buffer_missing_barrier(const float *in, float *out, int iters) {
  __shared__ float a[1024];
  __shared__ float b[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int rounds = iters < 16 ? iters : 16;
  a[tid] = in[i];
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    b[tid] = a[tid] + a[(tid + 1) % blockDim.x];
    __syncthreads();
    a[tid] = b[tid] + b[(tid + 1) % blockDim.x];
  }
  out[i] = a[tid];
}
