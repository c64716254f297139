// Warp 0 takes the branch as a whole and waits at the barrier; warp 1 skips
// it and exits. Still barrier divergence: not all threads of the block
// reach the barrier.
__global__ void barrier_warp_uniform_branch(const float *in, float *out) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  if (threadIdx.x < 32) {
    __syncthreads();
    out[i] = s[(threadIdx.x + 32) % blockDim.x];
  }
}
