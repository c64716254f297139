// Device buffers allocated by main and passed through a launcher function
// to its launch, for CallSiteReaderTest.
__global__ void fill(float *d, int n) {}

void launch(float *d, int n) { fill<<<(n + 127) / 128, 128>>>(d, n); }

int main() {
  const int n = 1000;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, 2 * n * sizeof(float));
  launch(a, n);
  launch(b, 2 * n);
  return 0;
}
