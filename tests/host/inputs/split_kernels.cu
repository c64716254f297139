// A kernel and its launcher, called from split_main.cu, for
// CallSiteReaderTest.
__global__ void scaleBy(float *data, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

void runScale(float *data, int n, int factor) {
  scaleBy<<<(n + 255) / 256, 256>>>(data, n, factor);
}
