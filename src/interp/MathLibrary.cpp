#include "interp/MathLibrary.h"

#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <type_traits>

namespace simulee::interp {

using ir::IntFunction;
using ir::MathFunction;

float halfToFloat(uint16_t half) {
  uint32_t sign = uint32_t(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  if (exponent == 0) {
    if (mantissa == 0)
      return std::bit_cast<float>(sign);
    float value = std::ldexp(float(mantissa), -24); // subnormal
    return sign ? -value : value;
  }
  if (exponent == 31)
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t floatToHalf(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  if (std::isnan(value))
    return sign | 0x7e00;
  float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f)
    return sign | 0x7c00;
  if (magnitude < std::ldexp(1.0f, -24) / 2)
    return sign;
  if (magnitude < std::ldexp(1.0f, -14)) // subnormal: round to nearest
    return sign | uint16_t(std::nearbyint(magnitude * std::ldexp(1.0f, 24)));
  int exponent;
  float fraction = std::frexp(magnitude, &exponent); // [0.5, 1)
  uint32_t mantissa = uint32_t(std::nearbyint((fraction * 2 - 1) * 1024));
  if (mantissa == 1024) {
    mantissa = 0;
    ++exponent;
  }
  uint32_t biased = uint32_t(exponent - 1 + 15);
  if (biased >= 31)
    return sign | 0x7c00;
  return sign | uint16_t(biased << 10) | uint16_t(mantissa);
}

double floatBitsToDouble(uint64_t bits, unsigned width) {
  if (width == 64)
    return std::bit_cast<double>(bits);
  if (width == 32)
    return std::bit_cast<float>(uint32_t(bits));
  return halfToFloat(uint16_t(bits));
}

uint64_t doubleToFloatBits(double value, unsigned width) {
  if (width == 64)
    return std::bit_cast<uint64_t>(value);
  if (width == 32)
    return floatResultBits(float(value));
  return floatToHalf(float(value));
}

namespace {
// `exact` (a long double holds every 64-bit integer) rounded to T in `mode`:
// the nearest T, then one step toward the direction asked if it overshot.
template <class T> T roundedTo(long double exact, ir::RoundingMode mode) {
  T nearest = T(exact);
  long double got = nearest;
  switch (mode) {
  case ir::RoundingMode::Nearest:
    return nearest;
  case ir::RoundingMode::TowardZero:
    return std::fabs(got) > std::fabs(exact) ? std::nextafter(nearest, T(0)) : nearest;
  case ir::RoundingMode::Up:
    return got < exact ? std::nextafter(nearest, std::numeric_limits<T>::infinity()) : nearest;
  case ir::RoundingMode::Down:
    return got > exact ? std::nextafter(nearest, -std::numeric_limits<T>::infinity()) : nearest;
  }
  return nearest;
}
} // namespace

uint64_t intToFloatBits(uint64_t value, unsigned fromWidth, bool isSigned, unsigned width,
                        ir::RoundingMode mode) {
  uint64_t bits = value & widthMask(fromWidth);
  long double exact = isSigned ? (long double)signExtend(bits, fromWidth) : (long double)bits;
  if (width == 64)
    return std::bit_cast<uint64_t>(roundedTo<double>(exact, mode));
  return std::bit_cast<uint32_t>(roundedTo<float>(exact, mode));
}

uint64_t floatToUnsigned(double value, unsigned intWidth) {
  if (std::isnan(value) || value <= 0)
    return 0;
  double limit = std::ldexp(1.0, int(intWidth));
  if (value >= limit)
    return widthMask(intWidth);
  return uint64_t(value) & widthMask(intWidth);
}

uint64_t floatToSigned(double value, unsigned intWidth) {
  if (std::isnan(value))
    return 0;
  double limit = std::ldexp(1.0, int(intWidth) - 1);
  if (value >= limit) // the largest signed value (2^63 itself is no int64_t)
    return widthMask(intWidth) >> 1;
  if (value < -limit)
    return uint64_t(intWidth >= 64 ? std::numeric_limits<int64_t>::min() : -int64_t(limit)) &
           widthMask(intWidth);
  return uint64_t(int64_t(value)) & widthMask(intWidth);
}

namespace {

template <class T> T unary(MathFunction f, T x) {
  switch (f) {
  case MathFunction::Sqrt: return std::sqrt(x);
  case MathFunction::Rsqrt: return T(1) / std::sqrt(x);
  case MathFunction::Sin: return std::sin(x);
  case MathFunction::Cos: return std::cos(x);
  case MathFunction::Tan: return std::tan(x);
  case MathFunction::Asin: return std::asin(x);
  case MathFunction::Acos: return std::acos(x);
  case MathFunction::Atan: return std::atan(x);
  case MathFunction::Sinh: return std::sinh(x);
  case MathFunction::Cosh: return std::cosh(x);
  case MathFunction::Tanh: return std::tanh(x);
  case MathFunction::Asinh: return std::asinh(x);
  case MathFunction::Acosh: return std::acosh(x);
  case MathFunction::Atanh: return std::atanh(x);
  case MathFunction::Exp: return std::exp(x);
  case MathFunction::Exp2: return std::exp2(x);
  case MathFunction::Exp10: return std::pow(T(10), x);
  case MathFunction::Expm1: return std::expm1(x);
  case MathFunction::Log: return std::log(x);
  case MathFunction::Log2: return std::log2(x);
  case MathFunction::Log10: return std::log10(x);
  case MathFunction::Log1p: return std::log1p(x);
  case MathFunction::Fabs: return std::fabs(x);
  case MathFunction::Floor: return std::floor(x);
  case MathFunction::Ceil: return std::ceil(x);
  case MathFunction::Trunc: return std::trunc(x);
  case MathFunction::Round: return std::round(x);
  case MathFunction::Rint: return std::nearbyint(x);
  case MathFunction::NearbyInt: return std::nearbyint(x);
  case MathFunction::Cbrt: return std::cbrt(x);
  case MathFunction::Rcbrt: return T(1) / std::cbrt(x);
  case MathFunction::Erf: return std::erf(x);
  case MathFunction::Erfc: return std::erfc(x);
  case MathFunction::Lgamma: return std::lgamma(x);
  case MathFunction::Tgamma: return std::tgamma(x);
  case MathFunction::Saturate: return std::isnan(x) ? T(0) : std::fmin(std::fmax(x, T(0)), T(1));
  case MathFunction::Logb: return std::logb(x);
  case MathFunction::Rcp: return T(1) / x;
  default: return std::numeric_limits<T>::quiet_NaN();
  }
}

template <class T> T binary(MathFunction f, T x, T y) {
  switch (f) {
  case MathFunction::Pow: return std::pow(x, y);
  case MathFunction::Atan2: return std::atan2(x, y);
  case MathFunction::Fmin: return std::fmin(x, y);
  case MathFunction::Fmax: return std::fmax(x, y);
  case MathFunction::Fmod: return std::fmod(x, y);
  case MathFunction::Remainder: return std::remainder(x, y);
  case MathFunction::Copysign: return std::copysign(x, y);
  case MathFunction::Hypot: return std::hypot(x, y);
  case MathFunction::Fdim: return std::fdim(x, y);
  case MathFunction::Ldexp:
  case MathFunction::Scalbn: return std::ldexp(x, int(y));
  case MathFunction::NextAfter: return std::nextafter(x, y);
  default: return std::numeric_limits<T>::quiet_NaN();
  }
}

bool isPredicateFunction(MathFunction f) {
  return f == MathFunction::Signbit || f == MathFunction::IsNan || f == MathFunction::IsInf ||
         f == MathFunction::IsFinite || f == MathFunction::Ilogb;
}

} // namespace

uint64_t mathUnary(MathFunction f, uint64_t a, unsigned sourceWidth, unsigned resultWidth) {
  double x = floatBitsToDouble(a, sourceWidth);
  if (isPredicateFunction(f)) {
    int64_t value = 0;
    switch (f) {
    case MathFunction::Signbit: value = std::signbit(x); break;
    case MathFunction::IsNan: value = std::isnan(x); break;
    case MathFunction::IsInf: value = std::isinf(x); break;
    case MathFunction::IsFinite: value = std::isfinite(x); break;
    default: value = std::ilogb(x); break;
    }
    return uint64_t(value) & widthMask(resultWidth);
  }
  if (sourceWidth == 64)
    return doubleToFloatBits(unary<double>(f, x), resultWidth);
  return doubleToFloatBits(unary<float>(f, float(x)), resultWidth);
}

uint64_t mathBinary(MathFunction f, uint64_t a, uint64_t b, unsigned width) {
  double x = floatBitsToDouble(a, width), y = floatBitsToDouble(b, width);
  if (width == 64)
    return doubleToFloatBits(binary<double>(f, x, y), 64);
  return doubleToFloatBits(binary<float>(f, float(x), float(y)), width);
}

uint64_t fusedMultiplyAdd(uint64_t a, uint64_t b, uint64_t c, unsigned width) {
  if (width == 64)
    return doubleToFloatBits(std::fma(floatBitsToDouble(a, 64), floatBitsToDouble(b, 64),
                                      floatBitsToDouble(c, 64)),
                             64);
  float r = std::fma(float(floatBitsToDouble(a, width)), float(floatBitsToDouble(b, width)),
                     float(floatBitsToDouble(c, width)));
  return doubleToFloatBits(r, width);
}

namespace {
template <class T> T arithmetic(ir::Op op, T x, T y) {
  switch (op) {
  case ir::Op::FAdd: return x + y;
  case ir::Op::FSub: return x - y;
  case ir::Op::FMul: return x * y;
  case ir::Op::FDiv: return x / y;
  case ir::Op::FRem: return std::fmod(x, y);
  default: return -x; // FNeg
  }
}
} // namespace

uint64_t floatArithmetic(ir::Op op, uint64_t a, uint64_t b, unsigned width) {
  if (width == 64)
    return std::bit_cast<uint64_t>(
        arithmetic<double>(op, std::bit_cast<double>(a), std::bit_cast<double>(b)));
  if (width == 32) {
    float result =
        arithmetic<float>(op, std::bit_cast<float>(uint32_t(a)), std::bit_cast<float>(uint32_t(b)));
    // Negation flips the sign bit, NaN or not.
    return op == ir::Op::FNeg ? std::bit_cast<uint32_t>(result) : floatResultBits(result);
  }
  return floatToHalf(arithmetic<float>(op, halfToFloat(uint16_t(a)), halfToFloat(uint16_t(b))));
}

namespace {
int hostRounding(ir::RoundingMode mode) {
  switch (mode) {
  case ir::RoundingMode::TowardZero:
    return FE_TOWARDZERO;
  case ir::RoundingMode::Up:
    return FE_UPWARD;
  case ir::RoundingMode::Down:
    return FE_DOWNWARD;
  case ir::RoundingMode::Nearest:
    break;
  }
  return FE_TONEAREST;
}

// `compute` of the floats of `width` (32 or 64) whose bits are a, b and c,
// as bits. The operands are read from volatile memory and the result written
// to it, so the compiler computes them where called: inside the
// HostRounding, between its two calls that set the rounding.
template <class T, class Compute>
uint64_t roundedAs(uint64_t a, uint64_t b, uint64_t c, Compute compute) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  volatile T x = std::bit_cast<T>(Bits(a)), y = std::bit_cast<T>(Bits(b)),
             z = std::bit_cast<T>(Bits(c));
  volatile T result = compute(T(x), T(y), T(z));
  if constexpr (sizeof(T) == 4)
    return floatResultBits(result);
  else
    return std::bit_cast<uint64_t>(T(result));
}
template <class Compute>
uint64_t roundedBits(unsigned width, uint64_t a, uint64_t b, uint64_t c, Compute compute) {
  return width == 64 ? roundedAs<double>(a, b, c, compute) : roundedAs<float>(a, b, c, compute);
}
} // namespace

HostRounding::HostRounding(ir::RoundingMode mode) : saved_(std::fegetround()) {
  std::fesetround(hostRounding(mode));
}

HostRounding::~HostRounding() { std::fesetround(saved_); }

uint64_t floatArithmeticRounded(ir::Op op, uint64_t a, uint64_t b, unsigned width) {
  if (width != 32 && width != 64)
    return floatArithmetic(op, a, b, width); // half: to nearest
  return roundedBits(width, a, b, 0,
                     [op](auto x, auto y, auto) { return arithmetic<decltype(x)>(op, x, y); });
}

uint64_t fusedMultiplyAddRounded(uint64_t a, uint64_t b, uint64_t c, unsigned width) {
  if (width != 32 && width != 64)
    return fusedMultiplyAdd(a, b, c, width); // half: to nearest
  return roundedBits(width, a, b, c, [](auto x, auto y, auto z) { return std::fma(x, y, z); });
}

uint64_t mathUnaryRounded(MathFunction f, uint64_t a, unsigned width) {
  if (width != 32 && width != 64)
    return mathUnary(f, a, width, width); // half: to nearest
  if (f == MathFunction::Rcp)             // one rounding of 1 / a
    return roundedBits(width, a, 0, 0, [](auto x, auto, auto) { return decltype(x)(1) / x; });
  return roundedBits(width, a, 0, 0, [](auto x, auto, auto) { return std::sqrt(x); });
}

bool floatCompare(uint8_t predicate, uint64_t a, uint64_t b, unsigned width) {
  // LLVM's FCmp encoding: bit 0 equal, bit 1 greater, bit 2 less, bit 3 unordered.
  double x = floatBitsToDouble(a, width), y = floatBitsToDouble(b, width);
  unsigned outcome = (std::isnan(x) || std::isnan(y)) ? 8u : x == y ? 1u : x > y ? 2u : 4u;
  return (predicate & outcome) != 0;
}

uint64_t intUnary(IntFunction f, uint64_t a, unsigned width) {
  uint64_t value = a & widthMask(width);
  switch (f) {
  case IntFunction::Popc:
    return uint64_t(std::popcount(value));
  case IntFunction::Clz:
    return value == 0 ? width : uint64_t(std::countl_zero(value) - (64 - int(width)));
  case IntFunction::Ctz:
    return value == 0 ? width : uint64_t(std::countr_zero(value));
  case IntFunction::Ffs:
    return value == 0 ? 0 : uint64_t(std::countr_zero(value) + 1);
  case IntFunction::Bswap: {
    uint64_t swapped = 0;
    for (unsigned i = 0; i < width / 8; ++i)
      swapped |= ((value >> (8 * i)) & 0xff) << (width - 8 - 8 * i);
    return swapped;
  }
  case IntFunction::Brev: {
    uint64_t reversed = 0;
    for (unsigned i = 0; i < width; ++i)
      if (value & (uint64_t(1) << i))
        reversed |= uint64_t(1) << (width - 1 - i);
    return reversed;
  }
  case IntFunction::Abs: {
    int64_t s = signExtend(value, width);
    return (s < 0 ? uint64_t(0) - uint64_t(s) : uint64_t(s)) & widthMask(width);
  }
  default:
    return 0;
  }
}

void intBinary(IntFunction f, uint64_t a, uint64_t b, uint64_t c, unsigned width,
               uint64_t &result, uint64_t &overflow) {
  const uint64_t mask = widthMask(width);
  uint64_t ua = a & mask, ub = b & mask;
  int64_t sa = signExtend(ua, width), sb = signExtend(ub, width);
  overflow = 0;
  auto wrap = [&](uint64_t v) { return v & mask; };
  const int64_t smax = width >= 64 ? std::numeric_limits<int64_t>::max()
                                   : int64_t((uint64_t(1) << (width - 1)) - 1);
  const int64_t smin = -smax - 1;
  switch (f) {
  case IntFunction::SMin: result = wrap(uint64_t(std::min(sa, sb))); return;
  case IntFunction::SMax: result = wrap(uint64_t(std::max(sa, sb))); return;
  case IntFunction::UMin: result = std::min(ua, ub); return;
  case IntFunction::UMax: result = std::max(ua, ub); return;
  case IntFunction::MulHi:
    result = wrap(uint64_t((__int128(sa) * __int128(sb)) >> width));
    return;
  case IntFunction::UMulHi:
    result = wrap(uint64_t((unsigned __int128)(ua) * ub >> width));
    return;
  case IntFunction::Mul24:
    result = wrap(uint64_t(signExtend(ua & 0xffffff, 24) * signExtend(ub & 0xffffff, 24)));
    return;
  case IntFunction::UMul24:
    result = wrap((ua & 0xffffff) * (ub & 0xffffff));
    return;
  case IntFunction::Sad:
    // Unsigned differences: |INT64_MIN - 1| must not overflow in the host.
    result = wrap((sa > sb ? uint64_t(sa) - uint64_t(sb) : uint64_t(sb) - uint64_t(sa)) + c);
    return;
  case IntFunction::USad:
    result = wrap((ua > ub ? ua - ub : ub - ua) + c);
    return;
  case IntFunction::HAdd: result = wrap(uint64_t((__int128(sa) + sb) >> 1)); return;
  case IntFunction::UHAdd: result = wrap(uint64_t(((unsigned __int128)ua + ub) >> 1)); return;
  case IntFunction::RHAdd: result = wrap(uint64_t((__int128(sa) + sb + 1) >> 1)); return;
  case IntFunction::URHAdd: result = wrap(uint64_t(((unsigned __int128)ua + ub + 1) >> 1)); return;
  case IntFunction::UAddO:
    result = wrap(ua + ub);
    overflow = result < ua;
    return;
  case IntFunction::SAddO: {
    __int128 r = __int128(sa) + sb;
    result = wrap(uint64_t(r));
    overflow = r > smax || r < smin;
    return;
  }
  case IntFunction::USubO:
    result = wrap(ua - ub);
    overflow = ub > ua;
    return;
  case IntFunction::SSubO: {
    __int128 r = __int128(sa) - sb;
    result = wrap(uint64_t(r));
    overflow = r > smax || r < smin;
    return;
  }
  case IntFunction::UMulO: {
    unsigned __int128 r = (unsigned __int128)ua * ub;
    result = wrap(uint64_t(r));
    overflow = (r >> width) != 0;
    return;
  }
  case IntFunction::SMulO: {
    __int128 r = __int128(sa) * sb;
    result = wrap(uint64_t(r));
    overflow = r > smax || r < smin;
    return;
  }
  case IntFunction::UAddSat: {
    uint64_t r = wrap(ua + ub);
    result = r < ua ? mask : r;
    return;
  }
  case IntFunction::SAddSat: {
    __int128 r = __int128(sa) + sb;
    result = wrap(uint64_t(r > smax ? smax : r < smin ? smin : int64_t(r)));
    return;
  }
  case IntFunction::USubSat: result = ub > ua ? 0 : ua - ub; return;
  case IntFunction::SSubSat: {
    __int128 r = __int128(sa) - sb;
    result = wrap(uint64_t(r > smax ? smax : r < smin ? smin : int64_t(r)));
    return;
  }
  default:
    result = 0;
    return;
  }
}

} // namespace simulee::interp
