// The NVIDIA tools replay uses, found where a CUDA installation puts them,
// and a way to run them: nvcc (PATH, then $CUDA_HOME/bin or, with no
// CUDA_HOME, /usr/local/cuda/bin), compute-sanitizer (the same places),
// nvidia-smi for the GPU's architecture. None of them is needed for analysis.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace simulee::replay {

// An executable named `name` on PATH or in a CUDA installation's bin/.
std::optional<std::string> findCudaTool(const std::string &name);

struct CommandResult {
  bool started = false; // false: the program could not be executed at all
  bool timedOut = false;
  int exitCode = -1;  // -1 when killed by a signal
  std::string output; // standard output and standard error together
};

// Runs argv[0] with the arguments, no shell, and collects its output; after
// `timeoutSeconds` (0 = none) the process is killed.
CommandResult runCommand(const std::vector<std::string> &argv, unsigned timeoutSeconds = 0);

// "sm_90" for the first GPU nvidia-smi reports, nothing without a GPU or
// without nvidia-smi (nvcc's default architecture is used then).
std::optional<std::string> gpuArchitecture();

// The nvcc command line that builds `harnessSource` into `executable`:
// -lineinfo so that the sanitizers name source lines, -fmad=false so that the
// GPU rounds a*b+c twice like the simulator does. `extraArgs` (-D, -I) are
// the ones the kernel was analysed with.
std::vector<std::string> nvccCommand(const std::string &nvcc, const std::string &harnessSource,
                                     const std::string &executable,
                                     const std::string &includeDirectory,
                                     const std::optional<std::string> &architecture,
                                     const std::vector<std::string> &extraArgs = {});

// A command line as a shell would read it (for build.sh and messages).
std::string shellLine(const std::vector<std::string> &argv);

} // namespace simulee::replay
