// Launches computed from variables the program decides at run time and does
// not pass, for CallSiteReaderTest; the launches are in the order the test
// reads them.
__global__ void sum(const float *in, float *out, int n) {}

int valueFromUser();

// No call in the file fixes threads.
void launch(const float *in, float *out, int n, int threads) {
  int blocks = (n + threads - 1) / threads;
  sum<<<blocks, threads, threads * sizeof(float)>>>(in, out, n);
}

int main() {
  int n = 1 << 20;
  int threads = valueFromUser();
  unsigned long bytes = valueFromUser();
  float *in, *out;
  cudaMalloc(&in, bytes); // a variable the launch does not use: not searched
  cudaMalloc(&out, threads * sizeof(float));
  sum<<<n / threads, threads>>>(in, out, n);
  return 0;
}
