// The whole of a file as text, for logs, reports and sources simulee reads
// back (a file that cannot be read is empty).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace simulee {

inline std::string readWholeFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace simulee
