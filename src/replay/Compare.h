// What the GPU's buffers say: whether a buffer came out differently from one
// run to the next (nondeterminism, the way a race shows) and whether it
// matches the simulation's final memory — bit for bit for integer and
// untyped data, within a bound in units in the last place for floats.
#pragma once

#include "ir/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace simulee::replay {

// Default float tolerance: CUDA's single-precision library functions are
// within 2-4 ulp of the correctly rounded result the host's libm is close to.
constexpr uint64_t kDefaultUlpBound = 4;

// Distance in units in the last place between two IEEE values of `bytes`
// width (2, 4 or 8): the number of representable values between them. Equal
// values, +0/-0 and two NaNs are 0 apart; a NaN and a number are maximally far.
uint64_t ulpDistance(uint64_t aBits, uint64_t bBits, uint32_t bytes);

struct BufferComparison {
  size_t param = 0;
  std::string name;
  bool floating = false;     // compared element-wise in ulp
  uint32_t elementBytes = 1; // the unit offsets are counted in
  uint64_t sizeBytes = 0;
  // Across runs.
  unsigned runs = 0;
  unsigned runsDifferingFromFirst = 0;
  uint64_t firstRunDifferenceOffset = 0; // byte offset of the first difference
  // Against the simulation (the first run).
  uint64_t elementsDifferingFromSimulation = 0; // beyond the bound for floats
  uint64_t firstSimulationDifferenceOffset = 0;
  uint64_t maxUlp = 0;          // floats: largest distance seen
  std::string simulatedExample; // the first differing element, both sides
  std::string gpuExample;

  bool variesAcrossRuns() const { return runsDifferingFromFirst > 0; }
  bool matchesSimulation() const { return elementsDifferingFromSimulation == 0; }
};

// Compares the buffer of parameter `param` (`simulated`: the simulation's
// final bytes; `runs`: the GPU's, one per run, at least one).
BufferComparison compareBuffer(size_t param, const ir::ParamInfo &info,
                               const std::vector<uint8_t> &simulated,
                               const std::vector<std::vector<uint8_t>> &runs, uint64_t ulpBound);

} // namespace simulee::replay
