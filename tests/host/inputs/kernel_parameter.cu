// Kernels passed to a launcher function as function pointers, for
// CallSiteReaderTest.
__global__ void scale(float *p, int n) {}
__global__ void shift(float *p, int n) {}

typedef void (*Kernel)(float *, int);

void timed(Kernel kernel, float *p, int n) { kernel<<<(n + 255) / 256, 256>>>(p, n); }

int main() {
  float *p;
  cudaMalloc(&p, 1000 * sizeof(float));
  timed(scale, p, 1000);
  timed(&shift, p, 512);
  return 0;
}
