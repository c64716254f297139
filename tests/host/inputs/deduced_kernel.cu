// A template launcher launching a kernel template whose arguments the
// launch's own deduce (`scaleAll<<<...>>>(p, n)` with p a T *): the syntax
// tree cannot name the instantiation, the compiled code can. For
// CallSiteReaderTest.
template <typename T> __global__ void scaleAll(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

template <typename T> void launchScaleAll(T *p, int n, int threads) {
  scaleAll<<<(n + threads - 1) / threads, threads>>>(p, n);
}

int main() {
  int n = 1000;
  float *p;
  cudaMalloc(&p, n * sizeof(float));
  launchScaleAll(p, n, 128);
  return 0;
}
