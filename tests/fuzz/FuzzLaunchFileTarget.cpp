// libFuzzer target over launch files (tests/fuzz/FuzzLaunchFile.h). Built
// only with -DSIMULEE_BUILD_FUZZER=ON (scripts/sanitize.sh); seeds are the
// launch files in tests/fuzz/launch-regressions/.
#include "FuzzLaunchFile.h"

#include "support/MemoryLimit.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  simulee::setMemoryLimitBytes(uint64_t(256) << 20); // as FuzzLoadAndRun.cpp
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  simulee::fuzz::fuzzLaunchFile(data, size);
  return 0;
}
