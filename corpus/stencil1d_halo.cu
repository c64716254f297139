// 1-D stencil of radius 2: each block stages its elements plus two halo
// cells on each side in shared memory. Race-free.
#define RADIUS 2
__global__ void stencil1d_halo(const float *in, float *out, int n) {
  __shared__ float s[1024 + 2 * RADIUS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int li = threadIdx.x + RADIUS;
  s[li] = (i < n) ? in[i] : 0.0f;
  if (threadIdx.x < RADIUS) {
    s[li - RADIUS] = (i >= RADIUS && i - RADIUS < n) ? in[i - RADIUS] : 0.0f;
    s[li + blockDim.x] = (i + blockDim.x < n) ? in[i + blockDim.x] : 0.0f;
  }
  __syncthreads();
  if (i < n) {
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k)
      acc += s[li + k];
    out[i] = acc;
  }
}
