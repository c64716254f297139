// Dot product of a and b: per-thread grid-stride partials, a block tree
// reduction, and one atomicAdd per block into result[0]. Race-free.
__global__ void dot_atomic(const float *a, const float *b, float *result, int n) {
  __shared__ float cache[1024];
  unsigned tid = threadIdx.x;
  float partial = 0.0f;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += blockDim.x * gridDim.x)
    partial += a[k] * b[k];
  cache[tid] = partial;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(result, cache[0]);
}
