// Block sum with a shared atomic accumulator; thread 0 resets it, a barrier
// orders the reset before the atomics, another the atomics before the read.
// Race-free.
__global__ void shared_atomic_sum(const float *in, float *out, int n) {
  __shared__ float total;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    total = 0.0f;
  __syncthreads();
  if (i < n)
    atomicAdd(&total, in[i]);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
}
