// Reads a .cu file's host code in process with libclang (the host-side
// compile of the same file, against simulee's device header) and records
// every kernel launch it makes as a CallSite.
#pragma once

#include "host/CallSite.h"
#include "support/Result.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace simulee::host {

struct HostCode {
  std::vector<CallSite> sites; // in source order
  // clang's first error in the host-side compile; the sites are then those
  // of the code clang could still make sense of.
  std::string firstError;
  // Every function the host code names (the callee of a launch, an entry of
  // a table of kernel pointers, the kernel a template launcher launches):
  // a kernel named here with no site may be launched in a way the sites do
  // not show.
  std::set<std::string> namedFunctions;
  // Kernels named only as what a pointer or table launched through may hold,
  // where every launch read rules them out: they were stored under a case
  // (`case 2: table[0] = k;` of `switch (axis)`) that the launch's calls
  // never take (`run(0)`, `run(1)`).
  std::set<std::string> ruledOut;
  // Kernels named only where no launch can follow: handed to the runtime's
  // occupancy and attribute calls, directly or through the program's own
  // functions (`analyze_occupancy("k", k)`), and nowhere else.
  std::set<std::string> measuredOnly;
  // The file's host code defines `main`: a whole program, whose kernels
  // only it can name.
  bool definesMain = false;
  // The kernels the file's text (and the files it #includes "...") launches
  // by name, in active code or not: `k<<<` inside `#if 0` is here.
  std::set<std::string> launchedInText;
  // Where launches are written in templates, the host code is also compiled
  // and optimised (host/HostIrLaunches.h): the kernels (device symbols) its
  // code may still launch. A kernel outside the set is launched only from
  // instantiations that never happen or code the program's constants rule
  // out. Nothing when the host code was not compiled.
  std::optional<std::set<std::string>> compiledLaunches;
  // The neighbours (readCallSites) whose calls of the file's functions were
  // read as the program's.
  std::vector<std::string> neighboursRead;
};

// Whether the file's own text, or a file it #includes with quotes (found
// beside it or in `includeDirs`), can launch a kernel (`<<<`,
// cudaLaunchKernel) or measure one (cudaOccupancy*, cudaFuncGetAttributes:
// see HostCode::measuredOnly), or one of `others` (the program's other
// files, or those beside it) launches by name something that text names:
// a cheap test that spares device-only files the host-side parse.
bool mayLaunchKernels(const std::string &path, const std::vector<std::string> &includeDirs = {},
                      const std::vector<std::string> &others = {});

// `path` and the files it #includes with quotes, transitively, found beside
// the including file or in `includeDirs`: canonical paths, `path` first (at
// most 64 files of at most 8 MiB each; unreadable ones are left out).
std::vector<std::string> includeClosure(const std::string &path,
                                        const std::vector<std::string> &includeDirs = {});

// `extraClangArgs`: the -D and -I options of the device compile;
// `cudaPath`: its --cuda-path (empty: the one simulee finds), whose headers
// the host side is read with, as the device side is compiled;
// `otherFiles`: the program's other source files, whose calls of functions
// `path` defines (a launcher called from a main elsewhere) are read as
// calls made in `path`; `neighbours`: files that may be the program's (those
// beside it), read as `otherFiles` are when none is given, `path` defines no
// main and a neighbour's text names a function `path` defines (their calls
// of those functions alone count). Fails only when clang cannot parse the
// file at all.
Result<HostCode> readCallSites(const std::string &path,
                               const std::vector<std::string> &extraClangArgs,
                               const std::string &cudaPath = "",
                               const std::vector<std::string> &otherFiles = {},
                               const std::vector<std::string> &neighbours = {});

} // namespace simulee::host
