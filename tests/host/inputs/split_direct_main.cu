// The program's main for split_direct_kernels.cu: it declares the kernels
// and launches one of them itself; the other's launch is commented out.
__global__ void addOne(float *d, int n);
__global__ void addTwo(float *d, int n);

int main() {
  const int n = 1000;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  addOne<<<(n + 255) / 256, 256>>>(d, n);
  // addTwo<<<1, 32>>>(d, n);
  cudaDeviceSynchronize();
  return 0;
}
