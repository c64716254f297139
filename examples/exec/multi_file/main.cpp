// simulee exec example in three files: two .cu files with a kernel each and
// this plain C++ host file, which uses only the CUDA runtime API:
//   simulee exec increment.cu scale.cu main.cpp -D FACTOR=3 -- 100
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime_api.h>

void launchIncrement(int *x, int n);
void launchScale(int *x, int n);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int *host = new int[n], *device;
  for (int i = 0; i < n; ++i)
    host[i] = i;
  cudaMalloc(reinterpret_cast<void **>(&device), n * sizeof(int));
  cudaMemcpy(device, host, n * sizeof(int), cudaMemcpyHostToDevice);
  launchIncrement(device, n);
  launchScale(device, n);
  cudaMemcpy(host, device, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (host[i] != FACTOR * (i + 1)) {
      printf("FAILED at %d\n", i);
      return 1;
    }
  printf("%d elements: PASSED\n", n);
  return 0;
}
