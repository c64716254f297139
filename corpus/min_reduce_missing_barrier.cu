// Block minimum. The conditional store of the inputs is not separated from
// the first reduction step by a barrier: threads of the lower half read
// slots that other warps may not have written yet.
__global__ void min_reduce_missing_barrier(const float *in, float *out, int n) {
  __shared__ float sd[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    sd[tid] = in[i];
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      float a = sd[tid];
      float b = sd[tid + s];
      sd[tid] = a < b ? a : b;
    }
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sd[0];
}
