// `simulee exec --search N`: after the program has run, each launch it made is
// searched around for N generations by evo's search, started from that launch
// (one parent, a normal and a Cauchy child per generation: grid and block
// axes the kernel or the launch uses moved by -1/0/+1, integer and float
// scalars by normal and Cauchy steps; pointers and structs stay the
// program's), the mutants simulated on copies of the memory the launch
// started from. A mutant that goes out of bounds where the real launch did
// not broke the program's size contract and is not judged. Findings no real
// launch showed are reported as found by the search, with the mutant's
// settings (provenance site+search).
#pragma once

#include "detect/Finding.h"
#include "interp/Launch.h"
#include "ir/Program.h"
#include "session/Analysis.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace simulee::runtime {

// A launch as the program made it, with the memory it started from.
struct RecordedLaunch {
  const ir::Program *program = nullptr;
  const ir::KernelInfo *kernel = nullptr;
  interp::LaunchConfig config;
  std::vector<interp::ArgumentValue> values;
  detect::LaunchRecord record;
  std::vector<std::optional<std::vector<uint8_t>>> allocations; // by BoundMemory index
  std::vector<std::vector<uint8_t>> globalVariables, constantVariables;
  double ratio = 1.0;        // the real launch's fitness
  uint64_t threadInstrs = 0; // its cost
  bool outOfBounds = false;  // the real launch itself went out of bounds
};

// Runs the search around `launch`; `onFindings` gets each judged mutant's
// findings (variables not yet named), with the mutant's launch record.
void searchAround(const RecordedLaunch &launch, uint32_t generations,
                  const session::AnalysisOptions &options,
                  const std::function<void(std::vector<detect::Finding>)> &onFindings);

} // namespace simulee::runtime
