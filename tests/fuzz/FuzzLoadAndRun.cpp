// libFuzzer target (clang -fsanitize=fuzzer,address,undefined): LLVM IR text
// or bitcode -> load -> lower -> one small launch. Built only with
// -DSIMULEE_BUILD_FUZZER=ON (scripts/sanitize.sh); seeds are the corpus'
// kernels compiled to IR, regressions live in tests/fuzz/regressions/.
#include "FuzzOneInput.h"

#include "support/MemoryLimit.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Well below libFuzzer's -rss_limit_mb: a hostile size must end in the
  // memory-limit error, not in the fuzzer's out-of-memory report.
  simulee::setMemoryLimitBytes(uint64_t(256) << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  simulee::fuzz::fuzzOneInput(data, size);
  return 0;
}
