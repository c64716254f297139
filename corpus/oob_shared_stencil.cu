// The last thread of the block reads s[64] of a 64-element shared array.
__global__ void oob_shared_stencil(const float *in, float *out) {
  __shared__ float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[threadIdx.x] + s[threadIdx.x + 1];
}
