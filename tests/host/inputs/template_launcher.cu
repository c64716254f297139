// A template launcher and a table of kernels, for CallSiteReaderTest; the
// line numbers are in the test.
template <int WIN> __global__ void box(float *d, int n) {}
__global__ void plain(float *d, int n) {}
__global__ void up(float *d, int n) {}
__global__ void down(float *d, int n) {}

template <int WIN> void launchBox(float *d, int n) {
  box<WIN><<<(n + WIN - 1) / WIN, WIN>>>(d, n);
  plain<<<1, WIN>>>(d, n);
}

int sizeFromUser();

int main() {
  float *d;
  int n = sizeFromUser();
  launchBox<16>(d, n);
  launchBox<32>(d, n);
  void (*const table[])(float *, int) = {up, down};
  for (int i = 0; i < 2; ++i)
    table[i]<<<dim3(4), dim3(64)>>>(d, n);
  return 0;
}
