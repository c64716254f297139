// Buffers the host zeroes (or fills) before a launch, for CallSiteReaderTest.
__global__ void count(int *counts, const int *keys, int n) {}

int main() {
  int n = 256;
  int *counts, *keys, host[256];
  cudaMalloc(&counts, n * sizeof(int));
  cudaMalloc(&keys, n * sizeof(int));
  cudaMemset(counts, 0, n * sizeof(int));
  cudaMemset(keys, 0, n * sizeof(int));
  cudaMemcpy(keys, host, n * sizeof(int), cudaMemcpyHostToDevice);
  count<<<1, 256>>>(counts, keys, n);
  cudaMemcpy(counts, host, n * sizeof(int), cudaMemcpyHostToDevice);
  count<<<1, 256>>>(counts, keys, n);
  return 0;
}
