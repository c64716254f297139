// hist[bin] += 1 without atomics: lanes with the same bin collide.
__global__ void histogram_nonatomic(const unsigned *data, unsigned *hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    hist[data[i] % 8u] += 1u;
}
