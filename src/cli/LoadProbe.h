// `scan` survives a file that would crash the process: before an .ll/.bc
// file is loaded in the scanning process, a child (`simulee list FILE`)
// loads it first. A child killed by a signal, or ending in LLVM's fatal
// handler, costs that file only; the scan goes on.
#pragma once

#include <optional>
#include <string>

namespace simulee::cli {

// Nothing when `file` loads (or fails to load) cleanly in a child process;
// otherwise the error to report for it. `self` is this program's path.
std::optional<std::string> probeLoad(const std::string &self, const std::string &file);

} // namespace simulee::cli
