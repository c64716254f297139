// Scatters element i to slot (i * 5) & (n - 1): a permutation of 0..n-1 when
// n is a power of two (5 is odd), and a collision of two threads on one slot
// otherwise. The host asserts that n is a power of two before the launch, so
// every launch the program makes is race-free.
#include <cassert>

__global__ void odd_scatter(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[(i * 5) & (n - 1)] = in[i];
}

int sizeFromInput(int argc, char **argv);

int main(int argc, char **argv) {
  int n = sizeFromInput(argc, argv);
  assert(n > 0 && (n & (n - 1)) == 0);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  odd_scatter<<<(n + 255) / 256, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
