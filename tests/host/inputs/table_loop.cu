// A benchmark's loop over a table of block sizes, launching directly and
// through a launcher: each iteration's block size, not a searched one. For
// CallSiteReaderTest.
__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
}

void launchFill(float *p, int n, int threads) {
  fill<<<(n + threads - 1) / threads, threads>>>(p, n);
}

int main() {
  int n = 1000;
  float *p;
  cudaMalloc(&p, n * sizeof(float));
  int block_sizes[] = {32, 64, 128};
  for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
    int block_size = block_sizes[j];
    fill<<<(n + block_size - 1) / block_size, block_size>>>(p, n);
    launchFill(p, n, block_size);
  }
  return 0;
}
