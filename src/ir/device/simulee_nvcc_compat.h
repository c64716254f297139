// What nvcc gives CUDA code and clang's CUDA support does not, for .cu files
// compiled against NVIDIA's headers (device analysis and simulee exec's host
// compile). Force-included after the precompiled header.
//
// Host-side min/max: nvcc's headers give host code the same integer and
// floating-point min/max overloads device code has, so host code such as
// `grid = max(1, min(n / 256, 64))` compiles with nvcc; clang's CUDA headers
// declare them for device code only. These are the host overloads, written
// for simulee (device code keeps clang's).
#pragma once

#if defined(__CUDA__)

#define __SIMULEE_HOST_MINMAX(R, A, B)                                                             \
  static inline __host__ R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                   \
  static inline __host__ R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
__SIMULEE_HOST_MINMAX(int, int, int)
__SIMULEE_HOST_MINMAX(unsigned, unsigned, unsigned)
__SIMULEE_HOST_MINMAX(unsigned, int, unsigned)
__SIMULEE_HOST_MINMAX(unsigned, unsigned, int)
__SIMULEE_HOST_MINMAX(long, long, long)
__SIMULEE_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
__SIMULEE_HOST_MINMAX(unsigned long, long, unsigned long)
__SIMULEE_HOST_MINMAX(unsigned long, unsigned long, long)
__SIMULEE_HOST_MINMAX(long long, long long, long long)
__SIMULEE_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__SIMULEE_HOST_MINMAX(unsigned long long, long long, unsigned long long)
__SIMULEE_HOST_MINMAX(unsigned long long, unsigned long long, long long)
__SIMULEE_HOST_MINMAX(float, float, float)
__SIMULEE_HOST_MINMAX(double, double, double)
__SIMULEE_HOST_MINMAX(double, float, double)
__SIMULEE_HOST_MINMAX(double, double, float)
#undef __SIMULEE_HOST_MINMAX

#endif

#if defined(__CUDA__)

// assert(), fprintf(stderr, ...), FILE, malloc, memcpy and clock() without
// their #includes: nvcc's cuda_runtime.h includes <assert.h>, <stdio.h>,
// <stdlib.h>, <string.h> and <time.h> (through crt/common_functions.h), and
// code written for nvcc relies on it; clang's wrapper does not.
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
// Likewise <math.h> (crt/math_functions.h): host code calls isfinite(float),
// isnan and isinf unqualified, which clang's <cmath> leaves in namespace std.
#include <math.h>

// The cache-hinted loads and stores of sm_32_intrinsics.h (__ldcg, __ldca,
// __ldcs, __ldlu, __ldcv; __stwb, __stcg, __stcs, __stwt), which clang's
// wrapper leaves out with the rest of that header. A hint only tells the
// caches how to keep the line, and simulated memory has none: each is the
// plain load or store of its type, for every type NVIDIA declares them for
// (NVIDIA's own overloads, such as cuda_fp16.h's for __half, come first).
#define __SIMULEE_CACHE_HINTED_LOAD(NAME)                                                         \
  template <class T> static __device__ __forceinline__ T NAME(const T *ptr) { return *ptr; }
// The value converts to the pointee's type, as it would to an overload's.
template <class T> struct __simulee_pointee { using type = T; };
#define __SIMULEE_CACHE_HINTED_STORE(NAME)                                                        \
  template <class T>                                                                              \
  static __device__ __forceinline__ void NAME(T *ptr, typename __simulee_pointee<T>::type value) { \
    *ptr = value;                                                                                 \
  }
__SIMULEE_CACHE_HINTED_LOAD(__ldcg)
__SIMULEE_CACHE_HINTED_LOAD(__ldca)
__SIMULEE_CACHE_HINTED_LOAD(__ldcs)
__SIMULEE_CACHE_HINTED_LOAD(__ldlu)
__SIMULEE_CACHE_HINTED_LOAD(__ldcv)
__SIMULEE_CACHE_HINTED_STORE(__stwb)
__SIMULEE_CACHE_HINTED_STORE(__stcg)
__SIMULEE_CACHE_HINTED_STORE(__stcs)
__SIMULEE_CACHE_HINTED_STORE(__stwt)
#undef __SIMULEE_CACHE_HINTED_LOAD
#undef __SIMULEE_CACHE_HINTED_STORE

// nvcc defines __CUDACC__ as 1 (clang: empty, so `#if __CUDACC__` fails to
// preprocess) and its version, here the CUDA release of NVIDIA's headers.
#undef __CUDACC__
#define __CUDACC__ 1
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ (CUDART_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDART_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

// The sm_XX headers whose definitions clang's CUDA wrapper includes itself
// (their .hpp files, from __clang_cuda_runtime_wrapper.h): nvcc's
// cuda_runtime.h includes each of them, so a program's own
// `#include <sm_61_intrinsics.h>` adds nothing there. Under clang the header
// would define those functions a second time in host code (empty host
// bodies): they are marked as included. Device code keeps the headers'
// declarations, which agree with the definitions.
#if !defined(__CUDA_ARCH__)
#define __SM_20_INTRINSICS_H__
#define __SM_20_ATOMIC_FUNCTIONS_H__
#define __SM_32_ATOMIC_FUNCTIONS_H__
#define __SM_60_ATOMIC_FUNCTIONS_H__
#define __SM_61_INTRINSICS_H__
#endif

// nan(tag) and nanf(tag) in device code: clang's headers declare them
// (__clang_cuda_math_forward_declares.h) but define neither, so a call links
// to nothing; nvcc's libdevice builds the quiet NaN whose payload the tag
// spells. These are those definitions, through libdevice's own functions.
#if defined(__CLANG__CUDA_MATH_FORWARD_DECLARES_H__)
static __inline__ __device__ double nan(const char *__tag) {
  return __nv_nan(reinterpret_cast<const signed char *>(__tag));
}
static __inline__ __device__ float nanf(const char *__tag) {
  return __nv_nanf(reinterpret_cast<const signed char *>(__tag));
}
#endif

// __managed__ variables: clang accepts the managed attribute for HIP only and
// ignores it for CUDA, which leaves a host variable the kernels cannot use.
// A managed variable is a device variable the host reads and writes as well:
// simulee compiles it as __device__, marked so that the analysis knows it
// and simulee exec keeps the host's copy and the device's the same.
#undef __managed__
#define __managed__ __device__ __attribute__((annotate("simulee.managed")))

// Cooperative groups on sm_80 and newer keep multi-warp tiles' barriers in
// shared memory the driver reserves for each block (%reserved_smem_offset_1
// in inline PTX), which no simulated block has: with this macro they use the
// block_tile_memory a program passes to this_thread_block(), as on Volta,
// on the device and host sides alike (block_tile_memory's size).
#ifndef _CG_USER_PROVIDED_SHARED_MEMORY
#define _CG_USER_PROVIDED_SHARED_MEMORY
#endif

#endif
