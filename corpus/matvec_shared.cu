// y = A * x for a rows x cols matrix; the block stages x in chunks of
// blockDim.x elements. Race-free: barriers before and after using a chunk.
__global__ void matvec_shared(const float *A, const float *x, float *y, int rows, int cols) {
  __shared__ float xs[1024];
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j0 = 0; j0 < cols; j0 += blockDim.x) {
    if (j0 + threadIdx.x < cols)
      xs[threadIdx.x] = x[j0 + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < blockDim.x && j0 + j < cols; ++j)
      if (row < rows)
        acc += A[row * cols + j0 + j] * xs[j];
    __syncthreads();
  }
  if (row < rows)
    y[row] = acc;
}
