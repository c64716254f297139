// The CLI's GPU replay: `simulee replay FILE --launch L.json` and the
// `--replay` flag of the default search mode. The work is done by
// src/replay/; this file turns options into a ReplayOptions, prints the
// results and maps them to exit codes: 0 ran and confirmed nothing, 1 a
// finding confirmed (or a race-free launch's outputs differ from the
// simulation), 2 error, 3 could not run (no nvcc, no GPU, harness failed).
#pragma once

#include "cli/Commands.h"
#include "ir/Program.h"
#include "report/Report.h"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace simulee::cli {

constexpr int kExitNotRun = 3;

struct ReplayCommandOptions {
  std::string file;
  CommonOptions common;
  std::string kernel;
  std::string launchFile;
  unsigned runs = 10;
  bool sanitizer = false;
  uint64_t ulpBound = 4;
  std::string directory; // default: simulee-replay/<kernel>
};

// The replay subcommand's own options (main.cpp adds the analysis options).
void addReplayOptions(CLI::App &app, ReplayCommandOptions &options);

int replayCommand(const ReplayCommandOptions &options);

// `simulee FILE --replay`: replays the launch of every finding in `kernels`
// (one harness per distinct launch, under `directory`) and prints the
// results after the report: as text on standard output for a text report;
// for JSON and SARIF, as JSON in DIRECTORY/replay.json with a text summary
// on standard error. Returns `reportExitCode` unless replay failed with an
// error (2).
int replaySearchFindings(const ir::Program &program,
                         const std::vector<report::KernelFindings> &kernels,
                         const CommonOptions &common, const std::string &directory,
                         int reportExitCode);

} // namespace simulee::cli
