// data[i] *= a in place. Race-free: one thread per element.
__global__ void vector_scale_inplace(float *data, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * a;
}
