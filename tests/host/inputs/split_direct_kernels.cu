// Kernels with no host code of their own: split_direct_main.cu, beside
// this file, declares and launches them, for CallSiteReaderTest.
__global__ void addOne(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}

__global__ void addTwo(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 2.0f;
}
