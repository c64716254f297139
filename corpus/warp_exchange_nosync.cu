// Each lane publishes a value and reads its right neighbour's (within the
// warp) with no __syncwarp in between. Race-free in lockstep; racy under
// independent thread scheduling.
__global__ void warp_exchange_nosync(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  unsigned base = threadIdx.x - lane;
  s[threadIdx.x] = (i < n) ? in[i] * 2.0f : 0.0f;
  if (i < n)
    out[i] = s[base + ((lane + 1) & 31)];
}
