// A minimal __half for simulee: stored as 16 bits, computed in float. The
// conversions round to nearest even, as CUDA's __float2half does.
#ifndef SIMULEE_CUDA_FP16_H
#define SIMULEE_CUDA_FP16_H
#pragma clang system_header // like the toolkit's headers: no warnings, relaxed overloading rules

#include "simulee_cuda.h"

__SIMULEE_HD__ unsigned short __simulee_float_to_half_bits(float value) {
  unsigned bits = __builtin_bit_cast(unsigned, value);
  unsigned sign = (bits >> 16) & 0x8000u;
  unsigned exponent = (bits >> 23) & 0xffu;
  unsigned mantissa = bits & 0x7fffffu;
  if (exponent == 0xffu) // infinity or NaN
    return (unsigned short)(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
  int halfExponent = (int)exponent - 127 + 15;
  if (halfExponent >= 31)
    return (unsigned short)(sign | 0x7c00u);
  if (halfExponent <= 0) { // subnormal or zero
    if (halfExponent < -10)
      return (unsigned short)sign;
    mantissa |= 0x800000u;
    unsigned shift = (unsigned)(14 - halfExponent);
    unsigned half = mantissa >> shift;
    unsigned rest = mantissa & ((1u << shift) - 1u);
    unsigned halfway = 1u << (shift - 1u);
    if (rest > halfway || (rest == halfway && (half & 1u)))
      ++half;
    return (unsigned short)(sign | half);
  }
  unsigned half = ((unsigned)halfExponent << 10) | (mantissa >> 13);
  unsigned rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent, which is still correct
  return (unsigned short)(sign | half);
}

__SIMULEE_HD__ float __simulee_half_bits_to_float(unsigned short value) {
  unsigned sign = ((unsigned)value & 0x8000u) << 16;
  unsigned exponent = ((unsigned)value >> 10) & 0x1fu;
  unsigned mantissa = (unsigned)value & 0x3ffu;
  if (exponent == 0x1fu)
    return __builtin_bit_cast(float, sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    float magnitude = (float)mantissa * (1.0f / 16777216.0f); // 2^-24
    return sign ? -magnitude : magnitude;
  }
  return __builtin_bit_cast(float, sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

struct __half {
  unsigned short __x;
  __SIMULEE_HD_MEMBER__ __half() : __x(0) {}
  __SIMULEE_HD_MEMBER__ __half(float value) : __x(__simulee_float_to_half_bits(value)) {}
  __SIMULEE_HD_MEMBER__ __half(double value) : __half((float)value) {}
  __SIMULEE_HD_MEMBER__ __half(int value) : __half((float)value) {}
  __SIMULEE_HD_MEMBER__ operator float() const { return __simulee_half_bits_to_float(__x); }
  __SIMULEE_HD_MEMBER__ __half &operator+=(const __half &o) { return *this = __half(float(*this) + float(o)); }
  __SIMULEE_HD_MEMBER__ __half &operator-=(const __half &o) { return *this = __half(float(*this) - float(o)); }
  __SIMULEE_HD_MEMBER__ __half &operator*=(const __half &o) { return *this = __half(float(*this) * float(o)); }
  __SIMULEE_HD_MEMBER__ __half &operator/=(const __half &o) { return *this = __half(float(*this) / float(o)); }
};
typedef __half half;

struct __align__(4) __half2 {
  __half x, y;
};
typedef __half2 half2;

__SIMULEE_HD__ __half __float2half(float value) { return __half(value); }
__SIMULEE_HD__ __half __float2half_rn(float value) { return __half(value); }
__SIMULEE_HD__ float __half2float(__half value) { return float(value); }
__SIMULEE_HD__ __half __int2half_rn(int value) { return __half((float)value); }
__SIMULEE_HD__ int __half2int_rz(__half value) { return (int)float(value); }
__SIMULEE_HD__ __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
__SIMULEE_HD__ __half2 __float2half2_rn(float a) { return __half2{__half(a), __half(a)}; }
__SIMULEE_HD__ float __low2float(__half2 v) { return float(v.x); }
__SIMULEE_HD__ float __high2float(__half2 v) { return float(v.y); }
__SIMULEE_HD__ unsigned short __half_as_ushort(__half v) { return v.__x; }
__SIMULEE_HD__ __half __ushort_as_half(unsigned short v) {
  __half h;
  h.__x = v;
  return h;
}

__SIMULEE_HD__ __half __hadd(__half a, __half b) { return __half(float(a) + float(b)); }
__SIMULEE_HD__ __half __hsub(__half a, __half b) { return __half(float(a) - float(b)); }
__SIMULEE_HD__ __half __hmul(__half a, __half b) { return __half(float(a) * float(b)); }
__SIMULEE_HD__ __half __hdiv(__half a, __half b) { return __half(float(a) / float(b)); }
__SIMULEE_HD__ __half __hneg(__half a) { return __half(-float(a)); }
__SIMULEE_HD__ __half __hfma(__half a, __half b, __half c) {
  return __half(float(a) * float(b) + float(c));
}
__SIMULEE_HD__ bool __heq(__half a, __half b) { return float(a) == float(b); }
__SIMULEE_HD__ bool __hlt(__half a, __half b) { return float(a) < float(b); }
__SIMULEE_HD__ bool __hgt(__half a, __half b) { return float(a) > float(b); }
__SIMULEE_HD__ __half2 __hadd2(__half2 a, __half2 b) {
  return __half2{__hadd(a.x, b.x), __hadd(a.y, b.y)};
}
__SIMULEE_HD__ __half2 __hmul2(__half2 a, __half2 b) {
  return __half2{__hmul(a.x, b.x), __hmul(a.y, b.y)};
}

#endif // SIMULEE_CUDA_FP16_H
