// Lanes 2k and 2k+1 write slot k from the two sides of a divergent branch;
// the programming model leaves the order of the two sides open.
__global__ void divergent_if_else_same_slot(const float *in, float *out) {
  __shared__ float s[512];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid % 2 == 0)
    s[tid / 2] = in[i];
  else
    s[tid / 2] = -in[i];
  out[i] = s[tid / 2];
}
