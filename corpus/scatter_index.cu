// Scatters values through an index buffer with plain stores: two threads
// whose indices repeat store to the same element.
__global__ void scatter_index(const int *idx, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[idx[i]] = in[i];
}
