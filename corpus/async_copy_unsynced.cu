// Each thread copies its own element into shared memory with sm_80's
// cp.async (__pipeline_memcpy_async) and waits for its own copy
// (__pipeline_wait_prior), then reads its neighbour's: the wait covers the
// thread's own copies only, so without a barrier the neighbour's copy races
// with the read.
#include <cuda_pipeline.h>

__global__ void async_copy_unsynced(const float *in, float *out, int n) {
  __shared__ alignas(16) float tile[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  if (i + 1 < n && threadIdx.x + 1 < blockDim.x)
    out[i] = tile[threadIdx.x + 1];
}
