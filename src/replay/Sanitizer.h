// compute-sanitizer's reports, read from its text output, and matched to
// simulee's findings by source line. Three tools:
//   racecheck (shared-memory hazards), in either report mode:
//     ========= Error: Race reported between Write access at 0x1a0 in /k.cu:12:f(int*)
//     =========     and Read access at 0x1f0 in /k.cu:14:f(int*) [24 hazards]
//     ========= Error: Potential RAW hazard detected at __shared__ 0x8 in block (0,0,0) :
//     =========     Write Thread (1,0,0) at 0x1a0 in /k.cu:12:f(int*)
//     =========     Read Thread (0,0,0) at 0x1f0 in /k.cu:14:f(int*)
//   synccheck (barrier misuse):
//     ========= Barrier error detected. Divergent thread(s) in warp
//     =========     at 0x2d0 in /k.cu:9:f(int*)
//     =========     by thread (3,0,0) in block (0,0,0)
//   memcheck (out-of-bounds accesses):
//     ========= Invalid __global__ read of size 4 bytes
//     =========     at 0x70 in /k.cu:6:f(float const*, float*, int)
//     =========     by thread (36,0,0) in block (1,0,0)
#pragma once

#include "detect/Finding.h"
#include "ir/Program.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simulee::replay {

struct SourceLine {
  std::string file; // as the sanitizer printed it (often an absolute path)
  uint32_t line = 0;
  bool operator==(const SourceLine &) const = default;
};

struct Hazard {
  enum class Tool : uint8_t { Racecheck, Synccheck, Memcheck };
  Tool tool = Tool::Racecheck;
  std::string kind;  // "RAW", "WAR", "WAW", "race" (analysis mode), "divergent warp" ...
  bool error = true; // racecheck's "Warning" hazards are false
  // racecheck: the two accesses; synccheck: the barrier; memcheck: the access.
  SourceLine first, second;
  std::string text; // the report's first line, without the ========= prefix
};

std::vector<Hazard> parseRacecheck(std::string_view output);
std::vector<Hazard> parseSynccheck(std::string_view output);
std::vector<Hazard> parseMemcheck(std::string_view output);

// Whether `hazard` is the sanitizer's view of `finding`: a data race whose
// two source lines are the hazard's two lines (in either order, same file
// name), a barrier divergence whose barrier line is the hazard's line, or an
// out-of-bounds access on the line memcheck reports.
bool hazardMatches(const Hazard &hazard, const detect::Finding &finding,
                   const ir::Program &program);

const char *toolName(Hazard::Tool tool); // "racecheck", "synccheck", "memcheck"

} // namespace simulee::replay
