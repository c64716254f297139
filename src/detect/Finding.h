// What the detectors report: one finding per (kind, space, instruction pair),
// with an example address, an example pair of threads, and the launch that
// exposed it. Consumed by report/ (text, JSON, SARIF), evo/ and the CLI.
#pragma once

#include "interp/Events.h"
#include "interp/Launch.h"

#include <cstdint>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

namespace simulee::detect {

enum class FindingKind : uint8_t {
  DataRace,
  RedundantBarrier,
  BarrierDivergence,
  OutOfBounds,
  UnreachedBarrier, // a note, not a bug: a barrier no simulated launch executed
  UndefinedBehavior, // shift >= width, division by zero, null/wild/misaligned pointer, ...
};

const char *findingKindName(FindingKind kind); // "data-race", "redundant-barrier", ...
bool isBug(FindingKind kind);                  // false for notes (UnreachedBarrier)

// The launch settings that exposed a finding, printable and replayable.
struct LaunchRecord {
  interp::Dim3 grid;
  interp::Dim3 block;
  uint32_t dynamicSharedBytes = 0;
  // Parameter name -> value as the user would write it on the command line
  // ("n=100", "in=random:4096").
  std::vector<std::pair<std::string, std::string>> args;
  uint64_t seed = 0;
};

// One side of a finding: an access (races, out-of-bounds) or a barrier /
// exit site (divergence, redundant barrier).
struct Site {
  uint32_t instruction = 0; // Program-wide instruction id
  interp::AccessKind action = interp::AccessKind::Read;
  bool isAccess = true;
  uint32_t thread = 0; // linear thread id in its block
  uint32_t block = 0;  // linear block id
};

struct Finding {
  FindingKind kind = FindingKind::DataRace;
  interp::MemSpace space = interp::MemSpace::Global;
  std::string variable;      // "tile", "out", "" when not about memory
  uint32_t buffer = 0;       // AccessEvent::buffer in `space`: resolves `variable`
  uint64_t exampleOffset = 0; // byte offset in `variable`
  std::vector<Site> sites;    // races: the two accesses; divergence: barrier + other
  std::string detail;         // one line of extra explanation
  LaunchRecord launch;
};

// The deduplication key: (kind, space, ordered instruction pair). For data
// races the pair is normalised (smaller instruction first: a race between two
// accesses has no direction); for barrier divergence it is (barrier, other);
// one-site findings repeat their instruction as `second`.
struct FindingKey {
  FindingKind kind;
  interp::MemSpace space;
  uint32_t first;
  uint32_t second;
  bool operator==(const FindingKey &) const = default;
  bool operator<(const FindingKey &o) const {
    return std::tie(kind, space, first, second) < std::tie(o.kind, o.space, o.first, o.second);
  }
};
FindingKey keyOf(const Finding &finding);

} // namespace simulee::detect
