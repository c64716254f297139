// The `simulee` command: option parsing and dispatch. The work is done by the
// session layer (session/Analysis.h); this file only turns words into
// settings, prints reports, and maps outcomes to exit codes:
// 0 no findings, 1 findings, 2 error.
#include "cli/Commands.h"
#include "cli/StrictOptions.h"

#include <CLI/CLI.hpp>

#include <iostream>

using namespace simulee;
using namespace simulee::cli;

namespace {

void addAnalysisOptions(CLI::App &app, CommonOptions &common) {
  app.add_option("--format,-f", common.format, "Output format: text (default), json or sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  app.add_option("--record", common.record,
                 "Memory-Access Model representation: auto (default), full (every tuple) or "
                 "summary (constant size per address)")
      ->check(CLI::IsMember({"auto", "full", "summary"}));
  app.add_flag("--independent-threads", common.independentThreads,
               "Volta-and-later semantics: lanes of a warp are ordered only by __syncwarp or a "
               "barrier, not by lockstep execution");
  app.add_option("--budget", common.budgetInstrs,
                 "Instructions per thread before a launch is declared non-terminating "
                 "(default 1048576)");
  app.add_option("--shared-bytes", common.sharedBytes, "Dynamic shared memory bytes per block");
  app.add_option("-O", common.optLevel,
                 "Optimisation level for .cu files: 0 (default) keeps every memory access; 1-3 "
                 "let clang delete racy stores")
      ->check(CLI::Range(0, 3));
  app.add_option("-D", common.defines, "Preprocessor definition for .cu files (NAME[=VALUE])");
  app.add_option("-I", common.includes, "Include directory for .cu files");
  app.add_flag("--color,!--no-color", common.color,
               "Colour the text report (default: when standard output is a terminal)");
}

void addLaunchOptions(CLI::App &app, LaunchOptions &launch) {
  app.add_option("--kernel,-k", launch.kernel,
                 "Kernel to analyse (source or mangled name); default: the only one, or all");
  app.add_option("--grid,-g", launch.grid, "Grid dimensions X[,Y[,Z]]");
  app.add_option("--block,-b", launch.block, "Block dimensions X[,Y[,Z]]");
  app.add_option("--arg,-a", launch.args,
                 "Argument NAME=VALUE (NAME: source name or 0-based position). VALUE: a scalar, "
                 "zeros:N or random:N (N elements of the pointee type) or @PATH (raw bytes). "
                 "Repeatable");
  app.add_option("--seed", launch.seed,
                 "Seed for the search and for automatic buffer contents (default 1); the same "
                 "seed gives the same findings and output");
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"simulee finds data races, redundant barriers and barrier divergence in CUDA "
               "kernels by simulating every GPU thread on the CPU (no GPU, no CUDA toolkit).\n\n"
               "  simulee FILE [options]       search launch settings and report findings\n"
               "  simulee run FILE [options]   one launch with the given settings\n"
               "  simulee list FILE            the kernels in a file\n"
               "  simulee scan DIR [options]   every kernel file under DIR\n\n"
               "FILE is .cu (compiled by clang 19 with simulee's own CUDA header), .ll or .bc.\n"
               "Exit status: 0 no findings, 1 findings, 2 error."};
  app.require_subcommand(0, 1);
  // One line, like every other error (exit status 2 is set below).
  app.failure_message([](const CLI::App *, const CLI::Error &e) {
    return std::string("simulee: error: ") + e.what() + " (see --help)\n";
  });
  app.fallthrough(false);

  CommonOptions common;
  LaunchOptions launch;
  SearchOptions search;
  std::string file;
  app.add_option("file", file, "Kernel file to search and analyse (.cu, .ll, .bc)");
  addAnalysisOptions(app, common);
  addLaunchOptions(app, launch);
  app.add_option("--population", search.population, "Solutions kept per generation (default 10)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--generations", search.generations, "Generations to evolve (default 10)")
      ->check(CLI::Range(0, 10000));
  app.add_option("--accept", search.accept,
                 "Stop when the access ratio F drops below this (default 0.3)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--jobs,-j", search.jobs,
                 "Launches simulated in parallel (default 0: one per core)");
  app.add_option("--max-threads", search.maxThreads,
                 "Largest total thread count of a searched launch (default 4096)")
      ->check(CLI::Range(1, 1 << 24));
  app.add_option("--save-launch", search.saveLaunch,
                 "Write the launch that exposed the first finding (else the fittest launch) as "
                 "JSON, for `simulee run FILE --launch PATH`");
  app.add_flag("--quiet,-q", search.quiet, "No progress line on standard error");

  std::string listFile;
  CLI::App *list = app.add_subcommand("list", "List the kernels in a file and their parameters");
  list->add_option("file", listFile, "Kernel file (.cu, .ll, .bc)")->required();

  RunOptions run;
  CLI::App *runApp =
      app.add_subcommand("run", "Simulate one launch with the given settings (no search)");
  runApp->add_option("file", run.file, "Kernel file (.cu, .ll, .bc)")->required();
  addAnalysisOptions(*runApp, run.common);
  addLaunchOptions(*runApp, run.launch);
  runApp->add_option("--dump", run.dumps,
                     "After the run, write buffer NAME's bytes to PATH (NAME=PATH); repeatable");
  runApp->add_option("--launch", run.launchFile,
                     "Replay a launch saved by --save-launch (other options override it)");

  ScanOptions scan;
  CLI::App *scanApp = app.add_subcommand(
      "scan", "Analyse every kernel file (.cu, .ll, .bc) under a directory, in parallel");
  scanApp->add_option("dir", scan.dir, "Directory to scan recursively")->required();
  addAnalysisOptions(*scanApp, scan.common);
  scanApp->add_option("--jobs,-j", scan.jobs, "Files analysed in parallel (default: one per core)");
  scanApp->add_option("--max-threads", scan.maxThreads,
                      "Largest total thread count of a searched launch (default 4096)");
  scanApp->add_option("--seed", scan.seed, "Search seed (default 1)");
  scanApp->add_option("--output,-o", scan.output,
                      "Write the JSON/SARIF report to this file instead of standard output");
  scanApp->add_flag("--quiet,-q", scan.quiet, "No progress on standard error");

  std::string maxMemory;
  addMaxMemoryOption(app, maxMemory);
  requireStrictNumbers(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitError;
  }
  if (Status limited = applyMaxMemory(maxMemory); !limited) {
    std::cerr << "simulee: error: " << limited.error().message << "\n";
    return kExitError;
  }
  if (*list)
    return listKernels(listFile, common);
  if (*runApp)
    return runOnce(run);
  if (*scanApp)
    return scanDirectory(scan);
  if (file.empty()) {
    std::cout << app.help();
    return kExitError;
  }
  return searchFile(file, common, launch, search);
}
