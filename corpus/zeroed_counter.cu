// Stream compaction through a global counter: each kept element takes the
// next slot with atomicAdd. The host zeroes the counter just before the
// launch, so slots run from 0 and stay inside the n-element output. (With
// a counter holding anything else they would run past it.)

__global__ void compact_positive(const float *in, float *out, int *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.5f) {
    int slot = atomicAdd(counter, 1);
    out[slot] = in[i];
  }
}

int sizeFromInput(int argc, char **argv);

int main(int argc, char **argv) {
  int n = sizeFromInput(argc, argv);
  float *in, *out;
  int *counter;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&counter, sizeof(int));
  cudaMemset(counter, 0, sizeof(int));
  compact_positive<<<(n + 255) / 256, 256>>>(in, out, counter, n);
  cudaDeviceSynchronize();
  return 0;
}
