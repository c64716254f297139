// Reads the right neighbour's shared slot without a barrier. Inside one warp
// lockstep orders the store before the load; from 33 threads on, thread 31
// reads the slot of thread 32 in another warp.
__global__ void shared_rw_two_warps(const float *in, float *out) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  out[i] = s[(threadIdx.x + 1) % blockDim.x];
}
