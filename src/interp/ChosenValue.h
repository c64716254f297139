// The values calls of functions with no body return (ir::Op::ChosenValue):
// chosen per launch, deterministic in the launch's settings and arguments
// (so in the seed that filled its buffers), different per call site.
#pragma once

#include "interp/Launch.h"

#include <cstdint>
#include <vector>

namespace simulee::interp {

// A hash of everything that defines a launch: grid, block, shared bytes, and
// every argument (scalar bits, buffer contents).
uint64_t launchHash(const LaunchConfig &config, const std::vector<ArgumentValue> &args);

// The value call site `instructionId` returns under the launch `hash`:
// integers in 0..99 (booleans 0 or 1), floating point in [0, 1), as the bits
// of a `widthBits`-wide value.
uint64_t chosenValue(uint64_t hash, uint32_t instructionId, unsigned widthBits, bool isFloat);

} // namespace simulee::interp
