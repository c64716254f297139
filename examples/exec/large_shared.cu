// Dynamic shared memory past 48 KiB (issue 20): a kernel stages a 64 KiB
// tile in dynamic shared memory. Its first launch asks for the 64 KiB before
// the program opted in and fails with cudaErrorInvalidValue, as on a GPU (a
// host finding); after cudaFuncSetAttribute raises the kernel's limit, the
// same launch runs. cudaFuncGetAttributes reports the limit back. Expected:
// no kernel finding, one host finding (the first launch, line 37).
#include <cstdio>

__global__ void reverseTile(const float *in, float *out, int n) {
  extern __shared__ float tile[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    tile[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = tile[n - 1 - i];
}

int main() {
  const int n = 16384; // 64 KiB of floats
  const size_t bytes = n * sizeof(float);
  float *in, *out;
  cudaMallocManaged(&in, bytes);
  cudaMallocManaged(&out, bytes);
  for (int i = 0; i < n; ++i)
    in[i] = float(i);

  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, reverseTile);
  printf("default limit: %d bytes\n", attributes.maxDynamicSharedSizeBytes);
  int optIn = 0;
  cudaDeviceGetAttribute(&optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  printf("opt-in limit: %s\n", optIn >= int(bytes) ? "enough" : "too small");
  printf("too much: %s\n", cudaGetErrorName(cudaFuncSetAttribute(
                               reverseTile, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               optIn + 1)));

  reverseTile<<<1, 256, bytes>>>(in, out, n);
  printf("before opting in: %s\n", cudaGetErrorName(cudaGetLastError()));

  cudaFuncSetAttribute(reverseTile, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
  cudaFuncGetAttributes(&attributes, reverseTile);
  printf("raised limit: %d bytes\n", attributes.maxDynamicSharedSizeBytes);
  reverseTile<<<1, 256, bytes>>>(in, out, n);
  printf("after opting in: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaDeviceSynchronize();
  printf("out[0] = %.0f, out[%d] = %.0f\n", out[0], n - 1, out[n - 1]);
  bool ok = out[0] == n - 1 && out[n - 1] == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaFree(in);
  cudaFree(out);
  return ok ? 0 : 1;
}
