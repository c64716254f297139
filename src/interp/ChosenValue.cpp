#include "interp/ChosenValue.h"

#include "interp/MathLibrary.h"

#include <algorithm>
#include <bit>

namespace simulee::interp {
namespace {

// splitmix64's finaliser: every input bit moves every output bit.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

} // namespace

uint64_t launchHash(const LaunchConfig &config, const std::vector<ArgumentValue> &args) {
  uint64_t hash = 0;
  auto add = [&](uint64_t value) { hash = mix(hash ^ value); };
  for (const Dim3 &dims : {config.grid, config.block}) {
    add(dims.x);
    add(dims.y);
    add(dims.z);
  }
  add(config.dynamicSharedBytes);
  for (const ArgumentValue &arg : args) {
    add(arg.bits);
    add(arg.bytes.size());
    for (size_t i = 0; i < arg.bytes.size(); i += 8) {
      uint64_t word = 0;
      for (size_t k = i; k < std::min(i + 8, arg.bytes.size()); ++k)
        word |= uint64_t(arg.bytes[k]) << (8 * (k - i));
      add(word);
    }
  }
  return hash;
}

uint64_t chosenValue(uint64_t hash, uint32_t instructionId, unsigned widthBits, bool isFloat) {
  uint64_t random = mix(hash ^ (uint64_t(instructionId) << 32 | 0x5eed));
  if (!isFloat)
    return widthBits == 1 ? random & 1 : random % 100;
  double unit = double(random >> 11) / double(uint64_t(1) << 53); // [0, 1)
  if (widthBits == 64)
    return std::bit_cast<uint64_t>(unit);
  if (widthBits == 32)
    return std::bit_cast<uint32_t>(float(unit));
  return floatToHalf(float(unit));
}

} // namespace simulee::interp
