// How exec's reports write a scalar kernel argument: as the program's own
// value ("8192", "-3", "0.5"), from the raw bits of the parameter's type.
#pragma once

#include "ir/Program.h"

#include <cstdint>
#include <string>

namespace simulee::runtime {

std::string scalarText(const ir::ParamInfo &param, uint64_t bits);

// `bits` of a `width`-bit integer read as signed.
int64_t signExtended(uint64_t bits, uint32_t width);

} // namespace simulee::runtime
