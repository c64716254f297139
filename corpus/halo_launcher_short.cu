// A three-point average: each output reads its input and the two after it.
// The host allocates the input without its two halo elements, n floats, and
// passes it to a launcher with n: the last threads read past the
// allocation. Simulee used to size a buffer a launcher is passed by its own
// rule where the host's size was no constant, and missed it.
#include <cstdlib>

__global__ void smooth3_short(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (in[i] + in[i + 1] + in[i + 2]) / 3.0f;
}

void run(const float *in, float *out, int n) { smooth3_short<<<(n + 127) / 128, 128>>>(in, out, n); }

int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  if (n < 1)
    return 1;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  run(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
