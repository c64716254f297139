// Block-wide predicate reductions through the barrier: count, and, or.
__global__ void syncPredicates(const int *in, int *out) {
  int value = in[blockIdx.x * blockDim.x + threadIdx.x];
  int count = __syncthreads_count(value > 0);
  int all = __syncthreads_and(value > 0);
  int any = __syncthreads_or(value > 100);
  if (threadIdx.x == 0) {
    out[blockIdx.x * 3 + 0] = count;
    out[blockIdx.x * 3 + 1] = all;
    out[blockIdx.x * 3 + 2] = any;
  }
}
