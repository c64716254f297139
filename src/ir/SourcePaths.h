// The paths diagnostics print for files named by debug info.
#pragma once

#include "ir/Program.h"

#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <utility>

namespace simulee::ir {

// Debug info names a file as the compiler was given it, relative to the
// compiler's working directory. Diagnostics must name it so that an editor
// opened here finds it: the path as written when the compiler ran here (the
// path the user gave simulee), else the same file relative to the current
// directory (IR compiled elsewhere). Resolved once per distinct pair.
class SourcePaths {
public:
  SourcePaths() {
    std::error_code ec;
    here_ = std::filesystem::current_path(ec);
  }

  // Sets location.file and location.directory from debug info's pair.
  void locate(SourceLocation &location, std::string file, std::string directory) {
    auto [it, inserted] = resolved_.try_emplace({file, directory});
    if (inserted)
      it->second = resolve(file, directory);
    location.file = it->second.first;
    location.directory = it->second.second;
  }

private:
  std::pair<std::string, std::string> resolve(const std::string &file,
                                              const std::string &directory) const {
    namespace fs = std::filesystem;
    fs::path written(file);
    if (file.empty() || written.is_absolute() || directory.empty() || here_.empty() ||
        fs::path(directory).lexically_normal() == here_.lexically_normal())
      return {file, directory};
    fs::path absolute = (fs::path(directory) / written).lexically_normal();
    fs::path relative = absolute.lexically_relative(here_);
    return {(relative.empty() ? absolute : relative).string(), here_.string()};
  }

  std::filesystem::path here_;
  std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>> resolved_;
};

} // namespace simulee::ir
