// Floating-point arguments the host fixes: a local never changed after its
// initializer, and a launcher's parameter its call passes one; a float
// passed for an integer, converted. For CallSiteReaderTest.
__global__ void step(float *p, int n, float rate) {
  if (threadIdx.x < n)
    p[threadIdx.x] *= rate;
}

void launchStep(float *p, int n, float rate) { step<<<1, 32>>>(p, n, rate); }

int main() {
  float *p;
  int n = 32;
  float rate = 1e-3f;
  float rows = 32.7f;
  cudaMalloc(&p, n * sizeof(float));
  step<<<1, 32>>>(p, n, rate);
  step<<<1, 32>>>(p, rows, rate);
  launchStep(p, n, rate);
  launchStep(p, n, 0.5f);
  return 0;
}
