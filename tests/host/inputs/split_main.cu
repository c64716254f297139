// The program's main for split_kernels.cu, in a file of its own.
void runScale(float *data, int n, int factor);

int main() {
  float *data;
  cudaMalloc(&data, 4096 * sizeof(float));
  runScale(data, 4096, 3);
  cudaDeviceSynchronize();
  return 0;
}
