// The twin of alloc_shift_read: the host allocates n + 1 floats for `in`, so
// in[i + 1] for i < n stays inside the allocation in every launch.

__global__ void shift_left(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i + 1];
}

int sizeFromInput(int argc, char **argv);

int main(int argc, char **argv) {
  int n = sizeFromInput(argc, argv);
  float *in, *out;
  cudaMalloc(&in, (n + 1) * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  shift_left<<<(n + 127) / 128, 128>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
