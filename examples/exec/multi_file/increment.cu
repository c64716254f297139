// Part of the multi-file simulee exec example (see main.cpp).
#include <cuda_runtime.h>

__global__ void increment(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

void launchIncrement(int *x, int n) { increment<<<(n + 63) / 64, 64>>>(x, n); }
