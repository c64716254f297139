// Lanes swap values with their neighbour through shared memory, ordered by
// a block barrier. In a block of one warp, lockstep execution would order
// the two sides anyway, but on Volta and later the barrier is what orders
// them: it must never be called redundant, under either semantics.
__global__ void warp_exchange_barrier(const int *in, int *out, int n) {
  __shared__ int s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (i < n) ? in[i] : 0;
  __syncthreads();
  if (i < n)
    out[i] = s[threadIdx.x ^ 1];
}
