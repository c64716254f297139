// Pointers into one allocation passed together, for CallSiteReaderTest.
__global__ void combine(float *out, const float *in, int n) {}

void combineIn(float *out, float *in, int n) { combine<<<n / 256, 256>>>(out, in, n); }

int main() {
  int n = 4096;
  float *a, *b;
  cudaMalloc(&a, 2 * n * sizeof(float)); cudaMalloc(&b, n * sizeof(float));
  // In place: one buffer.
  combine<<<n / 256, 256>>>(a, a, n);
  // The allocation's two halves.
  combine<<<n / 256, 256>>>(a, a + n, n);
  // Two allocations made on one line: two buffers.
  combine<<<n / 256, 256>>>(b, a, n);
  // Through a launcher: its parameters take one allocation.
  combineIn(b, b, n);
  return 0;
}
