// Each block sums the first 128 floats of its row with a tree. Threads at
// or past the row's width skip the whole body, barriers included, which is
// barrier divergence unless the width is at least the block. The host
// passes the width as 128 * lanes with lanes >= 1, once to a launcher
// function and once to the constructor of a class whose method launches:
// every thread of every launch the program makes takes the body.
#include <cstdlib>

__global__ void row_sums(const float *in, float *out, int width) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  if (t < width) {
    tile[t] = in[blockIdx.x * width + t];
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
      if (t < s)
        tile[t] += tile[t + s];
      __syncthreads();
    }
    if (t == 0)
      out[blockIdx.x] = tile[0];
  }
}

void run(const float *in, float *out, int rows, int width) {
  row_sums<<<rows, 128>>>(in, out, width);
}

class RowSums {
public:
  RowSums(int rows, int lanes) : rows_(rows), width_(128 * lanes) {
    cudaMalloc(&in_, rows_ * width_ * sizeof(float));
    cudaMalloc(&out_, rows_ * sizeof(float));
  }
  void run() { row_sums<<<rows_, 128>>>(in_, out_, width_); }

private:
  int rows_, width_;
  float *in_, *out_;
};

int main(int argc, char **argv) {
  int rows = std::atoi(argv[1]);
  int lanes = std::atoi(argv[2]);
  if (rows < 1 || lanes < 1)
    return 1;
  float *in, *out;
  cudaMalloc(&in, rows * 128 * lanes * sizeof(float));
  cudaMalloc(&out, rows * sizeof(float));
  run(in, out, rows, 128 * lanes);
  RowSums sums(rows, 2 * lanes);
  sums.run();
  cudaDeviceSynchronize();
  return 0;
}
