// Finds and reads the source files named by debug info, so that diagnostics
// can quote the line they point at.
#pragma once

#include "ir/Program.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace simulee::report {

// The readable file `location` names: `file` itself when absolute, else
// `directory/file`, else `file` relative to the current directory. Empty when
// none of them exists.
std::filesystem::path findSourceFile(const ir::SourceLocation &location);

// The path as debug info means it, whether or not it exists here: `file` when
// absolute, else `directory/file` (or `file` alone without a directory).
std::filesystem::path intendedSourcePath(const ir::SourceLocation &location);

// Source lines, each file read at most once per report.
class SourceCache {
public:
  // The text of `location.line`, without its line terminator; nullopt when the
  // file cannot be read or is shorter.
  std::optional<std::string> line(const ir::SourceLocation &location);

private:
  const std::vector<std::string> *linesOf(const ir::SourceLocation &location);

  // Keyed by the resolved path; an empty vector records an unreadable file.
  std::map<std::string, std::vector<std::string>> files_;
};

} // namespace simulee::report
