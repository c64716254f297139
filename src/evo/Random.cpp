#include "evo/Random.h"

#include "support/Assert.h"

#include <cmath>
#include <numbers>

namespace simulee::evo {

double Random::uniform() {
  // The top 53 bits fill a double's mantissa exactly.
  return double(engine_() >> 11) * 0x1.0p-53;
}

int64_t Random::uniformInt(int64_t low, int64_t high) {
  SIMULEE_ASSERT(low <= high, "empty integer range");
  uint64_t span = uint64_t(high) - uint64_t(low) + 1;
  if (span == 0) // the whole 64-bit range
    return int64_t(engine_());
  // Multiply-shift maps 64 random bits onto [0, span) with negligible bias.
  uint64_t offset = uint64_t((unsigned __int128)engine_() * span >> 64);
  return int64_t(uint64_t(low) + offset);
}

double Random::normal() {
  // 1 - uniform() lies in (0, 1], so the logarithm is finite.
  double radius = std::sqrt(-2.0 * std::log(1.0 - uniform()));
  return radius * std::cos(2.0 * std::numbers::pi * uniform());
}

double Random::cauchy() {
  // Inverse CDF; u is kept off 0 so the tangent stays finite.
  double u = (double(engine_() >> 11) + 0.5) * 0x1.0p-53;
  return std::tan(std::numbers::pi * (u - 0.5));
}

} // namespace simulee::evo
