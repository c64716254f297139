// What the analysis of one kernel concluded (DESIGN.md, "Verdicts"): clean
// only with judged launches; inconclusive when every launch was skipped, with
// the reasons counted; error when it could not be analysed at all. Computed
// by session/, shown by report/ and the CLI's exit status.
#pragma once

#include "detect/Finding.h"

#include <cstdint>
#include <string>
#include <vector>

namespace simulee::detect {

// NotLaunched: the file's host code never launches the kernel (it launches
// others, or launches this one only in code the preprocessor leaves out);
// searched only under --explore, and never a failure.
enum class Verdict : uint8_t { Clean, Findings, Inconclusive, Error, NotLaunched };

// "clean", "findings", "inconclusive", "error", "not launched"
const char *verdictName(Verdict verdict);

// The launches behind a verdict. Judged launches count; the others were
// skipped for the reason their counter names.
struct LaunchCounts {
  uint64_t judged = 0;
  uint64_t outOfBounds = 0;    // broke a fixed size contract (a static array, a fixed size)
  uint64_t tooCostly = 0;      // over the cost cap
  // Of those, launches of the program (every value its call site's or the
  // user's) that their time budget cut short, judged for the blocks they ran
  // and showing a bug there (FindingCollector::addPartialLaunch): not skipped.
  uint64_t cutShort = 0;
  uint64_t nonTerminating = 0; // over the per-thread instruction budget
  uint64_t failed = 0;         // any other error of the simulation
  // Judged launches with a searched size of 0 or less (outside CUDA's
  // conventions, and perhaps doing no work): with nothing found, a verdict
  // resting only on them is inconclusive, never clean.
  uint64_t unconventional = 0;
  // `simulee exec`'s repeated launches run with cheaper checks (out of
  // bounds, undefined behaviour, barrier divergence; no races): they ran,
  // but are not among the judged.
  uint64_t lightlyChecked = 0;
  // Blocks of the judged launches, and how many of them had their shared
  // memory modelled: the others repeated an earlier block's shared-memory
  // behaviour exactly (memmodel/RepresentativeBlocks.h; --all-blocks models
  // every one).
  uint64_t blocks = 0;
  uint64_t blocksModelled = 0;
  // Thread-instructions of the launches that ran to their end, and how many
  // of them compiled code ran (interp::Engine): the verdict names the engine.
  uint64_t threadInstrs = 0;
  uint64_t compiledThreadInstrs = 0;

  uint64_t skipped() const {
    return outOfBounds + tooCostly - cutShort + nonTerminating + failed;
  }
  uint64_t simulated() const { return judged + cutShort + skipped(); }
  LaunchCounts &operator+=(const LaunchCounts &other) {
    judged += other.judged;
    outOfBounds += other.outOfBounds;
    tooCostly += other.tooCostly;
    cutShort += other.cutShort;
    nonTerminating += other.nonTerminating;
    failed += other.failed;
    unconventional += other.unconventional;
    lightlyChecked += other.lightlyChecked;
    blocks += other.blocks;
    blocksModelled += other.blocksModelled;
    threadInstrs += other.threadInstrs;
    compiledThreadInstrs += other.compiledThreadInstrs;
    return *this;
  }
};

// "12 out of bounds, 3 too costly" (the non-zero reasons), or "" when none.
std::string skippedReasons(const LaunchCounts &counts);

// Findings when some finding is a bug, else clean if a launch inside CUDA's
// conventions was judged, else inconclusive.
Verdict verdictOf(const std::vector<Finding> &findings, const LaunchCounts &counts);

} // namespace simulee::detect
