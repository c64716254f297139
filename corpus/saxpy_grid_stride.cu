// y = a * x + y with a grid-stride loop. Race-free.
__global__ void saxpy_grid_stride(float a, const float *x, float *y, int n) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += blockDim.x * gridDim.x)
    y[k] = a * x[k] + y[k];
}
