// The barrier sits inside a branch taken by threads 0..15 only: part of warp
// 0 reaches it while the rest of the block never does.
__global__ void barrier_in_branch(const float *in, float *out) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  if (threadIdx.x < 16) {
    __syncthreads();
    out[i] = s[(threadIdx.x + 32) % blockDim.x];
  }
}
