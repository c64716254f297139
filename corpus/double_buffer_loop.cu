// Repeated neighbour averaging, alternating between two shared buffers; one
// barrier per round suffices because a round writes the buffer the previous
// round read before its barrier. Race-free.
__global__ void double_buffer_loop(const float *in, float *out, int n, int iters) {
  __shared__ float buf[2][1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int rounds = iters < 16 ? iters : 16;
  buf[0][tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    int src = r & 1;
    buf[src ^ 1][tid] = 0.5f * (buf[src][tid] + buf[src][(tid + 1) % blockDim.x]);
    __syncthreads();
  }
  if (i < n)
    out[i] = buf[rounds > 0 ? (rounds & 1) : 0][tid];
}
