// The radius-2 stencil of stencil1d_halo with the barrier forgotten. The
// left halo is written by lanes 0 and 1 and read only inside warp 0
// (ordered); centre cells and the right halo cross warps.
#define RADIUS 2
__global__ void stencil1d_nosync(const float *in, float *out, int n) {
  __shared__ float s[1024 + 2 * RADIUS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int li = threadIdx.x + RADIUS;
  s[li] = (i < n) ? in[i] : 0.0f;
  if (threadIdx.x < RADIUS) {
    s[li - RADIUS] = (i >= RADIUS && i - RADIUS < n) ? in[i - RADIUS] : 0.0f;
    s[li + blockDim.x] = (i + blockDim.x < n) ? in[i + blockDim.x] : 0.0f;
  }
  if (i < n) {
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k)
      acc += s[li + k];
    out[i] = acc;
  }
}
