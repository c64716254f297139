// A __noinline__ device function stores into shared memory for its caller.
// helper_race reads another warp's slot without a barrier (racy);
// helper_sync does the same after __syncthreads (race-free).
__device__ __noinline__ void store_slot(float *buf, unsigned idx, float v) {
  buf[idx] = v;
}

__global__ void helper_race(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  store_slot(s, threadIdx.x, (i < n) ? in[i] : 0.0f);
  if (i < n)
    out[i] = s[(threadIdx.x + 32) % blockDim.x];
}

__global__ void helper_sync(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  store_slot(s, threadIdx.x, (i < n) ? in[i] : 0.0f);
  __syncthreads();
  if (i < n)
    out[i] = s[(threadIdx.x + 32) % blockDim.x];
}
