// GPU replay of one launch: simulate it, write the harness and the buffers it
// starts from into a directory, build it with nvcc, run it N times, compare
// the GPU's buffers across runs and with the simulation, optionally run
// compute-sanitizer's racecheck, synccheck and memcheck, and judge each finding:
// confirmed, not reproduced, or not run for want of a GPU. Nothing in
// simulee's analysis depends on this part; only the CLI calls it.
#pragma once

#include "detect/Finding.h"
#include "ir/Program.h"
#include "replay/Compare.h"
#include "replay/Sanitizer.h"
#include "session/Analysis.h"
#include "support/Result.h"

#include <optional>
#include <string>
#include <vector>

namespace simulee::replay {

struct ReplayOptions {
  std::string directory; // where the harness, buffers and outputs go (created)
  unsigned runs = 10;
  bool sanitizer = false; // also racecheck, synccheck and memcheck
  uint64_t ulpBound = kDefaultUlpBound;
  unsigned runTimeoutSeconds = 120;      // per harness run; sanitizer runs get ten times as long
  std::vector<std::string> compilerArgs; // -D and -I the kernel was analysed with
  session::AnalysisOptions analysis;
};

enum class Verdict : uint8_t {
  Confirmed,     // the sanitizer reported it, or the outputs vary across runs
  NotReproduced, // the launch ran on the GPU and showed nothing
  NoGpu,         // the launch could not run on a GPU (no GPU, no nvcc, ...)
  NotChecked,    // nothing a run can show (a redundant or unreached barrier)
};
const char *verdictName(Verdict verdict); // "confirmed", "not reproduced", "no GPU", "not checked"

// How far the launch got.
enum class RunState : uint8_t {
  Ran,
  NoCompiler,   // nvcc not found
  BuildFailed,  // nvcc rejected the harness (build.log)
  NoGpu,        // the harness found no usable GPU
  KernelFailed, // the kernel faulted or could not be launched
  TimedOut,     // a run did not finish in time
  SetupFailed,  // the harness could not load its buffers or allocate memory
};
const char *runStateName(RunState state); // "ran", "no compiler", ...

struct FindingReplay {
  detect::Finding finding;
  Verdict verdict = Verdict::NoGpu;
  std::string evidence; // why confirmed, or what was looked at
};

struct LaunchReplay {
  std::string kernel; // source name
  detect::LaunchRecord launch;
  std::string directory;
  RunState state = RunState::NoCompiler;
  std::string reason;       // state other than Ran: why, in one line
  std::string device;       // the GPU, as the harness named it
  std::string architecture; // nvcc -arch, empty for nvcc's default
  unsigned runs = 0;
  uint64_t ulpBound = kDefaultUlpBound;
  // The simulated launch had no race, divergence or out-of-bounds finding:
  // its outputs must be deterministic and match the simulation.
  bool raceFree = false;
  std::vector<BufferComparison> buffers; // pointer parameters; empty unless Ran
  bool sanitizerRan = false;
  std::string sanitizerNote; // why it did not run, when asked for
  std::vector<Hazard> hazards;
  std::vector<bool> hazardMatched; // parallel to hazards: explains some finding
  std::vector<FindingReplay> findings;

  bool ran() const { return state == RunState::Ran; }
  bool variesAcrossRuns() const;
  bool matchesSimulation() const;
  size_t confirmedCount() const;
};

// Replays `spec` of `kernel`. `findings` are the findings to judge (those a
// search reported for this launch); nullopt judges the findings of the
// launch's own simulation. Errors (exit 2): the file is not CUDA source, the
// launch cannot be simulated, the directory cannot be written.
Result<LaunchReplay> replayLaunch(const ir::Program &program, const ir::KernelInfo &kernel,
                                  const session::LaunchSpec &spec,
                                  const std::optional<std::vector<detect::Finding>> &findings,
                                  const ReplayOptions &options);

// The launch a finding's record describes, for replayLaunch.
session::LaunchSpec launchSpecOf(const detect::LaunchRecord &record);

// Verdict of each finding from what the runs and the sanitizers showed
// (exposed for tests: it needs no GPU).
void judgeFindings(const ir::Program &program, const ir::KernelInfo &kernel, LaunchReplay &replay);

} // namespace simulee::replay
