#include "runtime/ArgumentText.h"

#include <cstdio>
#include <cstring>

namespace simulee::runtime {

int64_t signExtended(uint64_t bits, uint32_t width) {
  if (width == 0 || width >= 64)
    return int64_t(bits);
  return int64_t(bits << (64 - width)) >> (64 - width);
}

std::string scalarText(const ir::ParamInfo &param, uint64_t bits) {
  char text[64];
  if (param.kind == ir::ValueKind::Float && param.bits == 32) {
    float value;
    std::memcpy(&value, &bits, 4);
    std::snprintf(text, sizeof text, "%.9g", value);
  } else if (param.kind == ir::ValueKind::Float && param.bits == 64) {
    double value;
    std::memcpy(&value, &bits, 8);
    std::snprintf(text, sizeof text, "%.17g", value);
  } else if (param.isSigned && param.bits > 1) {
    std::snprintf(text, sizeof text, "%lld",
                  static_cast<long long>(signExtended(bits, param.bits)));
  } else {
    std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(bits));
  }
  return text;
}

} // namespace simulee::runtime
