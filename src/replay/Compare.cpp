#include "replay/Compare.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace simulee::replay {
namespace {

// Maps an IEEE value's bits onto a line where neighbouring values are
// neighbouring integers: negatives mirrored below zero, -0 onto +0.
int64_t orderedBits(uint64_t bits, uint32_t bytes) {
  uint32_t width = bytes * 8;
  uint64_t signBit = uint64_t(1) << (width - 1);
  uint64_t magnitude = bits & (signBit - 1);
  return (bits & signBit) ? -int64_t(magnitude) : int64_t(magnitude);
}

bool isNan(uint64_t bits, uint32_t bytes) {
  switch (bytes) {
  case 2:
    return (bits & 0x7c00) == 0x7c00 && (bits & 0x03ff);
  case 4:
    return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu);
  default:
    return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
           (bits & 0x000fffffffffffffull);
  }
}

uint64_t load(const uint8_t *at, uint32_t bytes) {
  uint64_t value = 0;
  std::memcpy(&value, at, bytes);
  return value;
}

std::string formatElement(const uint8_t *at, uint32_t bytes, bool floating) {
  char text[64];
  uint64_t bits = load(at, bytes);
  if (floating && bytes == 4) {
    float value;
    std::memcpy(&value, at, 4);
    std::snprintf(text, sizeof text, "%.9g", double(value));
  } else if (floating && bytes == 8) {
    double value;
    std::memcpy(&value, at, 8);
    std::snprintf(text, sizeof text, "%.17g", value);
  } else {
    std::snprintf(text, sizeof text, "0x%0*llx", int(bytes * 2),
                  static_cast<unsigned long long>(bits));
  }
  return text;
}

} // namespace

uint64_t ulpDistance(uint64_t aBits, uint64_t bBits, uint32_t bytes) {
  bool aNan = isNan(aBits, bytes), bNan = isNan(bBits, bytes);
  if (aNan || bNan)
    return aNan && bNan ? 0 : UINT64_MAX;
  int64_t a = orderedBits(aBits, bytes), b = orderedBits(bBits, bytes);
  return a > b ? uint64_t(a - b) : uint64_t(b - a);
}

BufferComparison compareBuffer(size_t param, const ir::ParamInfo &info,
                               const std::vector<uint8_t> &simulated,
                               const std::vector<std::vector<uint8_t>> &runs, uint64_t ulpBound) {
  BufferComparison result;
  result.param = param;
  result.name = info.name;
  result.sizeBytes = simulated.size();
  result.runs = unsigned(runs.size());
  uint32_t elementBytes = info.elementBytes ? info.elementBytes : 1;
  result.floating = info.elementKind == ir::ValueKind::Float &&
                    (elementBytes == 2 || elementBytes == 4 || elementBytes == 8) &&
                    simulated.size() % elementBytes == 0;
  result.elementBytes =
      result.floating || (info.elementKind == ir::ValueKind::Int && elementBytes <= 8 &&
                          simulated.size() % elementBytes == 0)
          ? elementBytes
          : 1;
  if (runs.empty())
    return result;

  const std::vector<uint8_t> &first = runs.front();
  for (size_t r = 1; r < runs.size(); ++r) {
    if (runs[r] == first)
      continue;
    if (result.runsDifferingFromFirst++ == 0) {
      auto [a, b] = std::mismatch(first.begin(), first.end(), runs[r].begin(), runs[r].end());
      result.firstRunDifferenceOffset = uint64_t(a - first.begin());
    }
  }

  uint32_t unit = result.elementBytes;
  size_t common = std::min(first.size(), simulated.size());
  if (first.size() != simulated.size())
    result.elementsDifferingFromSimulation +=
        (std::max(first.size(), simulated.size()) - common) / unit;
  for (size_t offset = 0; offset + unit <= common; offset += unit) {
    const uint8_t *gpu = first.data() + offset, *sim = simulated.data() + offset;
    if (std::memcmp(gpu, sim, unit) == 0)
      continue;
    if (result.floating) {
      uint64_t distance = ulpDistance(load(gpu, unit), load(sim, unit), unit);
      result.maxUlp = std::max(result.maxUlp, distance);
      if (distance <= ulpBound)
        continue;
    }
    if (result.elementsDifferingFromSimulation++ == 0) {
      result.firstSimulationDifferenceOffset = offset;
      result.simulatedExample = formatElement(sim, unit, result.floating);
      result.gpuExample = formatElement(gpu, unit, result.floating);
    }
  }
  return result;
}

} // namespace simulee::replay
