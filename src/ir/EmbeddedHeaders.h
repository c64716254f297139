// The device headers (src/ir/device/*.h), embedded at build time so that a
// .cu compile never depends on where simulee is installed.
#pragma once

#include <string>
#include <vector>

namespace simulee::ir {

struct EmbeddedHeader {
  const char *name;
  std::string content;
};

const std::vector<EmbeddedHeader> &embeddedDeviceHeaders();

} // namespace simulee::ir
