// The CLI's commands as functions of plain option structs, so that main.cpp
// only parses words. Each returns the process exit code.
#pragma once

#include "ir/Loader.h"
#include "session/Analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace simulee::cli {

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitError = 2;

struct CommonOptions {
  std::string format = "text";
  std::string record = "auto";
  bool independentThreads = false;
  uint64_t budgetInstrs = 1u << 20;
  uint32_t sharedBytes = 0;
  int optLevel = 0;
  std::vector<std::string> defines, includes;
  int color = -1; // -1: when stdout is a terminal
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
  bool quiet = false;
  bool replay = false;                          // cli/Replay.h
  std::string replayDirectory = "simulee-replay";
};

struct RunOptions {
  std::string file;
  CommonOptions common;
  LaunchOptions launch;
  std::vector<std::string> dumps;
  std::string launchFile;
};

struct ScanOptions {
  std::string dir;
  CommonOptions common;
  unsigned jobs = 0;
  uint64_t maxThreads = 1u << 12;
  uint64_t seed = 1;
  std::string output;
  bool quiet = false;
};

// The load and analysis settings the common options stand for.
ir::LoadOptions loadOptionsOf(const CommonOptions &common);
session::AnalysisOptions analysisOptionsOf(const CommonOptions &common);

int listKernels(const std::string &file, const CommonOptions &common);
int runOnce(const RunOptions &options);
int searchFile(const std::string &file, const CommonOptions &common, const LaunchOptions &launch,
               const SearchOptions &search);
int scanDirectory(const ScanOptions &options);

} // namespace simulee::cli
