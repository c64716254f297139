#include "evo/Dims.h"

namespace simulee::evo {

std::string formatDims(const Dims &dims) {
  return std::to_string(dims.x) + "," + std::to_string(dims.y) + "," + std::to_string(dims.z);
}

} // namespace simulee::evo
