// The CLI's commands as functions of plain option structs, so that main.cpp
// only parses words. Each returns the process exit code.
#pragma once

#include "ir/Loader.h"
#include "session/Analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace simulee::cli {

// Exit statuses (DESIGN.md, "Verdicts").
constexpr int kExitClean = 0;        // every kernel asked for was analysed and is clean
constexpr int kExitFindings = 1;     // some kernel has findings
constexpr int kExitError = 2;        // usage error, or nothing could be analysed
constexpr int kExitInconclusive = 3; // some kernel inconclusive or failed, nothing found

// Instructions per thread before a launch is non-terminating: analysis, and
// `simulee exec`, whose launches the program needs whole.
constexpr uint64_t kDefaultBudgetInstrs = uint64_t(1) << 20;
constexpr uint64_t kDefaultExecBudgetInstrs = uint64_t(1) << 32;

// Options every command takes, before or after the command and the file.
struct CommonOptions {
  std::string format = "text";
  std::string output; // report file; empty = standard output
  std::string record = "auto";
  bool lockstep = false;           // pre-Volta warp semantics
  bool independentThreads = false; // the default; the flag is accepted and changes nothing
  bool strict = false;   // same-value races are warnings
  bool repair = false;   // propose repairs and prove them by re-simulation (--repair)
  uint64_t budgetInstrs = 0; // per thread; 0 = the command's default (kDefault*BudgetInstrs)
  uint64_t maxCostInstrs = 0; // per searched launch; 0: the default (AnalysisOptions)
  double launchSeconds = 30; // per launch no search chose
  bool allBlocks = false;    // no untracked accesses, no repeated blocks unmodelled
  std::string engine = "auto"; // auto, interp or compiled (interp::Engine)
  uint32_t sharedBytes = 0;
  int optLevel = 0;
  std::vector<std::string> defines, includes;
  std::string cudaPath; // empty: the installation scripts/setup.sh assembled
  std::vector<std::string> linkFiles; // --link: linked into the analysed file
  int color = -1; // -1: when stdout is a terminal
  bool quiet = false;
  unsigned jobs = 0; // --jobs: threads; 0 = one per core
};

struct LaunchOptions {
  std::string kernel;
  std::string grid, block; // empty: searched (default mode) or 1 / 32 (run)
  std::vector<std::string> args;
  uint64_t seed = 1;
};

struct SearchOptions {
  uint32_t population = 10;
  uint32_t generations = 10;
  double accept = 0.3;
  unsigned jobs = 0;
  uint64_t maxThreads = 1u << 12;
  std::string saveLaunch;
  bool replay = false;                          // cli/Replay.h
  std::string replayDirectory = "simulee-replay";
  bool explore = false; // ignore the host code's call sites: search every launch shape
};

struct RunOptions {
  std::string file;
  std::vector<std::string> dumps;
  std::string launchFile;
};

struct ScanOptions {
  std::string dir;
  unsigned jobs = 0; // files in parallel
};

// The load and analysis settings the common options stand for.
ir::LoadOptions loadOptionsOf(const CommonOptions &common);
session::AnalysisOptions analysisOptionsOf(const CommonOptions &common);

int listKernels(const std::string &file, const CommonOptions &common); // with their call sites
int runOnce(const RunOptions &options, const CommonOptions &common, const LaunchOptions &launch);
int searchFile(const std::string &file, const CommonOptions &common, const LaunchOptions &launch,
               const SearchOptions &search);
int scanDirectory(const ScanOptions &options, const CommonOptions &common,
                  const LaunchOptions &launch, const SearchOptions &search);

} // namespace simulee::cli
