// Replays, through the fuzz target's own entry (tests/fuzz/FuzzOneInput.h),
// every input the fuzzer ever crashed on (tests/fuzz/regressions/) and the
// hand-written hostile inputs (tests/cli/inputs/hostile/). Passing means no
// crash, no hang and, in the sanitizer build, no ASan/UBSan report.
#include "../fuzz/FuzzOneInput.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace simulee::fuzz_test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> filesUnder(const std::string &relative) {
  std::vector<std::string> files;
  fs::path dir = fs::path(SIMULEE_SOURCE_DIR) / relative;
  if (fs::is_directory(dir))
    for (const fs::directory_entry &entry : fs::directory_iterator(dir))
      if (entry.is_regular_file() && entry.path().filename().string()[0] != '.' &&
          entry.path().extension() != ".md")
        files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

int replay(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  std::string data = bytes.str();
  return fuzz::fuzzOneInput(reinterpret_cast<const uint8_t *>(data.data()), data.size());
}

TEST(FuzzRegressions, EveryRecordedCrashInputRunsCleanly) {
  for (const std::string &path : filesUnder("tests/fuzz/regressions"))
    EXPECT_GE(replay(path), 0) << path;
}

TEST(FuzzRegressions, EveryHostileInputRunsCleanly) {
  std::vector<std::string> files = filesUnder("tests/cli/inputs/hostile");
  ASSERT_FALSE(files.empty());
  for (const std::string &path : files)
    EXPECT_GE(replay(path), 0) << path;
}

TEST(FuzzRegressions, TheHarnessRunsValidKernels) {
  // Not a no-op: a valid kernel loads and its launch completes.
  EXPECT_EQ(
      replay(std::string(SIMULEE_SOURCE_DIR) + "/tests/cli/inputs/hostile/constants_minus_one.ll"),
      1);
}

} // namespace
} // namespace simulee::fuzz_test
