// simulee exec example: the same kernel launched three times; it lacks a
// bounds check, which only the third launch (n = 1000, not a multiple of the
// block) exposes: an out-of-bounds write at line 10 by the 3rd launch.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void doubleAll(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  (void)n; // the missing `if (i < n)`
  x[i] *= 2.0f;
}

int main() {
  const int sizes[] = {256, 512, 1000};
  for (int n : sizes) {
    float *host = new float[n], *device;
    for (int i = 0; i < n; ++i)
      host[i] = float(i);
    cudaMalloc(&device, n * sizeof(float));
    cudaMemcpy(device, host, n * sizeof(float), cudaMemcpyHostToDevice);
    doubleAll<<<(n + 255) / 256, 256>>>(device, n);
    cudaMemcpy(host, device, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
      if (host[i] != 2.0f * i) {
        printf("FAILED at %d of %d\n", i, n);
        return 1;
      }
    cudaFree(device);
    delete[] host;
  }
  printf("PASSED\n");
  return 0;
}
