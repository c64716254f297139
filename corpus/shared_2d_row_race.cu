// The staging buffer is indexed by threadIdx.x only, so all rows of a 2-D
// block write the same slots. Race-free for blockDim.y == 1.
__global__ void shared_2d_row_race(const float *in, float *out) {
  __shared__ float s[1024];
  unsigned tx = threadIdx.x;
  unsigned local = threadIdx.y * blockDim.x + tx;
  int i = blockIdx.x * (blockDim.x * blockDim.y) + local;
  s[tx] = in[i];
  __syncthreads();
  out[i] = s[tx] * 2.0f;
}
