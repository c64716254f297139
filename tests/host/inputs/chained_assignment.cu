// Sizes set by one chained assignment, for CallSiteReaderTest.
__global__ void gemm(const float *a, float *c, int m, int n, int k) {}

int main() {
  int m, n, k;
  n = m = (k = 512);
  float *a, *c;
  cudaMalloc(&a, m * k * sizeof(float));
  cudaMalloc(&c, m * n * sizeof(float));
  gemm<<<dim3(n / 16, m / 16), dim3(16, 16)>>>(a, c, m, n, k);
  return 0;
}
