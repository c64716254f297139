// Block-wide votes through the barrier itself: every thread learns how many
// values are positive, whether all are, and whether any exceeds a limit.
// No shared memory at all; the barriers carry the results. Race-free, and
// none of the barriers is redundant.
__global__ void block_vote_count(const int *in, int *out, int n, int limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  int positives = __syncthreads_count(value > 0);
  int allPositive = __syncthreads_and(value > 0);
  int anyOver = __syncthreads_or(value > limit);
  if (i < n)
    out[i] = positives + 2 * allPositive + 4 * anyOver;
}
