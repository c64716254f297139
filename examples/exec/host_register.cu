// Registered host memory (issue 20, "Host-memory registration and mapped
// pointers"): the program pins its own malloc'd arrays with cudaHostRegister
// and kernels read and write them in place through the mapped pointer
// cudaHostGetDevicePointer gives (zero copy). Registering a range twice and
// unregistering twice are errors, as on a GPU (host findings, lines 25 and
// 49). Expected: no kernel finding.
#include <cstdio>
#include <cstdlib>

__global__ void scale(const float *in, float *out, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * factor;
}

int main() {
  const int n = 1000;
  float *in = static_cast<float *>(malloc(n * sizeof(float)));
  float *out = static_cast<float *>(malloc(n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    in[i] = float(i);
  cudaHostRegister(in, n * sizeof(float), cudaHostRegisterMapped);
  cudaHostRegister(out, n * sizeof(float), cudaHostRegisterMapped);
  printf("register again: %s\n",
         cudaGetErrorName(cudaHostRegister(in + 10, 16, cudaHostRegisterMapped)));

  float *dIn, *dOut;
  cudaHostGetDevicePointer(reinterpret_cast<void **>(&dIn), in, 0);
  cudaHostGetDevicePointer(reinterpret_cast<void **>(&dOut), out, 0);
  scale<<<(n + 255) / 256, 256>>>(dIn, dOut, 2.0f, n);
  cudaDeviceSynchronize();
  printf("out[1] = %.1f, out[999] = %.1f\n", out[1], out[n - 1]);

  // The host changes its input in place; the next launch sees it.
  for (int i = 0; i < n; ++i)
    in[i] = 1.0f;
  scale<<<(n + 255) / 256, 256>>>(dIn, dOut, 3.0f, n);
  cudaDeviceSynchronize();
  float sum = 0;
  for (int i = 0; i < n; ++i)
    sum += out[i];
  printf("sum = %.1f\n", sum);

  unsigned int flags = 0;
  printf("flags: %s\n", cudaGetErrorName(cudaHostGetFlags(&flags, in)));
  printf("unregister: %s\n", cudaGetErrorName(cudaHostUnregister(in)));
  cudaHostUnregister(out);
  cudaGetLastError();
  printf("unregister again: %s\n", cudaGetErrorName(cudaHostUnregister(in)));
  bool ok = sum == 3000.0f;
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(in);
  free(out);
  return ok ? 0 : 1;
}
