// The cache-hinted loads and stores of sm_32_intrinsics.h, which code
// written for nvcc calls without an #include (vectorised copies in
// training kernels: __ldcs on int4/float4, __stcs, __stcg): each reads or
// writes what the plain access would. The __half ones are cuda_fp16.h's own.
#include <cuda_fp16.h>

__global__ void cacheHints(const float4 *in4, float4 *out4, const float *in, float *out,
                           const __half *inHalf, __half *outHalf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 v = __ldcs(in4 + i);
  v.x += 1.0f;
  __stcs(out4 + i, v);
  // A double stored to a float converts, as through NVIDIA's float overload.
  __stcg(out + i, 2.0 * __ldcg(in + i) + __ldca(in + i) + __ldlu(in + i) + __ldcv(in + i));
  __stwt(out + n + i, __ldcs(in + i));
  __stwb(out + 2 * n + i, -__ldcg(in + i));
  __stcs(outHalf + i, __hadd(__ldcs(inHalf + i), __float2half(1.0f)));
}
