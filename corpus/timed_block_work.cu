// Each block measures how long its threads take to scale their elements, as
// microbenchmarks do: the first barrier lets every thread arrive before
// thread 0 reads the clock, the last one lets every thread finish before it
// reads the clock again. The first orders no memory access (nothing is
// accessed before it), but it orders the clock read against the block's
// work: a timing barrier, not a redundant one.
__global__ void timed_block_work(const float *in, float *out, long long *cycles, int n) {
  __shared__ long long start;
  __syncthreads();
  if (threadIdx.x == 0)
    start = clock64();
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
  __syncthreads();
  if (threadIdx.x == 0)
    cycles[blockIdx.x] = clock64() - start;
}
