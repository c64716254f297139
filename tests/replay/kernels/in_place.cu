// A kernel whose two pointers a launch may pass into one buffer, for
// HarnessTest.
__global__ void shiftLeft(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
