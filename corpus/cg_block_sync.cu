// Every thread reads the value of the thread one warp ahead; the block is
// synchronised with cooperative groups instead of __syncthreads. Race-free.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void cg_rotate(const float *in, float *out, int n) {
  __shared__ float s[1024];
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  block.sync();
  if (i < n)
    out[i] = s[(threadIdx.x + 32) % blockDim.x];
}
