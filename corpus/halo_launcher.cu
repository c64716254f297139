// A three-point average: each output reads its input and the two after it.
// The host allocates the input with its two halo elements, (n + 2) floats,
// and passes it to a launcher with n: every read is in bounds in the launch
// the program makes.
#include <cstdlib>

__global__ void smooth3(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (in[i] + in[i + 1] + in[i + 2]) / 3.0f;
}

void run(const float *in, float *out, int n) { smooth3<<<(n + 127) / 128, 128>>>(in, out, n); }

int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  if (n < 1)
    return 1;
  float *in, *out;
  cudaMalloc(&in, (n + 2) * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  run(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
