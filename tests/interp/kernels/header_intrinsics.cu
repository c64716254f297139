// Compile check: every device intrinsic family of simulee's device header in
// one kernel (builtin variables, vector types, atomics, barriers, warp
// functions, integer intrinsics, math).
#include <cmath>
#include <cuda_runtime.h>

struct Pair {
  int a;
  double b;
};

__device__ __forceinline__ float twice(float x) { return 2.0f * x; }
__device__ __noinline__ int opaque(int x) { return x + 1; }

__global__ void __launch_bounds__(256) everything(int *__restrict__ ints, unsigned *uints,
                                                  unsigned long long *ulls, long long *lls,
                                                  float *floats, double *doubles, Pair *pairs) {
  uint3 tid = threadIdx;
  dim3 block = blockDim;
  dim3 grid = gridDim;
  uint3 bid = blockIdx;
  unsigned lane = threadIdx.x % warpSize;
  int i = (int)(tid.x + bid.x * block.x + tid.y * grid.x + threadIdx.z + blockIdx.y);
  __shared__ float tile[64];
  tile[threadIdx.x % 64] = floats[i];
  __syncthreads();
  int count = __syncthreads_count(ints[i] > 0);
  int allPositive = __syncthreads_and(ints[i] > 0);
  int anyPositive = __syncthreads_or(ints[i] > 0);
  __syncwarp();
  __syncwarp(0xffffu);
  __threadfence();
  __threadfence_block();
  __threadfence_system();

  atomicAdd(&ints[0], 1);
  atomicAdd(&uints[0], 1u);
  atomicAdd(&ulls[0], 1ull);
  atomicAdd(&floats[0], 1.0f);
  atomicAdd(&doubles[0], 1.0);
  atomicSub(&ints[1], 1);
  atomicExch(&ints[2], 3);
  atomicExch(&floats[2], 3.0f);
  atomicExch(&ulls[2], 3ull);
  atomicMin(&ints[3], i);
  atomicMax(&uints[3], 7u);
  atomicMin(&lls[3], (long long)i);
  atomicMax(&ulls[3], 9ull);
  atomicInc(&uints[4], 16u);
  atomicDec(&uints[5], 16u);
  atomicCAS(&ints[6], 0, i);
  atomicCAS(&ulls[6], 0ull, 1ull);
  atomicAnd(&ints[7], 0xff);
  atomicOr(&uints[7], 1u);
  atomicXor(&ulls[7], 5ull);
  atomicAdd_block(&ints[8], 1);
  atomicAdd_system(&ints[8], 1);

  int shuffled = __shfl_sync(0xffffffffu, i, 0);
  float up = __shfl_up_sync(0xffffffffu, floats[i], 1);
  double down = __shfl_down_sync(0xffffffffu, doubles[i], 2, 16);
  long long swapped = __shfl_xor_sync(0xffffffffu, lls[i], 1);
  unsigned ballot = __ballot_sync(0xffffffffu, lane & 1);
  int any = __any_sync(0xffffffffu, lane == 3);
  int all = __all_sync(0xffffffffu, lane < 32);
  unsigned active = __activemask();
  int legacy = __shfl(i, 0) + __shfl_down(i, 1) + __any(1) + __all(1) + (int)__ballot(1);

  int bits = __popc(uints[i]) + __popcll(ulls[i]) + __clz(ints[i]) + __clzll(lls[i]) +
             __ffs(ints[i]) + __ffsll(lls[i]) + (int)__brev(uints[i]) + (int)__brevll(ulls[i]) +
             (int)__byte_perm(uints[i], 0u, 0x3210u) + __mul24(i, 3) + (int)__umul24(2u, 3u) +
             __mulhi(i, i) + (int)__umulhi(5u, 7u) + (int)__mul64hi(lls[i], 3) +
             (int)__umul64hi(ulls[i], 3ull) + (int)__sad(i, 3, 1u) + (int)__usad(4u, 3u, 1u) +
             __hadd(i, 3) + __rhadd(i, 3) + min(i, 3) + max(i, 3) + (int)umin(2u, 3u) +
             (int)llmin(2ll, 3ll) + abs(-i) + (int)labs(-3l) + (int)llabs(-3ll) +
             (int)min(1.0f, floats[i]) + (int)max(1.0, doubles[i]);

  float x = floats[i];
  double d = doubles[i];
  float s, c;
  sincosf(x, &s, &c);
  int e;
  float mantissa = frexpf(x, &e);
  float integral;
  float fraction = modff(x, &integral);
  float f = sinf(x) + cosf(x) + tanf(x) + asinf(x) + acosf(x) + atanf(x) + atan2f(x, 1.0f) +
            sinhf(x) + coshf(x) + tanhf(x) + asinhf(x) + acoshf(x) + atanhf(x) + expf(x) +
            exp2f(x) + exp10f(x) + expm1f(x) + logf(x) + log2f(x) + log10f(x) + log1pf(x) +
            powf(x, 2.0f) + sqrtf(x) + rsqrtf(x) + cbrtf(x) + rcbrtf(x) + fabsf(x) + floorf(x) +
            ceilf(x) + truncf(x) + roundf(x) + rintf(x) + nearbyintf(x) + fminf(x, 1.0f) +
            fmaxf(x, 1.0f) + fmodf(x, 1.0f) + remainderf(x, 1.0f) + copysignf(x, -1.0f) +
            hypotf(x, 1.0f) + fdimf(x, 1.0f) + ldexpf(x, 2) + scalbnf(x, 2) + erff(x) + erfcf(x) +
            lgammaf(x) + tgammaf(x) + fmaf(x, x, 1.0f) + s + c + mantissa + fraction +
            (isnan(x) ? 1.0f : 0.0f) + (isinf(x) ? 1.0f : 0.0f) + (isfinite(x) ? 1.0f : 0.0f) +
            (signbit(x) ? 1.0f : 0.0f) + std::sqrt(x) + std::abs(x) + std::sin(x) +
            std::fmax(x, 1.0f) + std::pow(x, 3.0f) + sqrt(x) + twice(x);
  float fast = __expf(x) + __logf(x) + __sinf(x) + __cosf(x) + __powf(x, 2.0f) +
               __fdividef(x, 3.0f) + __saturatef(x) + __frcp_rn(x) + __fsqrt_rn(x) +
               __fadd_rn(x, 1.0f) + __fmul_rn(x, 2.0f) + __fmaf_rn(x, x, x) +
               __int_as_float(__float_as_int(x)) + __uint_as_float(__float_as_uint(x)) +
               (float)__float2int_rn(x) + (float)__float2int_rz(x) + __int2float_rn(i) +
               (float)__float2uint_rn(x) + __ldg(&floats[i]);
  double g = sin(d) + cos(d) + tan(d) + exp(d) + log(d) + pow(d, 2.0) + sqrt(d) + fabs(d) +
             floor(d) + ceil(d) + fmin(d, 1.0) + fmax(d, 1.0) + atan2(d, 1.0) + fma(d, d, d) +
             std::sqrt(d) + std::abs(d) + std::exp(d) + __dadd_rn(d, 1.0) +
             __longlong_as_double(__double_as_longlong(d)) + (isnan(d) ? 1.0 : 0.0);

  float2 v2 = make_float2(x, x);
  float4 v4 = make_float4(x, x, x, x);
  int4 i4 = make_int4(1, 2, 3, 4);
  double2 d2 = make_double2(d, d);
  uchar4 c4 = make_uchar4(1, 2, 3, 4);
  pairs[i].a = bits + count + allPositive + anyPositive + shuffled + (int)ballot + any + all +
               (int)active + legacy + opaque(i) + i4.w + c4.z;
  pairs[i].b = f + fast + g + up + down + (double)swapped + v2.y + v4.w + d2.x + tile[lane];
}
