// Row sums staged through shared memory, one group of WIDTH threads per row
// and 256 / WIDTH rows per block. The kernel assumes blocks of exactly
// (WIDTH, 256 / WIDTH): a wider block makes two threads share a slot of
// `staged`. The host reaches its launches only through a function object
// whose call operator picks the width from the column count and a launcher
// template that builds the block from WIDTH: read from the compiled host
// code, each width is searched in its own block shape, and the narrow
// variant, behind a constant that is false, is never launched.

template <int WIDTH>
__global__ void row_sums(const float *in, float *out, int rows, int cols) {
  __shared__ float staged[256];
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  int slot = threadIdx.y * WIDTH + threadIdx.x;
  staged[slot] = row < rows && int(threadIdx.x) < cols ? in[row * cols + threadIdx.x] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0 && row < rows) {
    float sum = 0.0f;
    for (int i = 0; i < WIDTH; ++i)
      sum += staged[threadIdx.y * WIDTH + i];
    out[row] = sum;
  }
}

constexpr bool kNarrowRows = false; // the 8-wide variant is switched off

template <int WIDTH, typename T> void launchRowSums(const T *in, T *out, int rows, int cols) {
  dim3 block(WIDTH, 256 / WIDTH);
  row_sums<WIDTH><<<(rows + block.y - 1) / block.y, block>>>(in, out, rows, cols);
}

template <typename T> struct RowSums {
  void operator()(const T *in, T *out, int rows, int cols) const {
    if (kNarrowRows && cols <= 8)
      launchRowSums<8>(in, out, rows, cols);
    else if (cols <= 16)
      launchRowSums<16>(in, out, rows, cols);
    else
      launchRowSums<32>(in, out, rows, cols);
  }
};

int dimensionFromInput(int argc, char **argv, int which);

int main(int argc, char **argv) {
  int rows = dimensionFromInput(argc, argv, 0);
  int cols = dimensionFromInput(argc, argv, 1);
  float *in, *out;
  cudaMalloc(&in, rows * cols * sizeof(float));
  cudaMalloc(&out, rows * sizeof(float));
  RowSums<float>()(in, out, rows, cols);
  cudaDeviceSynchronize();
  return 0;
}
