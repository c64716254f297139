// Per-warp sums with __shfl_down_sync; lane 0 of each warp writes its sum.
__device__ __forceinline__ int warpSum(int value) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    value += __shfl_down_sync(0xffffffffu, value, offset);
  return value;
}

__global__ void warpReduce(const int *in, int *warpSums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = warpSum(in[i]);
  if ((threadIdx.x & 31) == 0)
    warpSums[i / 32] = sum;
}

// Butterfly variant on doubles: every lane ends with the warp's total.
__global__ void warpAllReduceDouble(const double *in, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double value = in[i];
  for (int mask = 16; mask > 0; mask >>= 1)
    value += __shfl_xor_sync(0xffffffffu, value, mask);
  out[i] = value;
}
