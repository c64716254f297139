// Pointers moved by loop variables, for CallSiteReaderTest.
__global__ void segment(float *data, int n) {}
__global__ void indexed(float *data, int n, int s) {}

int main() {
  const int streams = 4, n = 1024;
  float *d;
  cudaMalloc(&d, streams * n * sizeof(float));
  for (int s = 0; s < streams; ++s) {
    int offset = s * n;
    segment<<<n / 256, 256>>>(&d[offset], n);
  }
  for (int s = 2; 9 >= s; s += 3)
    segment<<<1, 32>>>(d + s, n);
  for (int s = 0; s < streams; ++s) {
    segment<<<1, 32>>>(d + s, n);
    if (s == 1)
      ++s;
  }
  for (int s = 0; s < streams; ++s)
    indexed<<<1, 32>>>(d + s, n, s);
  for (int s = 5; s < streams; ++s)
    segment<<<1, 32>>>(d + s, n);
  return 0;
}
