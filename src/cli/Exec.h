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
};

int execProgram(const ExecOptions &options, const CommonOptions &common);

// Splits `argv` at the `--` that follows an `exec` command: what comes after
// it is the program's. Returns the program's arguments; `argc` shrinks.
std::vector<std::string> splitProgramArguments(int &argc, char **argv);

} // namespace simulee::cli
