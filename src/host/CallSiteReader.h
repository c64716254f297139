// Reads a .cu file's host code in process with libclang (the host-side
// compile of the same file, against simulee's device header) and records
// every kernel launch it makes as a CallSite.
#pragma once

#include "host/CallSite.h"
#include "support/Result.h"

#include <string>
#include <vector>

namespace simulee::host {

struct HostCode {
  std::vector<CallSite> sites; // in source order
  // clang's first error in the host-side compile; the sites are then those
  // of the code clang could still make sense of.
  std::string firstError;
};

// Whether the file's own text can launch a kernel (`<<<`, cudaLaunchKernel):
// a cheap test that spares device-only files the host-side parse.
bool mayLaunchKernels(const std::string &path);

// `extraClangArgs`: the -D and -I options of the device compile;
// `cudaPath`: its --cuda-path (empty: the one simulee finds), whose headers
// the host side is read with, as the device side is compiled. Fails only
// when clang cannot parse the file at all.
Result<HostCode> readCallSites(const std::string &path,
                               const std::vector<std::string> &extraClangArgs,
                               const std::string &cudaPath = "");

} // namespace simulee::host
