#include "ir/IncludeClosure.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

namespace simulee::ir {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMostFiles = 64;
constexpr uintmax_t kLargestFile = uintmax_t(8) << 20;

struct Include {
  std::string name;
  bool quoted = false;
};

// "harness.h" (quoted) for the line `#include "harness.h"`, "cub/cub.cuh"
// for `#include <cub/cub.cuh>`; an empty name for any other line.
Include includeOf(const std::string &line) {
  size_t at = line.find_first_not_of(" \t");
  if (at == std::string::npos || line[at] != '#')
    return {};
  at = line.find_first_not_of(" \t", at + 1);
  if (at == std::string::npos || line.compare(at, 7, "include") != 0)
    return {};
  at = line.find_first_not_of(" \t", at + 7);
  if (at == std::string::npos || (line[at] != '"' && line[at] != '<'))
    return {};
  size_t close = line.find(line[at] == '"' ? '"' : '>', at + 1);
  if (close == std::string::npos)
    return {};
  return {line.substr(at + 1, close - at - 1), line[at] == '"'};
}

} // namespace

IncludeClosure includeClosureOf(const std::string &path,
                                const std::vector<std::string> &includeDirs) {
  IncludeClosure closure;
  std::set<fs::path> seen;
  std::vector<fs::path> pending{fs::path(path)};
  while (!pending.empty() && closure.files.size() < kMostFiles) {
    fs::path file = pending.front();
    pending.erase(pending.begin());
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(file, ec);
    if (ec || !seen.insert(canonical).second || !fs::is_regular_file(canonical, ec) ||
        fs::file_size(canonical, ec) > kLargestFile || ec)
      continue;
    closure.files.push_back(canonical.string());
    std::ifstream in(canonical);
    std::string line;
    for (uint32_t number = 1; std::getline(in, line); ++number) {
      Include include = includeOf(line);
      if (include.name.empty())
        continue;
      std::vector<fs::path> candidates;
      if (include.quoted)
        candidates.push_back(canonical.parent_path() / include.name);
      for (const std::string &dir : includeDirs)
        candidates.push_back(fs::path(dir) / include.name);
      for (const fs::path &candidate : candidates) {
        fs::file_status status = fs::status(candidate, ec);
        if (ec || !fs::exists(status))
          continue;
        if (fs::is_regular_file(status)) {
          if (include.quoted)
            pending.push_back(candidate);
        } else if (!fs::is_directory(status) && closure.unreadable.empty()) {
          closure.unreadable = file.string() + ":" + std::to_string(number) + ": #include \"" +
                               include.name + "\" is a FIFO, device or socket (" +
                               candidate.string() + "), which cannot be read";
        }
        break;
      }
    }
  }
  return closure;
}

std::vector<std::string> includeDirsOf(const std::vector<std::string> &clangArgs) {
  std::vector<std::string> dirs;
  for (size_t i = 0; i < clangArgs.size(); ++i) {
    if (clangArgs[i] == "-I" && i + 1 < clangArgs.size())
      dirs.push_back(clangArgs[++i]);
    else if (clangArgs[i].rfind("-I", 0) == 0 && clangArgs[i].size() > 2)
      dirs.push_back(clangArgs[i].substr(2));
  }
  return dirs;
}

} // namespace simulee::ir
