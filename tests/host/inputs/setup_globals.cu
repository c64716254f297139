// Launch settings kept in globals a setup function assigns once, for
// CallSiteReaderTest.
__global__ void k(float *d, int n) {}

dim3 threads, blocks;
int N;
int wide;
int scale = 1;

void init() {
  N = 1 << 12;
  threads = dim3(256);
  blocks = dim3(N / 256);
  if (N > 100) // not on every way through init
    wide = 512;
  scale = 2;
  scale *= 2; // changed twice: not one value
}

int main() {
  init();
  float *d;
  cudaMalloc(&d, N * sizeof(float));
  k<<<blocks, threads>>>(d, N);
  k<<<1, wide>>>(d, N);
  k<<<scale, threads>>>(d, N);
  return 0;
}
