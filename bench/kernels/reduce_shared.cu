// Benchmark copy of tests/interp/kernels/reduce_shared.cu (kept separate so tests can change).
// Per-block sum in shared memory: a tree with a barrier after every level.
#define BLOCK 256

__global__ void reduceSum(const int *in, int *blockSums, int n) {
  __shared__ int partial[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < (unsigned)n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    blockSums[blockIdx.x] = partial[0];
}
