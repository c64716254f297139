// Host-side min/max for .cu files compiled against NVIDIA's headers. nvcc's
// CUDA headers give host code the same integer and floating-point min/max
// overloads device code has, so host code such as
// `grid = max(1, min(n / 256, 64))` compiles with nvcc; clang's CUDA headers
// declare them for device code only. These are the host overloads, written
// for simulee (device code keeps clang's). Force-included with NVIDIA's
// headers, after the precompiled header.
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
