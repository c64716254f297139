// Histogram of data[0..n) into nbins (at most 64) bins: per-block shared
// bins updated with atomics, then added to the global bins. Race-free.
#define MAX_BINS 64
__global__ void histogram_shared_atomic(const unsigned *data, unsigned *hist, int n, int nbins) {
  __shared__ unsigned bins[MAX_BINS];
  int nb = nbins < 1 ? 1 : (nbins > MAX_BINS ? MAX_BINS : nbins);
  for (int b = threadIdx.x; b < nb; b += blockDim.x)
    bins[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i] % nb], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < nb; b += blockDim.x)
    atomicAdd(&hist[b], bins[b]);
}
