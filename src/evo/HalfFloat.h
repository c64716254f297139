// IEEE binary16 and bfloat16 conversions for `__half` kernel parameters, written out so
// they work with every compiler (_Float16 support varies by target).
#pragma once

#include <cstdint>

namespace simulee::evo {

// Round to nearest, ties to even; overflow gives infinity.
uint16_t toHalfBits(float value);
double fromHalfBits(uint16_t bits);
// bfloat16 (`__nv_bfloat16`): the float's upper half, rounded to nearest even.
uint16_t toBfloat16Bits(float value);

} // namespace simulee::evo
