// simulee exec example: the program forgets cudaDeviceSynchronize before it
// reads managed memory a kernel wrote. On a GPU the read races with the
// kernel; simulee's runtime is synchronous (a launch is complete when it
// returns), so the program works and simulee reports nothing: it checks
// kernels, not the host's ordering. Clean, by design (README, "simulee exec").
#include <cstdio>
#include <cuda_runtime.h>

__global__ void squares(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i * i;
}

int main() {
  const int n = 300;
  int *values;
  cudaMallocManaged(&values, n * sizeof(int));
  squares<<<(n + 63) / 64, 64>>>(values, n);
  // Missing: cudaDeviceSynchronize();
  long long sum = 0;
  for (int i = 0; i < n; ++i)
    sum += values[i];
  printf("sum of squares below %d: %lld\n", n, sum);
  cudaFree(values);
  return sum == 8955050 ? 0 : 1;
}
