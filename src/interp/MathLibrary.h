// Native implementations of the math the interpreter runs: float formats,
// the libdevice / LLVM math functions, and integer bit functions. Values are
// raw bits in 64-bit slots; `width` says how to read them.
#pragma once

#include "ir/Opcodes.h"

#include <bit>
#include <cstdint>

namespace simulee::interp {

constexpr uint64_t widthMask(unsigned width) {
  return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}
constexpr int64_t signExtend(uint64_t value, unsigned width) {
  return width >= 64 ? int64_t(value) : int64_t(value << (64 - width)) >> (64 - width);
}

float halfToFloat(uint16_t half);
uint16_t floatToHalf(float value);

// A single-precision result as a GPU writes it: any NaN is the canonical
// quiet NaN 0x7fffffff (CUDA's floating-point standard: the result of an
// operation involving NaNs), never the host's propagated payload or x86's
// default 0xffc00000. Two lanes adding the same NaNs in either order get the
// same bits, as they do on the GPU.
constexpr uint32_t kCanonicalNan32 = 0x7fffffff;
inline uint32_t floatResultBits(float value) {
  return value != value ? kCanonicalNan32 : std::bit_cast<uint32_t>(value);
}

double floatBitsToDouble(uint64_t bits, unsigned width); // width 16, 32 or 64
// A computed result in the format of `width`: for 32, canonical NaN.
uint64_t doubleToFloatBits(double value, unsigned width);

// The integer `value` (its low `fromWidth` bits) as a float of `width` (32
// or 64), rounded in `mode`: __int2float_rz, __ull2double_ru ...
uint64_t intToFloatBits(uint64_t value, unsigned fromWidth, bool isSigned, unsigned width,
                        ir::RoundingMode mode);

// Saturating conversions (C++ leaves out-of-range conversions undefined).
uint64_t floatToUnsigned(double value, unsigned intWidth);
uint64_t floatToSigned(double value, unsigned intWidth);

uint64_t mathUnary(ir::MathFunction f, uint64_t a, unsigned sourceWidth, unsigned resultWidth);
uint64_t mathBinary(ir::MathFunction f, uint64_t a, uint64_t b, unsigned width);
uint64_t fusedMultiplyAdd(uint64_t a, uint64_t b, uint64_t c, unsigned width);
uint64_t floatArithmetic(ir::Op op, uint64_t a, uint64_t b, unsigned width);
// The host's floating-point rounding set to `mode` for the object's life
// (a warp's lanes of one instruction with a rounding direction: __dadd_rd,
// __fmul_ru, __fmaf_rz, __dsqrt_rd ...).
class HostRounding {
public:
  explicit HostRounding(ir::RoundingMode mode);
  ~HostRounding();
  HostRounding(const HostRounding &) = delete;
  HostRounding &operator=(const HostRounding &) = delete;

private:
  int saved_;
};
// FAdd, FSub, FMul, FDiv and Fma of floats of `width` 32 or 64, and Sqrt or
// Rcp (1 / a), in the host's rounding: called inside a HostRounding.
uint64_t floatArithmeticRounded(ir::Op op, uint64_t a, uint64_t b, unsigned width);
uint64_t fusedMultiplyAddRounded(uint64_t a, uint64_t b, uint64_t c, unsigned width);
uint64_t mathUnaryRounded(ir::MathFunction f, uint64_t a, unsigned width);
bool floatCompare(uint8_t predicate, uint64_t a, uint64_t b, unsigned width);

uint64_t intUnary(ir::IntFunction f, uint64_t a, unsigned width);
// Writes the result and, for the *.with.overflow functions, the overflow bit.
void intBinary(ir::IntFunction f, uint64_t a, uint64_t b, uint64_t c, unsigned width,
               uint64_t &result, uint64_t &overflow);

} // namespace simulee::interp
