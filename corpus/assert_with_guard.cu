// The twin of assert_instead_of_guard: threads past n return first, and the
// assertion checks what the indexing assumes of the block, which the host's
// blocks of 256 meet. No launch the program makes fails it.
#include <cassert>

__global__ void double_all(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  assert(blockDim.x % 32 == 0);
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
