// Lanes 0..15 store while lanes 16..31 read the same slots on the other side
// of the branch: lockstep gives no order between the two sides.
__global__ void divergent_read_write(const float *in, float *out) {
  __shared__ float s[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < 16)
    s[tid] = in[i];
  else
    out[i] = s[tid - 16];
}
