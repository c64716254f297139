// A two-point difference: each output reads its input and the one after it.
// The launch is in a method of a class whose constructor allocates the
// input from its parameter, n floats, without the one element past the
// end: the last thread reads past the allocation in every launch the
// program makes.
#include <cstdlib>

__global__ void forward_diff(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i + 1] - in[i];
}

class Differ {
public:
  explicit Differ(int count) : n_(count) {
    cudaMalloc(&in_, count * sizeof(float));
    cudaMalloc(&out_, count * sizeof(float));
  }
  void run() { forward_diff<<<(n_ + 127) / 128, 128>>>(in_, out_, n_); }

private:
  int n_;
  float *in_, *out_;
};

int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  if (n < 1)
    return 1;
  Differ differ(n);
  differ.run();
  cudaDeviceSynchronize();
  return 0;
}
