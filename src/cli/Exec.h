// `simulee exec`: builds a whole CUDA program against simulee's CUDA runtime
// (ir/HostCompile.h), runs it with its arguments, and reports what the
// runtime found in every launch it made (runtime/). The program's standard
// output and error are its own; the report goes to standard error or -o.
#pragma once

#include "cli/Commands.h"

#include <string>
#include <vector>

namespace simulee::cli {

struct ExecOptions {
  std::vector<std::string> files;       // .cu, .cpp, .c, .o, .a
  std::vector<std::string> programArgs; // after `--`
  std::vector<std::string> libraries, libraryDirs;
  // "findings": exit 1 when anything was found, else the program's status;
  // "program": always the program's status.
  std::string exitStatus = "findings";
  bool keepBuild = false;          // leave the build directory (its path is printed)
  uint32_t searchGenerations = 0;  // --search N: mutate the recorded launches
  uint32_t computeCapability = 80; // --sm: what device queries report
  uint32_t checkedLaunches = 3;    // per kernel and shape; later ones get light checks
  bool checkAll = false;           // every launch fully checked
  // How nvcc would compile it: the C++ standard (-std), options for the host
  // compiler and for the linker (-Xcompiler, -Xlinker; -fopenmp is both).
  std::string standard;
  std::vector<std::string> hostFlags, linkerFlags;
};

int execProgram(const ExecOptions &options, const CommonOptions &common);

// Splits `argv` at the `--` that follows an `exec` command: what comes after
// it is the program's. Returns the program's arguments; `argc` shrinks.
std::vector<std::string> splitProgramArguments(int &argc, char **argv);

// The arguments with nvcc's spellings after an `exec` command turned into
// simulee's, so that a Makefile's flags work: -std=X, -Xcompiler X,
// --compiler-options X, -Xlinker X, --linker-options X, -fopenmp; nvcc's
// code-generation flags (-arch, -gencode, -code, -lineinfo, -G,
// -use_fast_math, --expt-relaxed-constexpr, --extended-lambda, -rdc, -m64)
// change nothing a simulation sees and are dropped.
std::vector<std::string> nvccFlagsAsOptions(int argc, char **argv);

} // namespace simulee::cli
