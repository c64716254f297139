// Each lane publishes a value, __syncwarp(), then reads its right
// neighbour's. Race-free under independent thread scheduling.
__global__ void warp_exchange_syncwarp(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  unsigned base = threadIdx.x - lane;
  s[threadIdx.x] = (i < n) ? in[i] * 2.0f : 0.0f;
  __syncwarp();
  if (i < n)
    out[i] = s[base + ((lane + 1) & 31)];
}
