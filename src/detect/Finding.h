// What the detectors report: one finding per (kind, space, instruction pair),
// with an example address, an example pair of threads, and the launch that
// exposed it. Consumed by report/ (text, JSON, SARIF), evo/ and the CLI.
#pragma once

#include "interp/Events.h"
#include "interp/Launch.h"

#include <cstdint>
#include <optional>
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
  UninitializedRead, // a read of shared bytes no thread of the block had written
  UndefinedBehavior, // shift >= width, division by zero, null/wild/misaligned pointer, ...
  AssertionFailed,   // a thread's `assert` failed (`simulee exec`); detail = its condition
  AtomicityViolation, // a pair meant as one step with another thread's access between
};
// The number of kinds (the report's rule table has one rule each).
inline constexpr unsigned kFindingKinds = 9;

const char *findingKindName(FindingKind kind); // "data-race", "redundant-barrier", ...
// A byte offset into a buffer as a signed number: an index below the
// buffer's start wraps to an offset past 2^63, and reads "-92", not
// "18446744073709551524".
std::string byteOffsetText(uint64_t offset);
bool isBug(FindingKind kind);                  // false for notes (UnreachedBarrier)

// Races whose outcome cannot depend on the order: reported as notes unless
// --strict (DESIGN.md, "Same-value race").
// Findings seen only in searched launches outside the conventions CUDA code
// assumes (DESIGN.md, "Launch domain and provenance") are notes too.
enum class Benign : uint8_t {
  No,
  SameValue,      // write-write of the same bytes with the same value
  Unconventional, // only in launches outside CUDA's conventions (a 36-thread block)
};
const char *benignName(Benign benign); // "same-value", "unconventional"; nullptr for No

// Where the host code launches a kernel: a call site (host/CallSite.h).
struct LaunchOrigin {
  std::string file;
  uint32_t line = 0;
  bool operator==(const LaunchOrigin &) const = default;
};

// Where a launch came from (DESIGN.md, "Launch domain and provenance"):
// one the program made (`simulee exec`), one whose every setting and scalar
// a call site gives (simulee chose only buffer contents), a call site with
// free values searched inside what it allows, a search with no call site,
// or one the user gave in full (`simulee run`).
enum class Provenance : uint8_t { Free, Site, SiteSearch, Program, User };

// "free", "site", "site+search", "program", "user".
const char *provenanceName(Provenance provenance);

// The launch settings that exposed a finding, printable and replayable.
struct LaunchRecord {
  interp::Dim3 grid;
  interp::Dim3 block;
  uint32_t dynamicSharedBytes = 0;
  // Parameter name -> value as the user would write it on the command line
  // ("n=100", "in=random:4096").
  std::vector<std::pair<std::string, std::string>> args;
  uint64_t seed = 0;
  // The call site whose launch this is; none when the search was free.
  std::optional<LaunchOrigin> origin;
  Provenance provenance = Provenance::Free;
  // `simulee exec`: which launch of the kernel the program made (1-based);
  // 0 for launches simulee chose.
  uint32_t ordinal = 0;
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

// A change to the kernel's source that removes a finding, proven by applying
// it to the IR and re-simulating (session/Repair.h): in every re-simulated
// launch the finding is gone and no finding the analysis did not have
// appears.
struct Repair {
  // "insert-barrier", "insert-barrier-in-loop", "make-atomic",
  // "fuse-read-modify-write", "compare-and-swap-loop", "remove-barrier"
  std::string kind;
  std::string description; // "insert __syncthreads() before line 14"
  ir::SourceLocation at;   // the line the edit inserts before, or its first line
  std::string inserted;    // the statement inserted before `at` ("__syncthreads();"), or ""
  std::vector<ir::SourceLocation> replaced; // lines the edit deletes or rewrites
  std::vector<LaunchRecord> launches;       // re-simulated, each free of the finding
};

struct Finding {
  FindingKind kind = FindingKind::DataRace;
  interp::MemSpace space = interp::MemSpace::Global;
  std::string variable;      // "tile", "out", "" when not about memory
  uint32_t buffer = 0;       // AccessEvent::buffer in `space`: resolves `variable`
  uint64_t exampleOffset = 0; // byte offset in `variable`
  std::vector<Site> sites;    // races: the two accesses; divergence: barrier + other;
                              // atomicity violations: the pair, then the one between
  std::string detail;         // one line of extra explanation
  // Atomicity violations: the pattern (ir::atomicityPatternName,
  // "check-then-act"); empty for other kinds.
  std::string subkind;
  LaunchRecord launch;
  Benign benign = Benign::No;
  // How often it was seen: launches that showed it, summed over the
  // instruction pairs merged into it (same kind and source lines).
  uint64_t occurrences = 1;
  // Redundant barriers: the other barriers of a group of which only one can
  // go (sites[0] is one of them); empty for a barrier that can go alone.
  std::vector<uint32_t> groupBarriers;
  // Proven repairs (--repair), most direct first; empty when none was asked
  // for or none was proven.
  std::vector<Repair> repairs;
};

// A bug to warn about: a bug kind, not benign. Notes (unreached barriers,
// same-value races) are not.
bool isBug(const Finding &finding);

// A thread's failed `assert` in `launch`: its one site is the assertion,
// its detail the condition's text.
Finding assertionFinding(const interp::AssertionEvent &event, const LaunchRecord &launch);

// How many of its sites identify a finding (the rest are an example): an
// atomicity violation is its pair, whatever access fell between.
size_t identifyingSites(const Finding &finding);

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
