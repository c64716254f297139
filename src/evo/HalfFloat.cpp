#include "evo/HalfFloat.h"

#include <bit>
#include <cmath>
#include <limits>

namespace simulee::evo {

// Drops the low `shift` bits of `mantissa`, rounding to nearest even.
static uint32_t roundedShift(uint32_t mantissa, uint32_t shift) {
  uint32_t kept = mantissa >> shift;
  uint32_t dropped = mantissa & ((uint32_t(1) << shift) - 1);
  uint32_t halfway = uint32_t(1) << (shift - 1);
  if (dropped > halfway || (dropped == halfway && (kept & 1)))
    ++kept; // a carry into the exponent field is the correct result
  return kept;
}

uint16_t toHalfBits(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t exponent = (bits >> 23) & 0xff;
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff) // infinity or NaN (kept quiet)
    return uint16_t(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  int halfExponent = int(exponent) - 127 + 15;
  if (halfExponent >= 31)
    return uint16_t(sign | 0x7c00);
  if (halfExponent <= 0) { // a half subnormal, counted in units of 2^-24
    if (halfExponent < -10)
      return uint16_t(sign);
    return uint16_t(sign | roundedShift(mantissa | 0x800000, uint32_t(14 - halfExponent)));
  }
  return uint16_t(sign | ((uint32_t(halfExponent) << 10) + roundedShift(mantissa, 13)));
}

uint16_t toBfloat16Bits(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return uint16_t((bits >> 16) | 0x40); // NaN, kept quiet
  return uint16_t((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

double fromHalfBits(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  if (exponent == 0)
    return sign * std::ldexp(mantissa, -24);
  if (exponent == 31)
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  return sign * std::ldexp(mantissa | 0x400, exponent - 25);
}

} // namespace simulee::evo
