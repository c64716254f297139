// Includes another .cu file: a scan must analyse the included kernel once,
// as part of this file, not a second time on its own.
#include "included_helper.cu"
__global__ void caller(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}
