// Gathers values through an index buffer the host reads from a file. The
// host sizes every buffer by the count and its indices are in range of the
// values, as code that gathers assumes: the kernel is correct. A search that
// fills the indices with values past the count sees reads out of bounds of
// the host's allocation, which no such file holds.
__global__ void gather(const int *slot, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[slot[i]];
}

// The bug: one past the index, so the last value's index reads past the
// end whatever the indices are.
__global__ void gather_next(const int *slot, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[slot[i] + 1];
}

int readCount(int argc, char **argv);
void readSlots(int argc, char **argv, int *slots, int n);

int main(int argc, char **argv) {
  int n = readCount(argc, argv);
  if (n <= 0)
    return 1;
  int *hostSlots = new int[n];
  readSlots(argc, argv, hostSlots, n);
  int *slot;
  float *in, *out;
  cudaMalloc(&slot, n * sizeof(int));
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(slot, hostSlots, n * sizeof(int), cudaMemcpyHostToDevice);
  gather<<<(n + 255) / 256, 256>>>(slot, in, out, n);
  gather_next<<<(n + 255) / 256, 256>>>(slot, in, out, n);
  cudaDeviceSynchronize();
  delete[] hostSlots;
  return 0;
}
