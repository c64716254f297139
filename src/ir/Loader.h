// Loading a kernel file (.ll, .bc, .cu) into a lowered Program.
#pragma once

#include "ir/Program.h"
#include "support/Result.h"

#include <string>
#include <vector>

namespace simulee::ir {

struct LoadOptions {
  // .cu only: clang optimisation level. 0 (the default) compiles at -O0
  // without optnone and then runs mem2reg/SROA, which keeps every access a
  // race detector must see; 1-3 let clang optimise (it may delete racy stores).
  int optLevel = 0;
  std::vector<std::string> extraClangArgs; // e.g. -D, -I
  // .cu only: a CUDA installation to compile against instead of the one
  // scripts/setup.sh assembled from NVIDIA's wheels (CudaInstallation.h).
  std::string cudaPath;
  // Further files (.cu compiled with relocatable device code, or .ll/.bc)
  // linked into the loaded one before analysis, so that a kernel calling a
  // __device__ function defined in another file runs it (--link).
  std::vector<std::string> linkFiles;
};

// Loads, verifies and lowers `path`. Errors carry clang's diagnostics for .cu
// files and the parser's for .ll/.bc.
Result<Program> loadProgram(const std::string &path, const LoadOptions &options = {});

// Parses IR text directly (tests, Python).
Result<Program> loadProgramFromIR(const std::string &irText, const std::string &name);

// The directory holding simulee's device headers (simulee_cuda.h and the
// CUDA headers it stands in for), written once per process. The host-side
// read of a .cu file (host/) uses the same headers as the device compile.
Result<std::string> deviceHeaderDirectory();

// The clang binary .cu files are compiled with (SIMULEE_CLANG overrides).
std::string clangPath();

// Compiles CUDA source text (tests, Python); `name` is used in diagnostics.
Result<Program> loadProgramFromCuda(const std::string &source, const std::string &name,
                                    const LoadOptions &options = {});

} // namespace simulee::ir
