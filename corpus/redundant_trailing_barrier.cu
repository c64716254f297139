// The first barrier is needed (threads read other warps' slots); the second
// one follows the last shared-memory access and orders nothing.
__global__ void redundant_trailing_barrier(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[blockDim.x - 1 - threadIdx.x];
  __syncthreads();
}
