// Part of the multi-file simulee exec example (see main.cpp). FACTOR comes
// from the command line (-D FACTOR=3), for both the host and device sides.
#include <cuda_runtime.h>

__global__ void scale(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= FACTOR;
}

void launchScale(int *x, int n) { scale<<<(n + 63) / 64, 64>>>(x, n); }
