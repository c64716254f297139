// `simulee exec` as a library call: builds a whole CUDA program against
// simulee's CUDA runtime (ir/HostCompile.h), runs it in a child process with
// its arguments, and returns what the runtime (src/runtime/) found in every
// launch the program made: its report, and the counts behind the verdict.
// The CLI and the Python module both call it; only this file knows how the
// runtime is told its settings (SIMULEE_EXEC_* in the program's environment)
// and how it answers (a report file and a summary file).
#pragma once

#include "support/Result.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simulee::session {

// The kind of the runtime's findings about the program's CUDA API calls
// (copies past an allocation, double frees, ...) in its reports
// (runtime/ExecReport.cpp): they belong to no kernel.
inline constexpr const char *kHostApiErrorKind = "host-api-error";

struct ExecSettings {
  // The program: its files (.cu, .cpp/.cc/.cxx, .c, .o, .a, .so), how they
  // are compiled and linked, and its arguments.
  std::vector<std::string> files;
  std::vector<std::string> programArgs;
  std::vector<std::string> defines, includes, libraries, libraryDirs;
  std::string standard;                          // -std of C++ files; empty: clang's default
  std::vector<std::string> hostFlags, linkerFlags; // nvcc's -Xcompiler and -Xlinker
  std::string cudaPath;   // empty: ir::findCudaInstallation's
  int optLevel = 0;       // the device compile's -O
  std::string runtimeDir; // holds libsimulee_cudart.so
  bool keepBuild = false; // leave the temporary build directory behind

  // What the runtime checks, and how it reports.
  std::string format = "text"; // "text", "json" or "sarif"
  bool color = false;
  bool progress = false; // a line per launch on the program's standard error
  bool strict = false;   // same-value races are warnings
  bool lockstep = false; // pre-Volta warp semantics
  bool allBlocks = false;
  std::string engine = "auto"; // interp::engineNamed
  unsigned blockJobs = 1; // threads the blocks of a launch run on; 0 = one per core
  std::string record = "auto";
  uint64_t budgetInstrs = uint64_t(1) << 32; // per thread: a program's launch is never cut short
  uint32_t searchGenerations = 0;            // mutate each kernel's first launch at each site
  uint32_t checkedLaunches = 3;              // fully checked per kernel and shape; 0: every launch
  uint32_t computeCapability = 80;

  // The program's standard output and error: the caller's own, or captured
  // into ExecOutcome::programOutput and programErrors.
  bool captureOutput = false;
  // Null: wait for the program to end, a terminal's Ctrl-C going to the
  // program alone. Else polled: the program is killed once it is set.
  const std::atomic<bool> *cancel = nullptr;
  // Called with the executable's path once it is built, before it runs.
  std::function<void(const std::string &executable)> onBuilt;
};

struct ExecOutcome {
  int waitStatus = 0;       // the program's, as waitpid gives it
  std::string report;       // in ExecSettings::format; empty when nothing was reported
  uint64_t launches = 0;    // kernel launches the program made
  uint64_t unjudged = 0;    // of them, launches that could not be judged
  uint64_t findings = 0;    // bugs: kernels' warnings and host API errors
  std::string runtimeError; // why the runtime stopped the program; empty when it did not
  std::string programOutput, programErrors; // with ExecSettings::captureOutput

  // The program's exit status; 128 + the signal that killed it.
  int programStatus() const;
  // The signal that killed the program, or 0.
  int killedBy() const;
};

// Errors: no file, a program that does not build (clang's diagnostics, or
// the CUDA functions the runtime lacks), one that cannot be started or ends
// before the runtime starts, a cancel. The runtime stopping the program
// (an unsupported feature, a launch it cannot simulate) is no error here:
// the outcome has its report and `runtimeError`.
Result<ExecOutcome> executeProgram(const ExecSettings &settings);

} // namespace simulee::session
