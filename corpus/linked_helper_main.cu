// A kernel whose device helpers live in another file (linked_helper_lib.cu),
// compiled with relocatable device code and linked before analysis
// (`simulee linked_helper_main.cu linked_helper_lib.cu`).
extern __device__ int combine(int a, int b);
extern __device__ void publish(int *tile, int slot, int value);

__global__ void linkedReduce(const int *in, int *out) {
  __shared__ int tile[128];
  int t = threadIdx.x;
  publish(tile, t, in[blockIdx.x * blockDim.x + t]);
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride)
      tile[t] = combine(tile[t], tile[t + stride]);
    // Missing __syncthreads(): the next step reads what other warps write.
  }
  if (t == 0)
    out[blockIdx.x] = tile[0];
}

// The same reduction with a barrier after every step: race-free.
__global__ void linkedReduceSynced(const int *in, int *out) {
  __shared__ int tile[128];
  int t = threadIdx.x;
  publish(tile, t, in[blockIdx.x * blockDim.x + t]);
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride)
      tile[t] = combine(tile[t], tile[t + stride]);
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = tile[0];
}
