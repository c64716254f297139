// Counts the elements greater than threshold. Race-free (atomic counter).
__global__ void count_if_atomic(const float *in, int *count, float threshold, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > threshold)
    atomicAdd(count, 1);
}
