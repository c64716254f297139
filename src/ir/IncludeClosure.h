// The files a .cu file #includes, read before clang sees them: which of the
// file's own headers hold host code (launch sites in an included harness),
// and whether an #include names something that cannot be read (a FIFO would
// block the compile, in process as in clang).
#pragma once

#include <string>
#include <vector>

namespace simulee::ir {

struct IncludeClosure {
  // `path` and the files it #includes with quotes, transitively, found beside
  // the including file or in the include directories: canonical paths, `path`
  // first (at most 64 files of at most 8 MiB each).
  std::vector<std::string> files;
  // "FILE:LINE: #include "NAME" is a FIFO, device or socket" for the first
  // include (quoted, or <...> found in an include directory) that exists but
  // is no regular file; empty when none.
  std::string unreadable;
};

IncludeClosure includeClosureOf(const std::string &path,
                                const std::vector<std::string> &includeDirs = {});

// The directories of -I options among clang arguments.
std::vector<std::string> includeDirsOf(const std::vector<std::string> &clangArgs);

} // namespace simulee::ir
