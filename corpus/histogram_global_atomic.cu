// Histogram with one global atomicAdd per element. Race-free.
__global__ void histogram_global_atomic(const unsigned *data, unsigned *hist, int n, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && nbins > 0)
    atomicAdd(&hist[data[i] % nbins], 1u);
}
