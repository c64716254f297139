// Doubles n floats with an assert where a guard belongs: the host rounds the
// grid up to whole blocks of 256, so the last block's threads past n fail
// the assertion in the program's own launch, whatever the buffers hold.
#include <cassert>

__global__ void double_all(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  out[i] = 2.0f * in[i];
}

int main() {
  int n = 1000;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  double_all<<<(n + 255) / 256, 256>>>(out, in, n);
  cudaDeviceSynchronize();
  return 0;
}
