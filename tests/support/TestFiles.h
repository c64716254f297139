// Files for tests that run programs: a temporary directory removed with
// everything in it, and whole-file reads.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace simulee::testing {

class TempDir {
public:
  explicit TempDir(const std::string &prefix = "simulee-test") {
    std::string pattern =
        (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    path_ = mkdtemp(pattern.data()) ? pattern : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty())
      std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  std::string file(const std::string &name) const { return path_ + "/" + name; }
  // Writes `text` to the file `name` here; its path.
  std::string write(const std::string &name, const std::string &text) const {
    std::string path = file(name);
    std::ofstream(path) << text;
    return path;
  }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace simulee::testing
