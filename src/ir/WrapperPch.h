// A precompiled header of clang's CUDA runtime wrapper with NVIDIA's headers
// (what every .cu compile includes first), built once per clang, CUDA
// installation and compile flags into ~/.cache/simulee/pch: it takes a
// compile from ~0.6 s to ~0.2 s. It records no timestamps (headers touched
// or re-extracted unchanged keep it valid), and a compile that finds it
// stale or broken discards it and compiles without: the cache can make a
// compile slower, never fail.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace simulee::ir {

// The PCH for a compile whose arguments (clang first, no input or output)
// are `compileArgs`, building it when missing; nothing when it cannot be
// built (the compile then goes on without it). `keyExclusions` are arguments
// that do not change the PCH (per-process directories).
std::optional<std::string> wrapperPch(const std::vector<std::string> &compileArgs,
                                      const std::vector<std::string> &keyExclusions);

// Whether a failed compile's clang output says the PCH it was given is stale
// or unreadable (a header it was built from changed size, a truncated file).
bool isStaleWrapperPch(const std::string &clangOutput);

// Removes a stale PCH; the next compile builds it again.
void discardWrapperPch(const std::string &pch);

} // namespace simulee::ir
