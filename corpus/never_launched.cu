// Two kernels; the host code launches only scale_rows. fold_window (a racy
// fold kept from an earlier version) is never launched: its race is real in
// any launch, but no launch the program makes reaches it, so the search
// reports the kernel as not launched (--explore searches it).

__global__ void scale_rows(float *data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * factor;
}

__global__ void fold_window(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i % 32] += data[i];
}

int sizeFromInput(int argc, char **argv);

int main(int argc, char **argv) {
  int n = sizeFromInput(argc, argv);
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  scale_rows<<<(n + 255) / 256, 256>>>(data, n, 0.5f);
  cudaDeviceSynchronize();
  return 0;
}
