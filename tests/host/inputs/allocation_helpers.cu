// Device memory allocated by helpers of the program's (through a reference
// and through a pointer to the pointer), for CallSiteReaderTest.
#include <cstddef>

template <typename T> void allocBytes(T &pointer, size_t bytes) {
  cudaMallocManaged(&pointer, bytes);
}

void allocFloats(float **pointer, size_t bytes) { cudaMalloc((void **)pointer, bytes); }

__global__ void inc(int *counts, float *weights, size_t n) {}

int main() {
  const size_t n = 1 << 20;
  int *counts;
  float *weights;
  allocBytes(counts, n * sizeof(int));
  allocFloats(&weights, 2 * n * sizeof(float));
  inc<<<256, 256>>>(counts, weights, n);
  return 0;
}
