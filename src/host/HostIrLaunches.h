// Launches read from the host side's compiled code, where clang has
// instantiated every template: a kernel launched from a template launcher
// the syntax tree cannot follow (`k<W><<<grid, dim3(W, 128 / W)>>>` inside a
// template called through a functor, an enable_if overload or a macro) has
// its instantiation and its constant dims there.
#pragma once

#include "host/CallSite.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace simulee::host {

struct CompiledLaunches {
  // The `<<<>>>` launches, one per distinct kernel, line and dims: grid and
  // block constant where the optimised host code makes them so, unknown
  // elsewhere; every argument unknown. Only launches with at least one
  // constant dimension.
  std::vector<CallSite> sites;
  // Every kernel (device symbol) the optimised code may still launch: called
  // through its stub, or its address taken. A kernel outside it is launched
  // only from templates never instantiated or code the program's constants
  // rule out (`if (cols <= 32)` with cols = 512).
  std::set<std::string> kernels;
};

// The host code `clang` compiles with `compileArgs` (clang first, the input
// last, no output), optimised; nothing when it does not compile. A site in
// the file `source` names it as `source` is spelled; one in another file by
// its full path.
std::optional<CompiledLaunches> launchesInHostIr(const std::vector<std::string> &compileArgs,
                                                 const std::string &source);

} // namespace simulee::host
