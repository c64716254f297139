// 64-bin histogram of bytes: per-block counts in shared memory with
// atomicAdd, then merged into the global bins with atomicAdd.
#define BINS 64

__global__ void histogram(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}
