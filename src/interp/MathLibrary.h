// Native implementations of the math the interpreter runs: float formats,
// the libdevice / LLVM math functions, and integer bit functions. Values are
// raw bits in 64-bit slots; `width` says how to read them.
#pragma once

#include "ir/Opcodes.h"

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

double floatBitsToDouble(uint64_t bits, unsigned width); // width 16, 32 or 64
uint64_t doubleToFloatBits(double value, unsigned width);

// Saturating conversions (C++ leaves out-of-range conversions undefined).
uint64_t floatToUnsigned(double value, unsigned intWidth);
uint64_t floatToSigned(double value, unsigned intWidth);

uint64_t mathUnary(ir::MathFunction f, uint64_t a, unsigned sourceWidth, unsigned resultWidth);
uint64_t mathBinary(ir::MathFunction f, uint64_t a, uint64_t b, unsigned width);
uint64_t fusedMultiplyAdd(uint64_t a, uint64_t b, uint64_t c, unsigned width);
uint64_t floatArithmetic(ir::Op op, uint64_t a, uint64_t b, unsigned width);
bool floatCompare(uint8_t predicate, uint64_t a, uint64_t b, unsigned width);

uint64_t intUnary(ir::IntFunction f, uint64_t a, unsigned width);
// Writes the result and, for the *.with.overflow functions, the overflow bit.
void intBinary(ir::IntFunction f, uint64_t a, uint64_t b, uint64_t c, unsigned width,
               uint64_t &result, uint64_t &overflow);

} // namespace simulee::interp
