// Reads the right neighbour of every element: out[i] = in[i + 1] for every
// i < n. The host allocates exactly n floats for `in`, so the last thread
// reads one element past the allocation. Simulee used to grow the buffers it
// made until the read fit; the host's cudaMalloc now sizes `in`.

__global__ void shift_left(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i + 1];
}

int sizeFromInput(int argc, char **argv);

int main(int argc, char **argv) {
  int n = sizeFromInput(argc, argv);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  shift_left<<<(n + 127) / 128, 128>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
