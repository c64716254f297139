// Small inputs are copied; inputs of more than 100 elements are folded into
// out[0..100) with plain stores, so threads i and i + 100 write one slot.
__global__ void threshold_fold(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (n > 100)
    out[i % 100] = in[i];
  else
    out[i] = in[i];
}
