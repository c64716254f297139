// simulee's CUDA device header: everything a .cu file expects from the CUDA
// toolkit (qualifiers, builtin variables, vector types, atomics, barriers, warp
// functions, math, host runtime declarations), for clang with -nocudainc.
//
// Device math calls libdevice-named functions (__nv_*) that simulee's
// interpreter implements natively; the complete list is at the end of this
// file and, machine-readable, in LIBDEVICE_FUNCTIONS.txt.
#ifndef SIMULEE_CUDA_H
#define SIMULEE_CUDA_H
#pragma clang system_header // like the toolkit's headers: no warnings, relaxed overloading rules

#ifndef __CUDA__
#error "simulee_cuda.h is meant for clang in CUDA mode (-x cuda)"
#endif

// ---------------------------------------------------------------------------
// Qualifiers and toolkit identification.
// ---------------------------------------------------------------------------
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
// A device variable the host uses too (clang ignores `managed` for CUDA):
// see simulee_nvcc_compat.h.
#define __managed__ __device__ __attribute__((annotate("simulee.managed")))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define __cudart_builtin__
#define __device_builtin__
// clang treats __noinline__ as a keyword in CUDA mode; __restrict__ is a GNU
// spelling clang accepts, so neither needs a macro.

#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#endif

// Header helpers are inlined and carry no debug info, so that after inlining
// every access they make is attributed to the user's line that called them.
#define __SIMULEE_DEV__ static __device__ __forceinline__ __attribute__((nodebug))
#define __SIMULEE_HD__ static __host__ __device__ __forceinline__ __attribute__((nodebug))
#define __SIMULEE_MEMBER__ __device__ __forceinline__ __attribute__((nodebug))
#define __SIMULEE_HD_MEMBER__ __host__ __device__ __forceinline__ __attribute__((nodebug))

#include <stddef.h>
#include <stdint.h>

// ---------------------------------------------------------------------------
// libdevice declarations (implemented natively by simulee's interpreter).
// ---------------------------------------------------------------------------
extern "C" {
#define __SIMULEE_NV_UNARY(name)                                                                   \
  __device__ float __nv_##name##f(float);                                                         \
  __device__ double __nv_##name(double);
#define __SIMULEE_NV_BINARY(name)                                                                  \
  __device__ float __nv_##name##f(float, float);                                                  \
  __device__ double __nv_##name(double, double);
#include "simulee_math_list.h"
#undef __SIMULEE_NV_UNARY
#undef __SIMULEE_NV_BINARY
__device__ float __nv_fmaf(float, float, float);
__device__ double __nv_fma(double, double, double);
__device__ float __nv_ldexpf(float, int);
__device__ double __nv_ldexp(double, int);
__device__ float __nv_scalbnf(float, int);
__device__ double __nv_scalbn(double, int);
__device__ int __nv_ilogbf(float);
__device__ int __nv_ilogb(double);
__device__ int __nv_isnanf(float);
__device__ int __nv_isnand(double);
__device__ int __nv_isinff(float);
__device__ int __nv_isinfd(double);
__device__ int __nv_finitef(float);
__device__ int __nv_isfinited(double);
__device__ int __nv_signbitf(float);
__device__ int __nv_signbitd(double);
__device__ float __nv_fast_expf(float);
__device__ float __nv_fast_exp10f(float);
__device__ float __nv_fast_logf(float);
__device__ float __nv_fast_log2f(float);
__device__ float __nv_fast_log10f(float);
__device__ float __nv_fast_sinf(float);
__device__ float __nv_fast_cosf(float);
__device__ float __nv_fast_tanf(float);
__device__ float __nv_fast_powf(float, float);
__device__ float __nv_fdividef(float, float);
__device__ float __nv_saturatef(float);
__device__ float __nv_frcp_rn(float);
__device__ float __nv_fsqrt_rn(float);
__device__ float __nv_fadd_rn(float, float);
__device__ float __nv_fmul_rn(float, float);
__device__ float __nv_fdiv_rn(float, float);
__device__ float __nv_fmaf_rn(float, float, float);
__device__ double __nv_dadd_rn(double, double);
__device__ double __nv_dmul_rn(double, double);
__device__ double __nv_ddiv_rn(double, double);
__device__ double __nv_drcp_rn(double);
__device__ double __nv_dsqrt_rn(double);
__device__ double __nv_fma_rn(double, double, double);
}

// ---------------------------------------------------------------------------
// Math, part 1: declare the device overloads before the C/C++ math headers.
// libstdc++ defines float overloads such as std::sin(float) constexpr, which
// clang would make __host__ __device__ (and compile to LLVM intrinsics); an
// earlier __device__ declaration keeps those host-only, and `using ::sin` in
// <cmath> picks up the double overloads declared here.
// ---------------------------------------------------------------------------
#define __SIMULEE_NV_UNARY(name)                                                                   \
  __device__ float name##f(float) noexcept;                                                       \
  __device__ double name(double) noexcept;                                                        \
  namespace std {                                                                                 \
  __device__ float name(float) noexcept;                                                          \
  }                                                                                               \
  using std::name;
#define __SIMULEE_NV_BINARY(name)                                                                  \
  __device__ float name##f(float, float) noexcept;                                                \
  __device__ double name(double, double) noexcept;                                                \
  namespace std {                                                                                 \
  __device__ float name(float, float) noexcept;                                                   \
  }                                                                                               \
  using std::name;
#include "simulee_math_list.h"
#undef __SIMULEE_NV_UNARY
#undef __SIMULEE_NV_BINARY

#define __SIMULEE_DECL_OTHERS(T, F)                                                                \
  __device__ T fma##F(T, T, T) noexcept;                                                          \
  __device__ T ldexp##F(T, int) noexcept;                                                         \
  __device__ T scalbn##F(T, int) noexcept;                                                        \
  __device__ T frexp##F(T, int *) noexcept;                                                       \
  __device__ T modf##F(T, T *) noexcept;                                                          \
  __device__ int ilogb##F(T) noexcept;                                                            \
  __device__ long lrint##F(T) noexcept;                                                           \
  __device__ long long llrint##F(T) noexcept;                                                     \
  __device__ long lround##F(T) noexcept;                                                          \
  __device__ long long llround##F(T) noexcept;                                                     \
  __device__ void sincos##F(T, T *, T *) noexcept;                                                \
  __device__ T sinpi##F(T) noexcept;                                                              \
  __device__ T cospi##F(T) noexcept;                                                              \
  __device__ T normcdf##F(T) noexcept;
__SIMULEE_DECL_OTHERS(float, f)
__SIMULEE_DECL_OTHERS(double, )
namespace std {
__SIMULEE_DECL_OTHERS(float, )
__device__ float abs(float) noexcept;
__device__ double abs(double) noexcept;
__device__ long abs(long) noexcept;
__device__ long long abs(long long) noexcept;
__device__ bool isnan(float) noexcept;
__device__ bool isnan(double) noexcept;
__device__ bool isinf(float) noexcept;
__device__ bool isinf(double) noexcept;
__device__ bool isfinite(float) noexcept;
__device__ bool isfinite(double) noexcept;
__device__ bool signbit(float) noexcept;
__device__ bool signbit(double) noexcept;
} // namespace std
#undef __SIMULEE_DECL_OTHERS
__device__ int abs(int) noexcept;
__device__ long labs(long) noexcept;
__device__ long long llabs(long long) noexcept;
using std::abs;
using std::fma;
using std::frexp;
using std::ilogb;
using std::isfinite;
using std::isinf;
using std::isnan;
using std::ldexp;
using std::llrint;
using std::llround;
using std::lrint;
using std::lround;
using std::modf;
using std::scalbn;
using std::signbit;

// Device printf (clang lowers it to vprintf), assert and heap.
extern "C" {
__device__ int printf(const char *, ...);
__device__ void __assert_fail(const char *, const char *, unsigned, const char *);
__device__ void *malloc(size_t);
__device__ void free(void *);
__device__ void *memcpy(void *, const void *, size_t);
__device__ void *memset(void *, int, size_t);
}

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

// ---------------------------------------------------------------------------
// Math, part 2: definitions.
// ---------------------------------------------------------------------------
#define __SIMULEE_MATH_FN __device__ __forceinline__ __attribute__((nodebug))
#define __SIMULEE_NV_UNARY(name)                                                                   \
  __SIMULEE_MATH_FN float name##f(float x) noexcept { return __nv_##name##f(x); }                 \
  __SIMULEE_MATH_FN double name(double x) noexcept { return __nv_##name(x); }                     \
  namespace std {                                                                                 \
  __SIMULEE_MATH_FN float name(float x) noexcept { return __nv_##name##f(x); }                    \
  }
#define __SIMULEE_NV_BINARY(name)                                                                  \
  __SIMULEE_MATH_FN float name##f(float x, float y) noexcept { return __nv_##name##f(x, y); }     \
  __SIMULEE_MATH_FN double name(double x, double y) noexcept { return __nv_##name(x, y); }        \
  namespace std {                                                                                 \
  __SIMULEE_MATH_FN float name(float x, float y) noexcept { return __nv_##name##f(x, y); }        \
  }
#include "simulee_math_list.h"
#undef __SIMULEE_NV_UNARY
#undef __SIMULEE_NV_BINARY

__device__ __forceinline__ __attribute__((nodebug)) int __simulee_isfinite(float x) { return __nv_finitef(x); }
__device__ __forceinline__ __attribute__((nodebug)) int __simulee_isfinite(double x) { return __nv_isfinited(x); }
__device__ __forceinline__ __attribute__((nodebug)) int __simulee_isinf(float x) { return __nv_isinff(x); }
__device__ __forceinline__ __attribute__((nodebug)) int __simulee_isinf(double x) { return __nv_isinfd(x); }

#define __SIMULEE_DEFINE_OTHERS(T, F, NVF)                                                         \
  __SIMULEE_MATH_FN T fma##F(T x, T y, T z) noexcept { return __nv_fma##NVF(x, y, z); }          \
  __SIMULEE_MATH_FN T ldexp##F(T x, int e) noexcept { return __nv_ldexp##NVF(x, e); }            \
  __SIMULEE_MATH_FN T scalbn##F(T x, int e) noexcept { return __nv_scalbn##NVF(x, e); }          \
  __SIMULEE_MATH_FN T frexp##F(T x, int *e) noexcept {                                            \
    if (x == 0 || !__simulee_isfinite(x)) {                                                         \
      *e = 0;                                                                                     \
      return x;                                                                                   \
    }                                                                                             \
    *e = __nv_ilogb##NVF(x) + 1;                                                                  \
    return __nv_ldexp##NVF(x, -*e);                                                               \
  }                                                                                               \
  __SIMULEE_MATH_FN T modf##F(T x, T *i) noexcept {                                               \
    *i = __nv_trunc##NVF(x);                                                                      \
    return __simulee_isinf(x) ? __nv_copysign##NVF(0, x) : x - *i;                                \
  }                                                                                               \
  __SIMULEE_MATH_FN int ilogb##F(T x) noexcept { return __nv_ilogb##NVF(x); }                    \
  __SIMULEE_MATH_FN long lrint##F(T x) noexcept { return (long)__nv_rint##NVF(x); }              \
  __SIMULEE_MATH_FN long long llrint##F(T x) noexcept { return (long long)__nv_rint##NVF(x); }   \
  __SIMULEE_MATH_FN long lround##F(T x) noexcept { return (long)__nv_round##NVF(x); }            \
  __SIMULEE_MATH_FN long long llround##F(T x) noexcept { return (long long)__nv_round##NVF(x); } \
  __SIMULEE_MATH_FN void sincos##F(T x, T *s, T *c) noexcept {                                    \
    *s = __nv_sin##NVF(x);                                                                        \
    *c = __nv_cos##NVF(x);                                                                        \
  }                                                                                               \
  __SIMULEE_MATH_FN T sinpi##F(T x) noexcept { return __nv_sin##NVF(x * (T)3.14159265358979323846); } \
  __SIMULEE_MATH_FN T cospi##F(T x) noexcept { return __nv_cos##NVF(x * (T)3.14159265358979323846); } \
  __SIMULEE_MATH_FN T normcdf##F(T x) noexcept {                                                  \
    return (T)0.5 * __nv_erfc##NVF(-x * (T)0.70710678118654752440);                               \
  }

__SIMULEE_DEFINE_OTHERS(float, f, f)
__SIMULEE_DEFINE_OTHERS(double, , )
namespace std {
__SIMULEE_DEFINE_OTHERS(float, , f)
__SIMULEE_MATH_FN float abs(float x) noexcept { return __nv_fabsf(x); }
__SIMULEE_MATH_FN double abs(double x) noexcept { return __nv_fabs(x); }
__SIMULEE_MATH_FN long abs(long x) noexcept { return x < 0 ? -x : x; }
__SIMULEE_MATH_FN long long abs(long long x) noexcept { return x < 0 ? -x : x; }
__SIMULEE_MATH_FN bool isnan(float x) noexcept { return __nv_isnanf(x) != 0; }
__SIMULEE_MATH_FN bool isnan(double x) noexcept { return __nv_isnand(x) != 0; }
__SIMULEE_MATH_FN bool isinf(float x) noexcept { return __nv_isinff(x) != 0; }
__SIMULEE_MATH_FN bool isinf(double x) noexcept { return __nv_isinfd(x) != 0; }
__SIMULEE_MATH_FN bool isfinite(float x) noexcept { return __nv_finitef(x) != 0; }
__SIMULEE_MATH_FN bool isfinite(double x) noexcept { return __nv_isfinited(x) != 0; }
__SIMULEE_MATH_FN bool signbit(float x) noexcept { return __nv_signbitf(x) != 0; }
__SIMULEE_MATH_FN bool signbit(double x) noexcept { return __nv_signbitd(x) != 0; }
} // namespace std
#undef __SIMULEE_DEFINE_OTHERS
__SIMULEE_MATH_FN int abs(int x) noexcept { return x < 0 ? -x : x; }
__SIMULEE_MATH_FN long labs(long x) noexcept { return x < 0 ? -x : x; }
__SIMULEE_MATH_FN long long llabs(long long x) noexcept { return x < 0 ? -x : x; }

// CUDA's own helpers around the C library.
__SIMULEE_DEV__ int __isnanf(float x) { return __nv_isnanf(x); }
__SIMULEE_DEV__ int __isinff(float x) { return __nv_isinff(x); }
__SIMULEE_DEV__ int __finitef(float x) { return __nv_finitef(x); }
__SIMULEE_DEV__ int __signbitf(float x) { return __nv_signbitf(x); }
__SIMULEE_DEV__ int __isnan(double x) { return __nv_isnand(x); }
__SIMULEE_DEV__ int __isinf(double x) { return __nv_isinfd(x); }
__SIMULEE_DEV__ int __finite(double x) { return __nv_isfinited(x); }
__SIMULEE_DEV__ int __signbit(double x) { return __nv_signbitd(x); }

// Fast (reduced-precision) intrinsics and explicitly rounded arithmetic.
__SIMULEE_DEV__ float __expf(float x) { return __nv_fast_expf(x); }
__SIMULEE_DEV__ float __exp10f(float x) { return __nv_fast_exp10f(x); }
__SIMULEE_DEV__ float __logf(float x) { return __nv_fast_logf(x); }
__SIMULEE_DEV__ float __log2f(float x) { return __nv_fast_log2f(x); }
__SIMULEE_DEV__ float __log10f(float x) { return __nv_fast_log10f(x); }
__SIMULEE_DEV__ float __sinf(float x) { return __nv_fast_sinf(x); }
__SIMULEE_DEV__ float __cosf(float x) { return __nv_fast_cosf(x); }
__SIMULEE_DEV__ float __tanf(float x) { return __nv_fast_tanf(x); }
__SIMULEE_DEV__ void __sincosf(float x, float *s, float *c) {
  *s = __nv_fast_sinf(x);
  *c = __nv_fast_cosf(x);
}
__SIMULEE_DEV__ float __powf(float x, float y) { return __nv_fast_powf(x, y); }
__SIMULEE_DEV__ float __fdividef(float x, float y) { return __nv_fdividef(x, y); }
__SIMULEE_DEV__ float fdividef(float x, float y) { return __nv_fdividef(x, y); }
__SIMULEE_DEV__ float __saturatef(float x) { return __nv_saturatef(x); }
__SIMULEE_DEV__ float __frcp_rn(float x) { return __nv_frcp_rn(x); }
__SIMULEE_DEV__ float __fsqrt_rn(float x) { return __nv_fsqrt_rn(x); }
__SIMULEE_DEV__ float __frsqrt_rn(float x) { return __nv_rsqrtf(x); }
__SIMULEE_DEV__ float __fadd_rn(float x, float y) { return __nv_fadd_rn(x, y); }
__SIMULEE_DEV__ float __fsub_rn(float x, float y) { return __nv_fadd_rn(x, -y); }
__SIMULEE_DEV__ float __fmul_rn(float x, float y) { return __nv_fmul_rn(x, y); }
__SIMULEE_DEV__ float __fdiv_rn(float x, float y) { return __nv_fdiv_rn(x, y); }
__SIMULEE_DEV__ float __fmaf_rn(float x, float y, float z) { return __nv_fmaf_rn(x, y, z); }
__SIMULEE_DEV__ double __dadd_rn(double x, double y) { return __nv_dadd_rn(x, y); }
__SIMULEE_DEV__ double __dsub_rn(double x, double y) { return __nv_dadd_rn(x, -y); }
__SIMULEE_DEV__ double __dmul_rn(double x, double y) { return __nv_dmul_rn(x, y); }
__SIMULEE_DEV__ double __ddiv_rn(double x, double y) { return __nv_ddiv_rn(x, y); }
__SIMULEE_DEV__ double __drcp_rn(double x) { return __nv_drcp_rn(x); }
__SIMULEE_DEV__ double __dsqrt_rn(double x) { return __nv_dsqrt_rn(x); }
__SIMULEE_DEV__ double __fma_rn(double x, double y, double z) { return __nv_fma_rn(x, y, z); }

// Reinterpretation and conversion.
__SIMULEE_DEV__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__SIMULEE_DEV__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__SIMULEE_DEV__ float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
__SIMULEE_DEV__ unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
__SIMULEE_DEV__ long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__SIMULEE_DEV__ double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__SIMULEE_DEV__ int __double2hiint(double x) { return (int)(__builtin_bit_cast(unsigned long long, x) >> 32); }
__SIMULEE_DEV__ int __double2loint(double x) { return (int)__builtin_bit_cast(unsigned long long, x); }
__SIMULEE_DEV__ double __hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(double, ((unsigned long long)(unsigned)hi << 32) | (unsigned)lo);
}
__SIMULEE_DEV__ int __float2int_rn(float x) { return (int)__nv_rintf(x); }
__SIMULEE_DEV__ int __float2int_rz(float x) { return (int)x; }
__SIMULEE_DEV__ int __float2int_rd(float x) { return (int)__nv_floorf(x); }
__SIMULEE_DEV__ int __float2int_ru(float x) { return (int)__nv_ceilf(x); }
__SIMULEE_DEV__ unsigned __float2uint_rn(float x) { return (unsigned)__nv_rintf(x); }
__SIMULEE_DEV__ unsigned __float2uint_rz(float x) { return (unsigned)x; }
__SIMULEE_DEV__ long long __float2ll_rn(float x) { return (long long)__nv_rintf(x); }
__SIMULEE_DEV__ long long __float2ll_rz(float x) { return (long long)x; }
__SIMULEE_DEV__ int __double2int_rn(double x) { return (int)__nv_rint(x); }
__SIMULEE_DEV__ int __double2int_rz(double x) { return (int)x; }
__SIMULEE_DEV__ float __double2float_rn(double x) { return (float)x; }
__SIMULEE_DEV__ float __int2float_rn(int x) { return (float)x; }
__SIMULEE_DEV__ float __uint2float_rn(unsigned x) { return (float)x; }
__SIMULEE_DEV__ double __int2double_rn(int x) { return (double)x; }
__SIMULEE_DEV__ float __ll2float_rn(long long x) { return (float)x; }
__SIMULEE_DEV__ double __ll2double_rn(long long x) { return (double)x; }
// The directed roundings run natively (interp::intToFloatBits).
#define __SIMULEE_INT_TO_FLOAT(NAME, FROM, TO)                                                    \
  __device__ TO __nv_##NAME(FROM);                                                               \
  __SIMULEE_DEV__ TO __##NAME(FROM x) { return __nv_##NAME(x); }
#define __SIMULEE_INT_TO_FLOAT_DIRECTED(NAME, FROM, TO)                                           \
  __SIMULEE_INT_TO_FLOAT(NAME##_rz, FROM, TO)                                                    \
  __SIMULEE_INT_TO_FLOAT(NAME##_ru, FROM, TO)                                                    \
  __SIMULEE_INT_TO_FLOAT(NAME##_rd, FROM, TO)
__SIMULEE_INT_TO_FLOAT_DIRECTED(int2float, int, float)
__SIMULEE_INT_TO_FLOAT_DIRECTED(uint2float, unsigned, float)
__SIMULEE_INT_TO_FLOAT_DIRECTED(ll2float, long long, float)
__SIMULEE_INT_TO_FLOAT_DIRECTED(ull2float, unsigned long long, float)
__SIMULEE_INT_TO_FLOAT_DIRECTED(ll2double, long long, double)
__SIMULEE_INT_TO_FLOAT_DIRECTED(ull2double, unsigned long long, double)
__SIMULEE_DEV__ float __ull2float_rn(unsigned long long x) { return (float)x; }
__SIMULEE_DEV__ double __uint2double_rn(unsigned x) { return (double)x; }
__SIMULEE_DEV__ double __ull2double_rn(unsigned long long x) { return (double)x; }
#undef __SIMULEE_INT_TO_FLOAT_DIRECTED
#undef __SIMULEE_INT_TO_FLOAT

// ---------------------------------------------------------------------------
// Integer intrinsics, min/max.
// ---------------------------------------------------------------------------
__SIMULEE_DEV__ int __popc(unsigned x) { return __builtin_popcount(x); }
__SIMULEE_DEV__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__SIMULEE_DEV__ int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
__SIMULEE_DEV__ int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
__SIMULEE_DEV__ int __ffs(int x) { return __builtin_ffs(x); }
__SIMULEE_DEV__ int __ffsll(long long x) { return __builtin_ffsll(x); }
__SIMULEE_DEV__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
__SIMULEE_DEV__ unsigned long long __brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
__SIMULEE_DEV__ unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long bytes = ((unsigned long long)y << 32) | x;
  unsigned result = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned selector = (s >> (4 * i)) & 7u;
    result |= (unsigned)((bytes >> (8 * selector)) & 0xffu) << (8 * i);
  }
  return result;
}
__SIMULEE_DEV__ int __mul24(int x, int y) { return ((x << 8) >> 8) * ((y << 8) >> 8); }
__SIMULEE_DEV__ unsigned __umul24(unsigned x, unsigned y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
__SIMULEE_DEV__ int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
__SIMULEE_DEV__ unsigned __umulhi(unsigned x, unsigned y) {
  return (unsigned)(((unsigned long long)x * y) >> 32);
}
__SIMULEE_DEV__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  unsigned long long xLo = x & 0xffffffffu, xHi = x >> 32;
  unsigned long long yLo = y & 0xffffffffu, yHi = y >> 32;
  unsigned long long lowLow = xLo * yLo;
  unsigned long long middle1 = xHi * yLo + (lowLow >> 32);
  unsigned long long middle2 = xLo * yHi + (middle1 & 0xffffffffu);
  return xHi * yHi + (middle1 >> 32) + (middle2 >> 32);
}
__SIMULEE_DEV__ long long __mul64hi(long long x, long long y) {
  unsigned long long high = __umul64hi((unsigned long long)x, (unsigned long long)y);
  // Signed correction: (x * y) >> 64 for two's complement operands.
  if (x < 0)
    high -= (unsigned long long)y;
  if (y < 0)
    high -= (unsigned long long)x;
  return (long long)high;
}
__SIMULEE_DEV__ unsigned __sad(int x, int y, unsigned z) {
  return (unsigned)(x > y ? x - y : y - x) + z;
}
__SIMULEE_DEV__ unsigned __usad(unsigned x, unsigned y, unsigned z) {
  return (x > y ? x - y : y - x) + z;
}
__SIMULEE_DEV__ int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
__SIMULEE_DEV__ int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
__SIMULEE_DEV__ unsigned __uhadd(unsigned x, unsigned y) {
  return (unsigned)(((unsigned long long)x + y) >> 1);
}
__SIMULEE_DEV__ unsigned __urhadd(unsigned x, unsigned y) {
  return (unsigned)(((unsigned long long)x + y + 1) >> 1);
}

#define __SIMULEE_MINMAX(R, A, B)                                                                  \
  __SIMULEE_HD__ R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                          \
  __SIMULEE_HD__ R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
__SIMULEE_MINMAX(int, int, int)
__SIMULEE_MINMAX(unsigned, unsigned, unsigned)
__SIMULEE_MINMAX(unsigned, int, unsigned)
__SIMULEE_MINMAX(unsigned, unsigned, int)
__SIMULEE_MINMAX(long, long, long)
__SIMULEE_MINMAX(unsigned long, unsigned long, unsigned long)
__SIMULEE_MINMAX(long long, long long, long long)
__SIMULEE_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__SIMULEE_MINMAX(unsigned long long, long long, unsigned long long)
__SIMULEE_MINMAX(unsigned long long, unsigned long long, long long)
#undef __SIMULEE_MINMAX
__SIMULEE_HD__ float min(float a, float b) { return fminf(a, b); }
__SIMULEE_HD__ float max(float a, float b) { return fmaxf(a, b); }
__SIMULEE_HD__ double min(double a, double b) { return fmin(a, b); }
__SIMULEE_HD__ double max(double a, double b) { return fmax(a, b); }
__SIMULEE_HD__ double min(float a, double b) { return fmin(a, b); }
__SIMULEE_HD__ double max(float a, double b) { return fmax(a, b); }
__SIMULEE_HD__ double min(double a, float b) { return fmin(a, b); }
__SIMULEE_HD__ double max(double a, float b) { return fmax(a, b); }
__SIMULEE_HD__ unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
__SIMULEE_HD__ unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
__SIMULEE_HD__ long long llmin(long long a, long long b) { return a < b ? a : b; }
__SIMULEE_HD__ long long llmax(long long a, long long b) { return a > b ? a : b; }
__SIMULEE_HD__ unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
__SIMULEE_HD__ unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}

// ---------------------------------------------------------------------------
// Vector types, uint3, dim3.
// ---------------------------------------------------------------------------
#define __SIMULEE_VECTOR_TYPES(T, N, A1, A2, A3, A4)                                              \
  struct __attribute__((aligned(A1))) N##1 { T x; };                                              \
  struct __attribute__((aligned(A2))) N##2 { T x, y; };                                           \
  struct __attribute__((aligned(A3))) N##3 { T x, y, z; };                                        \
  struct __attribute__((aligned(A4))) N##4 { T x, y, z, w; };                                     \
  typedef struct N##1 N##1;                                                                       \
  typedef struct N##2 N##2;                                                                       \
  typedef struct N##3 N##3;                                                                       \
  typedef struct N##4 N##4;                                                                       \
  __SIMULEE_HD__ N##1 make_##N##1(T x) { return N##1{x}; }                                        \
  __SIMULEE_HD__ N##2 make_##N##2(T x, T y) { return N##2{x, y}; }                                \
  __SIMULEE_HD__ N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }                        \
  __SIMULEE_HD__ N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
__SIMULEE_VECTOR_TYPES(signed char, char, 1, 2, 1, 4)
__SIMULEE_VECTOR_TYPES(unsigned char, uchar, 1, 2, 1, 4)
__SIMULEE_VECTOR_TYPES(short, short, 2, 4, 2, 8)
__SIMULEE_VECTOR_TYPES(unsigned short, ushort, 2, 4, 2, 8)
__SIMULEE_VECTOR_TYPES(int, int, 4, 8, 4, 16)
__SIMULEE_VECTOR_TYPES(unsigned int, uint, 4, 8, 4, 16)
__SIMULEE_VECTOR_TYPES(long, long, 8, 16, 8, 16)
__SIMULEE_VECTOR_TYPES(unsigned long, ulong, 8, 16, 8, 16)
__SIMULEE_VECTOR_TYPES(long long, longlong, 8, 16, 8, 16)
__SIMULEE_VECTOR_TYPES(unsigned long long, ulonglong, 8, 16, 8, 16)
__SIMULEE_VECTOR_TYPES(float, float, 4, 8, 4, 16)
__SIMULEE_VECTOR_TYPES(double, double, 8, 16, 8, 16)
#undef __SIMULEE_VECTOR_TYPES

struct dim3 {
  unsigned int x, y, z;
  __SIMULEE_HD_MEMBER__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                       unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __SIMULEE_HD_MEMBER__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __SIMULEE_HD_MEMBER__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;

// ---------------------------------------------------------------------------
// Builtin variables. Each component is a property whose getter reads exactly
// one PTX special register; the objects themselves are never materialised.
// ---------------------------------------------------------------------------
#define __SIMULEE_BUILTIN_VARIABLE(Type, reg)                                                      \
  struct Type {                                                                                   \
    static __SIMULEE_MEMBER__ unsigned int __get_x() { return __nvvm_read_ptx_sreg_##reg##_x(); } \
    static __SIMULEE_MEMBER__ unsigned int __get_y() { return __nvvm_read_ptx_sreg_##reg##_y(); } \
    static __SIMULEE_MEMBER__ unsigned int __get_z() { return __nvvm_read_ptx_sreg_##reg##_z(); } \
    __declspec(property(get = __get_x)) unsigned int x;                                           \
    __declspec(property(get = __get_y)) unsigned int y;                                           \
    __declspec(property(get = __get_z)) unsigned int z;                                           \
    __SIMULEE_MEMBER__ operator uint3() const { return uint3{__get_x(), __get_y(), __get_z()}; }  \
    __SIMULEE_MEMBER__ operator dim3() const { return dim3(__get_x(), __get_y(), __get_z()); }    \
                                                                                                  \
  private:                                                                                        \
    __device__ Type() = delete;                                                                   \
    __device__ Type(const Type &) = delete;                                                       \
    __device__ void operator=(const Type &) const = delete;                                       \
    __device__ Type *operator&() const = delete;                                                  \
  };
__SIMULEE_BUILTIN_VARIABLE(__simulee_threadIdx_t, tid)
__SIMULEE_BUILTIN_VARIABLE(__simulee_blockIdx_t, ctaid)
__SIMULEE_BUILTIN_VARIABLE(__simulee_blockDim_t, ntid)
__SIMULEE_BUILTIN_VARIABLE(__simulee_gridDim_t, nctaid)
#undef __SIMULEE_BUILTIN_VARIABLE

extern const __device__ __simulee_threadIdx_t threadIdx;
extern const __device__ __simulee_blockIdx_t blockIdx;
extern const __device__ __simulee_blockDim_t blockDim;
extern const __device__ __simulee_gridDim_t gridDim;
static constexpr int warpSize = 32;

// ---------------------------------------------------------------------------
// Barriers and fences. __syncthreads() is a clang builtin in CUDA mode.
// ---------------------------------------------------------------------------
// Warp-level intrinsics need a PTX feature clang does not enable without a
// CUDA installation, so they are declared under their LLVM intrinsic names.
extern "C" {
__device__ void __simulee_bar_warp_sync(unsigned) __asm("llvm.nvvm.bar.warp.sync");
__device__ unsigned __simulee_activemask() __asm("llvm.nvvm.activemask");
__device__ unsigned __simulee_vote_ballot(unsigned, bool) __asm("llvm.nvvm.vote.ballot.sync");
__device__ bool __simulee_vote_any(unsigned, bool) __asm("llvm.nvvm.vote.any.sync");
__device__ bool __simulee_vote_all(unsigned, bool) __asm("llvm.nvvm.vote.all.sync");
__device__ bool __simulee_vote_uni(unsigned, bool) __asm("llvm.nvvm.vote.uni.sync");
__device__ int __simulee_shfl_idx_i32(unsigned, int, int, int) __asm("llvm.nvvm.shfl.sync.idx.i32");
__device__ int __simulee_shfl_up_i32(unsigned, int, int, int) __asm("llvm.nvvm.shfl.sync.up.i32");
__device__ int __simulee_shfl_down_i32(unsigned, int, int, int) __asm("llvm.nvvm.shfl.sync.down.i32");
__device__ int __simulee_shfl_bfly_i32(unsigned, int, int, int) __asm("llvm.nvvm.shfl.sync.bfly.i32");
__device__ float __simulee_shfl_idx_f32(unsigned, float, int, int) __asm("llvm.nvvm.shfl.sync.idx.f32");
__device__ float __simulee_shfl_up_f32(unsigned, float, int, int) __asm("llvm.nvvm.shfl.sync.up.f32");
__device__ float __simulee_shfl_down_f32(unsigned, float, int, int) __asm("llvm.nvvm.shfl.sync.down.f32");
__device__ float __simulee_shfl_bfly_f32(unsigned, float, int, int) __asm("llvm.nvvm.shfl.sync.bfly.f32");
__device__ unsigned __simulee_atomic_inc(unsigned *, unsigned) __asm("llvm.nvvm.atomic.load.inc.32.p0");
__device__ unsigned __simulee_atomic_dec(unsigned *, unsigned) __asm("llvm.nvvm.atomic.load.dec.32.p0");
}

__SIMULEE_DEV__ int __syncthreads_count(int predicate) { return __nvvm_bar0_popc(predicate); }
__SIMULEE_DEV__ int __syncthreads_and(int predicate) { return __nvvm_bar0_and(predicate); }
__SIMULEE_DEV__ int __syncthreads_or(int predicate) { return __nvvm_bar0_or(predicate); }
__SIMULEE_DEV__ void __syncwarp(unsigned mask = 0xffffffffu) { __simulee_bar_warp_sync(mask); }
__SIMULEE_DEV__ void __threadfence() { __nvvm_membar_gl(); }
__SIMULEE_DEV__ void __threadfence_block() { __nvvm_membar_cta(); }
__SIMULEE_DEV__ void __threadfence_system() { __nvvm_membar_sys(); }

// ---------------------------------------------------------------------------
// Warp votes and shuffles.
// ---------------------------------------------------------------------------
__SIMULEE_DEV__ unsigned __activemask() { return __simulee_activemask(); }
__SIMULEE_DEV__ unsigned __ballot_sync(unsigned mask, int predicate) {
  return __simulee_vote_ballot(mask, predicate != 0);
}
__SIMULEE_DEV__ int __any_sync(unsigned mask, int predicate) {
  return __simulee_vote_any(mask, predicate != 0);
}
__SIMULEE_DEV__ int __all_sync(unsigned mask, int predicate) {
  return __simulee_vote_all(mask, predicate != 0);
}
__SIMULEE_DEV__ int __uni_sync(unsigned mask, int predicate) {
  return __simulee_vote_uni(mask, predicate != 0);
}
__SIMULEE_DEV__ unsigned __ballot(int predicate) { return __ballot_sync(0xffffffffu, predicate); }
__SIMULEE_DEV__ int __any(int predicate) { return __any_sync(0xffffffffu, predicate); }
__SIMULEE_DEV__ int __all(int predicate) { return __all_sync(0xffffffffu, predicate); }

// The c operand packs the segment mask ((32 - width) << 8) and the clamp
// lane (0x1f, or 0 for up-shuffles, which clamp at the segment start).
__SIMULEE_DEV__ int __simulee_shfl_segment(int width) { return (32 - width) << 8; }

#define __SIMULEE_SHFL_FAMILY(name, kind, Delta, clamp)                                            \
  __SIMULEE_DEV__ int name(unsigned mask, int v, Delta d, int width = 32) {                       \
    return __simulee_shfl_##kind##_i32(mask, v, (int)d, __simulee_shfl_segment(width) | clamp);   \
  }                                                                                               \
  __SIMULEE_DEV__ unsigned name(unsigned mask, unsigned v, Delta d, int width = 32) {             \
    return (unsigned)name(mask, (int)v, d, width);                                                \
  }                                                                                               \
  __SIMULEE_DEV__ float name(unsigned mask, float v, Delta d, int width = 32) {                   \
    return __simulee_shfl_##kind##_f32(mask, v, (int)d, __simulee_shfl_segment(width) | clamp);   \
  }                                                                                               \
  __SIMULEE_DEV__ long long name(unsigned mask, long long v, Delta d, int width = 32) {           \
    int lo = name(mask, (int)(unsigned)v, d, width);                                              \
    int hi = name(mask, (int)(unsigned)((unsigned long long)v >> 32), d, width);                  \
    return (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo);                  \
  }                                                                                               \
  __SIMULEE_DEV__ unsigned long long name(unsigned mask, unsigned long long v, Delta d,           \
                                          int width = 32) {                                       \
    return (unsigned long long)name(mask, (long long)v, d, width);                                \
  }                                                                                               \
  __SIMULEE_DEV__ long name(unsigned mask, long v, Delta d, int width = 32) {                     \
    return (long)name(mask, (long long)v, d, width);                                              \
  }                                                                                               \
  __SIMULEE_DEV__ unsigned long name(unsigned mask, unsigned long v, Delta d, int width = 32) {   \
    return (unsigned long)name(mask, (long long)v, d, width);                                     \
  }                                                                                               \
  __SIMULEE_DEV__ double name(unsigned mask, double v, Delta d, int width = 32) {                 \
    return __builtin_bit_cast(double, name(mask, __builtin_bit_cast(long long, v), d, width));    \
  }
__SIMULEE_SHFL_FAMILY(__shfl_sync, idx, int, 0x1f)
__SIMULEE_SHFL_FAMILY(__shfl_up_sync, up, unsigned, 0)
__SIMULEE_SHFL_FAMILY(__shfl_down_sync, down, unsigned, 0x1f)
__SIMULEE_SHFL_FAMILY(__shfl_xor_sync, bfly, int, 0x1f)
#undef __SIMULEE_SHFL_FAMILY

// Pre-Volta shuffles: the whole warp takes part.
template <class T> __SIMULEE_DEV__ T __shfl(T v, int lane, int width = 32) {
  return __shfl_sync(0xffffffffu, v, lane, width);
}
template <class T> __SIMULEE_DEV__ T __shfl_up(T v, unsigned delta, int width = 32) {
  return __shfl_up_sync(0xffffffffu, v, delta, width);
}
template <class T> __SIMULEE_DEV__ T __shfl_down(T v, unsigned delta, int width = 32) {
  return __shfl_down_sync(0xffffffffu, v, delta, width);
}
template <class T> __SIMULEE_DEV__ T __shfl_xor(T v, int laneMask, int width = 32) {
  return __shfl_xor_sync(0xffffffffu, v, laneMask, width);
}

__SIMULEE_DEV__ unsigned __lanemask_lt() {
  return (1u << (__nvvm_read_ptx_sreg_tid_x() & 31u)) - 1u;
}

// ---------------------------------------------------------------------------
// Atomics: plain LLVM atomicrmw / cmpxchg (relaxed, as CUDA's are).
// ---------------------------------------------------------------------------
#define __SIMULEE_RMW(name, builtin, T)                                                            \
  __SIMULEE_DEV__ T name(T *address, T value) {                                                   \
    return builtin(address, value, __ATOMIC_RELAXED);                                             \
  }                                                                                               \
  __SIMULEE_DEV__ T name##_block(T *address, T value) {                                           \
    return builtin(address, value, __ATOMIC_RELAXED);                                             \
  }                                                                                               \
  __SIMULEE_DEV__ T name##_system(T *address, T value) {                                          \
    return builtin(address, value, __ATOMIC_RELAXED);                                             \
  }
__SIMULEE_RMW(atomicAdd, __atomic_fetch_add, int)
__SIMULEE_RMW(atomicAdd, __atomic_fetch_add, unsigned)
__SIMULEE_RMW(atomicAdd, __atomic_fetch_add, unsigned long long)
__SIMULEE_RMW(atomicAdd, __atomic_fetch_add, float)
__SIMULEE_RMW(atomicAdd, __atomic_fetch_add, double)
__SIMULEE_RMW(atomicSub, __atomic_fetch_sub, int)
__SIMULEE_RMW(atomicSub, __atomic_fetch_sub, unsigned)
__SIMULEE_RMW(atomicSub, __atomic_fetch_sub, unsigned long long)
__SIMULEE_RMW(atomicExch, __atomic_exchange_n, int)
__SIMULEE_RMW(atomicExch, __atomic_exchange_n, unsigned)
__SIMULEE_RMW(atomicExch, __atomic_exchange_n, unsigned long long)
__SIMULEE_RMW(atomicMin, __atomic_fetch_min, int)
__SIMULEE_RMW(atomicMin, __atomic_fetch_min, unsigned)
__SIMULEE_RMW(atomicMin, __atomic_fetch_min, long long)
__SIMULEE_RMW(atomicMin, __atomic_fetch_min, unsigned long long)
__SIMULEE_RMW(atomicMax, __atomic_fetch_max, int)
__SIMULEE_RMW(atomicMax, __atomic_fetch_max, unsigned)
__SIMULEE_RMW(atomicMax, __atomic_fetch_max, long long)
__SIMULEE_RMW(atomicMax, __atomic_fetch_max, unsigned long long)
__SIMULEE_RMW(atomicAnd, __atomic_fetch_and, int)
__SIMULEE_RMW(atomicAnd, __atomic_fetch_and, unsigned)
__SIMULEE_RMW(atomicAnd, __atomic_fetch_and, unsigned long long)
__SIMULEE_RMW(atomicOr, __atomic_fetch_or, int)
__SIMULEE_RMW(atomicOr, __atomic_fetch_or, unsigned)
__SIMULEE_RMW(atomicOr, __atomic_fetch_or, unsigned long long)
__SIMULEE_RMW(atomicXor, __atomic_fetch_xor, int)
__SIMULEE_RMW(atomicXor, __atomic_fetch_xor, unsigned)
__SIMULEE_RMW(atomicXor, __atomic_fetch_xor, unsigned long long)
#undef __SIMULEE_RMW

__SIMULEE_DEV__ float atomicExch(float *address, float value) {
  float old;
  __atomic_exchange(address, &value, &old, __ATOMIC_RELAXED);
  return old;
}
// atomicInc/Dec wrap at `limit`; LLVM 19 has no clang builtin that yields
// atomicrmw uinc_wrap/udec_wrap, so these are the NVVM intrinsics.
__SIMULEE_DEV__ unsigned atomicInc(unsigned *address, unsigned limit) {
  return __simulee_atomic_inc(address, limit);
}
__SIMULEE_DEV__ unsigned atomicDec(unsigned *address, unsigned limit) {
  return __simulee_atomic_dec(address, limit);
}
__SIMULEE_DEV__ int atomicCAS(int *address, int compare, int value) {
  return __nvvm_atom_cas_gen_i(address, compare, value);
}
__SIMULEE_DEV__ unsigned atomicCAS(unsigned *address, unsigned compare, unsigned value) {
  return (unsigned)__nvvm_atom_cas_gen_i((int *)address, (int)compare, (int)value);
}
__SIMULEE_DEV__ unsigned long long atomicCAS(unsigned long long *address,
                                             unsigned long long compare,
                                             unsigned long long value) {
  return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)address, (long long)compare,
                                                    (long long)value);
}
__SIMULEE_DEV__ unsigned short atomicCAS(unsigned short *address, unsigned short compare,
                                         unsigned short value) {
  __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return compare;
}
__SIMULEE_DEV__ int atomicCAS_block(int *address, int compare, int value) {
  return atomicCAS(address, compare, value);
}
__SIMULEE_DEV__ unsigned atomicCAS_block(unsigned *address, unsigned compare, unsigned value) {
  return atomicCAS(address, compare, value);
}
__SIMULEE_DEV__ unsigned long long atomicCAS_block(unsigned long long *address,
                                                   unsigned long long compare,
                                                   unsigned long long value) {
  return atomicCAS(address, compare, value);
}
__SIMULEE_DEV__ int atomicCAS_system(int *address, int compare, int value) {
  return atomicCAS(address, compare, value);
}
__SIMULEE_DEV__ unsigned atomicCAS_system(unsigned *address, unsigned compare, unsigned value) {
  return atomicCAS(address, compare, value);
}
__SIMULEE_DEV__ unsigned long long atomicCAS_system(unsigned long long *address,
                                                    unsigned long long compare,
                                                    unsigned long long value) {
  return atomicCAS(address, compare, value);
}

// Read-only cache loads are plain loads for simulation.
template <class T> __SIMULEE_DEV__ T __ldg(const T *address) { return *address; }
template <class T> __SIMULEE_DEV__ T __ldcg(const T *address) { return *address; }
template <class T> __SIMULEE_DEV__ T __ldca(const T *address) { return *address; }
template <class T> __SIMULEE_DEV__ T __ldcs(const T *address) { return *address; }
template <class T> __SIMULEE_DEV__ T __ldlu(const T *address) { return *address; }
template <class T> __SIMULEE_DEV__ T __ldcv(const T *address) { return *address; }
template <class T> __SIMULEE_DEV__ void __stcg(T *address, T value) { *address = value; }
template <class T> __SIMULEE_DEV__ void __stcs(T *address, T value) { *address = value; }
template <class T> __SIMULEE_DEV__ void __stwb(T *address, T value) { *address = value; }
template <class T> __SIMULEE_DEV__ void __stwt(T *address, T value) { *address = value; }

__SIMULEE_DEV__ long long clock64() { return (long long)__nvvm_read_ptx_sreg_clock64(); }
__SIMULEE_DEV__ int clock() { return __nvvm_read_ptx_sreg_clock(); }
__SIMULEE_DEV__ void __trap() { __builtin_trap(); }
__SIMULEE_DEV__ void __brkpt() {}
__SIMULEE_DEV__ void __nanosleep(unsigned) {}

#include "simulee_cuda_runtime_api.h"

// ---------------------------------------------------------------------------
// Every libdevice function this header (with simulee_math_list.h) declares,
// sorted; the interpreter implements exactly these. LIBDEVICE_FUNCTIONS.txt
// holds the same list as "name return-type argument-types..." with the types
// spelled float, double or int.
//
//   double __nv_acos(double);
//   float __nv_acosf(float);
//   double __nv_acosh(double);
//   float __nv_acoshf(float);
//   double __nv_asin(double);
//   float __nv_asinf(float);
//   double __nv_asinh(double);
//   float __nv_asinhf(float);
//   double __nv_atan(double);
//   double __nv_atan2(double, double);
//   float __nv_atan2f(float, float);
//   float __nv_atanf(float);
//   double __nv_atanh(double);
//   float __nv_atanhf(float);
//   double __nv_cbrt(double);
//   float __nv_cbrtf(float);
//   double __nv_ceil(double);
//   float __nv_ceilf(float);
//   double __nv_copysign(double, double);
//   float __nv_copysignf(float, float);
//   double __nv_cos(double);
//   float __nv_cosf(float);
//   double __nv_cosh(double);
//   float __nv_coshf(float);
//   double __nv_dadd_rn(double, double);
//   double __nv_ddiv_rn(double, double);
//   double __nv_dmul_rn(double, double);
//   double __nv_drcp_rn(double);
//   double __nv_dsqrt_rn(double);
//   double __nv_erf(double);
//   double __nv_erfc(double);
//   float __nv_erfcf(float);
//   float __nv_erff(float);
//   double __nv_exp(double);
//   double __nv_exp10(double);
//   float __nv_exp10f(float);
//   double __nv_exp2(double);
//   float __nv_exp2f(float);
//   float __nv_expf(float);
//   double __nv_expm1(double);
//   float __nv_expm1f(float);
//   double __nv_fabs(double);
//   float __nv_fabsf(float);
//   float __nv_fadd_rn(float, float);
//   float __nv_fast_cosf(float);
//   float __nv_fast_exp10f(float);
//   float __nv_fast_expf(float);
//   float __nv_fast_log10f(float);
//   float __nv_fast_log2f(float);
//   float __nv_fast_logf(float);
//   float __nv_fast_powf(float, float);
//   float __nv_fast_sinf(float);
//   float __nv_fast_tanf(float);
//   double __nv_fdim(double, double);
//   float __nv_fdimf(float, float);
//   float __nv_fdiv_rn(float, float);
//   float __nv_fdividef(float, float);
//   int __nv_finitef(float);
//   double __nv_floor(double);
//   float __nv_floorf(float);
//   double __nv_fma(double, double, double);
//   double __nv_fma_rn(double, double, double);
//   float __nv_fmaf(float, float, float);
//   float __nv_fmaf_rn(float, float, float);
//   double __nv_fmax(double, double);
//   float __nv_fmaxf(float, float);
//   double __nv_fmin(double, double);
//   float __nv_fminf(float, float);
//   double __nv_fmod(double, double);
//   float __nv_fmodf(float, float);
//   float __nv_fmul_rn(float, float);
//   float __nv_frcp_rn(float);
//   float __nv_fsqrt_rn(float);
//   double __nv_hypot(double, double);
//   float __nv_hypotf(float, float);
//   int __nv_ilogb(double);
//   int __nv_ilogbf(float);
//   int __nv_isfinited(double);
//   int __nv_isinfd(double);
//   int __nv_isinff(float);
//   int __nv_isnand(double);
//   int __nv_isnanf(float);
//   double __nv_ldexp(double, int);
//   float __nv_ldexpf(float, int);
//   double __nv_lgamma(double);
//   float __nv_lgammaf(float);
//   double __nv_log(double);
//   double __nv_log10(double);
//   float __nv_log10f(float);
//   double __nv_log1p(double);
//   float __nv_log1pf(float);
//   double __nv_log2(double);
//   float __nv_log2f(float);
//   double __nv_logb(double);
//   float __nv_logbf(float);
//   float __nv_logf(float);
//   double __nv_nearbyint(double);
//   float __nv_nearbyintf(float);
//   double __nv_nextafter(double, double);
//   float __nv_nextafterf(float, float);
//   double __nv_pow(double, double);
//   float __nv_powf(float, float);
//   double __nv_rcbrt(double);
//   float __nv_rcbrtf(float);
//   double __nv_remainder(double, double);
//   float __nv_remainderf(float, float);
//   double __nv_rint(double);
//   float __nv_rintf(float);
//   double __nv_round(double);
//   float __nv_roundf(float);
//   double __nv_rsqrt(double);
//   float __nv_rsqrtf(float);
//   float __nv_saturatef(float);
//   double __nv_scalbn(double, int);
//   float __nv_scalbnf(float, int);
//   int __nv_signbitd(double);
//   int __nv_signbitf(float);
//   double __nv_sin(double);
//   float __nv_sinf(float);
//   double __nv_sinh(double);
//   float __nv_sinhf(float);
//   double __nv_sqrt(double);
//   float __nv_sqrtf(float);
//   double __nv_tan(double);
//   float __nv_tanf(float);
//   double __nv_tanh(double);
//   float __nv_tanhf(float);
//   double __nv_tgamma(double);
//   float __nv_tgammaf(float);
//   double __nv_trunc(double);
//   float __nv_truncf(float);
// ---------------------------------------------------------------------------

#endif // SIMULEE_CUDA_H
