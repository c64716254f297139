// A block sum launched by a function that takes its block size as a
// parameter no call in this file fixes: the block, the dynamic shared bytes
// and the grid all follow that one value. The interleaved tree reads
// partial[t + s] for t a multiple of 2s, which stays inside the block only
// when the block is a power of two; the launcher asserts that it is, so
// every launch the program makes is in bounds and race-free.
#include <cassert>

__global__ void tree_sum(const float *in, float *out, int n) {
  extern __shared__ float partial[];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (t % (2 * s) == 0)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = partial[0];
}

void sum_blocks(const float *in, float *out, int n, int threads) {
  assert(threads > 0 && (threads & (threads - 1)) == 0);
  int blocks = (n + threads - 1) / threads;
  tree_sum<<<blocks, threads, threads * sizeof(float)>>>(in, out, n);
}
