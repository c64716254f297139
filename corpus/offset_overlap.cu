// The first half of the threads fills out[0 .. half), the second half fills
// out[offset .. offset + half). The ranges overlap when offset < half.
__global__ void offset_overlap(const float *in, float *out, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int half = (gridDim.x * blockDim.x) / 2;
  if (i < half)
    out[i] = in[i];
  else
    out[offset + (i - half)] = in[i];
}
