// Row sums, one row per step of a block-strided loop: every lane of the
// first warp adds up the whole row and stores the same total into one
// shared word, a same-value race with a new value each step. The block's
// last thread copies it out after a barrier, and a second barrier keeps the
// next step's store after that copy.
__global__ void row_sums(const float *m, float *sums, int rows, int cols) {
  __shared__ float total;
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    if (threadIdx.x < 32) {
      float part = 0.0f;
      for (int c = 0; c < cols; ++c)
        part += m[r * cols + c];
      total = part;
    }
    __syncthreads();
    if (threadIdx.x == blockDim.x - 1)
      sums[r] = total;
    __syncthreads();
  }
}
