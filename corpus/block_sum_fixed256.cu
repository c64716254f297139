// Block sums written for blocks of exactly 256 threads, as kernels copied
// from tutorials are: a 256-slot shared array stored at [threadIdx.x], a
// tree that starts at stride 128, and no host code saying how it is
// launched. Smaller blocks would read slots nobody wrote; larger ones
// overrun the array. The search keeps to 256-thread blocks. `blockSum256`
// is race-free; `blockSum256NoBarrier` drops the barrier inside the tree.
#define BLOCK 256

__global__ void blockSum256(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

__global__ void blockSum256NoBarrier(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}
