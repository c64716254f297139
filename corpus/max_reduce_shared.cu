// Maximum of vals[0..n): block tree reduction, then atomicMax into out[0].
// Race-free.
__global__ void max_reduce_shared(const int *vals, int *out, int n) {
  __shared__ int sm[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sm[tid] = (i < n) ? vals[i] : -2147483647 - 1;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      int other = sm[tid + s];
      if (other > sm[tid])
        sm[tid] = other;
    }
    __syncthreads();
  }
  if (tid == 0)
    atomicMax(out, sm[0]);
}
