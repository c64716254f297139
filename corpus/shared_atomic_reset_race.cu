// Missing barrier between thread 0's plain reset of the accumulator and the
// atomics of the other warps.
__global__ void shared_atomic_reset_race(const float *in, float *out, int n) {
  __shared__ float total;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    total = 0.0f;
  if (i < n)
    atomicAdd(&total, in[i]);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
}
