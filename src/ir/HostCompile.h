// The host side of a whole CUDA program for `simulee exec`: every .cu file's
// host code (clang 19, --cuda-host-only, against the same CUDA installation
// as the device compile) and every .c/.cpp file compiled natively, linked
// with simulee's CUDA runtime (libsimulee_cudart) into one executable. In
// each .cu file's object, clang's embedded "GPU binary" is a module
// descriptor naming the .cu file and its flags: the runtime compiles that
// file's device code when the program first needs it.
#pragma once

#include "support/Result.h"

#include <string>
#include <vector>

namespace simulee::ir {

struct HostBuildOptions {
  std::vector<std::string> sources;     // .cu, .c, .cc, .cpp, .cxx; .o, .a, .so are linked as given
  std::vector<std::string> defines;     // -D NAME[=VALUE]
  std::vector<std::string> includes;    // -I DIR
  std::vector<std::string> libraries;   // -l NAME
  std::vector<std::string> libraryDirs; // -L DIR
  std::string standard;                 // -std=STANDARD for .cu and C++ files (and device code)
  std::vector<std::string> hostFlags;   // the host compiler's own options, at the link too
  std::vector<std::string> linkerFlags; // the linker's (-Wl,...)
  std::string cudaPath;                 // empty: the assembled installation (CudaInstallation.h)
  int deviceOptLevel = 0;               // the device compile's -O (LoadOptions::optLevel)
  std::string runtimeDir;               // holds libsimulee_cudart.so
  std::string workDir;                  // objects, descriptors and the executable go here
};

// Builds the program; returns the executable's path. Errors: a file that does
// not compile (clang's diagnostics), a link that fails; a CUDA API the runtime
// lacks is named: "the program uses cudaXxx, which simulee's runtime does not
// provide".
Result<std::string> buildHostProgram(const HostBuildOptions &options);

} // namespace simulee::ir
