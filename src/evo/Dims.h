// Grid or block dimensions as the search proposes them. A plain value of evo's
// own, so the search needs no interpreter header (the session converts it).
#pragma once

#include <cstdint>
#include <string>

namespace simulee::evo {

struct Dims {
  uint32_t x = 1, y = 1, z = 1;

  uint64_t count() const { return uint64_t(x) * y * z; }
  uint32_t operator[](unsigned axis) const { return axis == 0 ? x : axis == 1 ? y : z; }
  uint32_t &operator[](unsigned axis) { return axis == 0 ? x : axis == 1 ? y : z; }
  bool operator==(const Dims &) const = default;
};

// "x,y,z": the syntax of the CLI's --grid and --block.
std::string formatDims(const Dims &dims);

} // namespace simulee::evo
