// Each lane publishes a value in shared memory, then the warp meets in a
// synchronising warp intrinsic, which orders the lanes of its mask like
// __syncwarp; reading the neighbour's slot afterwards is race-free even under
// independent thread scheduling.
__global__ void warp_exchange_ballot(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  unsigned positive = __ballot_sync(0xffffffffu, i < n && in[i] > 0.0f);
  if (i < n)
    out[i] = s[threadIdx.x - lane + ((lane + 1) & 31)] + float(__popc(positive));
}

__global__ void warp_exchange_shfl(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  float mine = (i < n) ? in[i] : 0.0f;
  s[threadIdx.x] = mine;
  float first = __shfl_sync(0xffffffffu, mine, 0);
  if (i < n)
    out[i] = s[threadIdx.x - lane + ((lane + 1) & 31)] + first;
}
