// Kernels only; the launches are in the #included harness.
__global__ void doubled(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= 2.0f;
}
#include "harness.h"
