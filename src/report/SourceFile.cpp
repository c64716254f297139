#include "report/SourceFile.h"

#include <fstream>
#include <system_error>

namespace simulee::report {

namespace fs = std::filesystem;

namespace {

bool isReadableFile(const fs::path &path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

} // namespace

fs::path findSourceFile(const ir::SourceLocation &location) {
  if (location.file.empty())
    return {};
  fs::path file(location.file);
  if (file.is_absolute())
    return isReadableFile(file) ? file : fs::path();
  if (!location.directory.empty()) {
    fs::path inDirectory = fs::path(location.directory) / file;
    if (isReadableFile(inDirectory))
      return inDirectory;
  }
  return isReadableFile(file) ? file : fs::path();
}

fs::path intendedSourcePath(const ir::SourceLocation &location) {
  fs::path file(location.file);
  if (file.is_absolute() || location.directory.empty())
    return file;
  return fs::path(location.directory) / file;
}

const std::vector<std::string> *SourceCache::linesOf(const ir::SourceLocation &location) {
  fs::path path = findSourceFile(location);
  if (path.empty())
    return nullptr;
  auto [it, inserted] = files_.try_emplace(path.string());
  if (inserted) {
    std::ifstream in(path, std::ios::binary);
    std::string text;
    while (std::getline(in, text)) {
      if (!text.empty() && text.back() == '\r')
        text.pop_back();
      it->second.push_back(text);
    }
  }
  return &it->second;
}

std::optional<std::string> SourceCache::line(const ir::SourceLocation &location) {
  if (!location.known())
    return std::nullopt;
  const std::vector<std::string> *lines = linesOf(location);
  if (!lines || location.line > lines->size())
    return std::nullopt;
  return (*lines)[location.line - 1];
}

} // namespace simulee::report
