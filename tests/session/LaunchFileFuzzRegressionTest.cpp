// Replays, through the launch-file fuzz target's own entry
// (tests/fuzz/FuzzLaunchFile.h), every launch file in
// tests/fuzz/launch-regressions/: its seeds and whatever it ever crashed on.
// Passing means no crash, no hang and, in the sanitizer build, no report.
#include "../fuzz/FuzzLaunchFile.h"

#include "support/FileText.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace simulee::fuzz_test {
namespace {

namespace fs = std::filesystem;

int replay(const std::string &path) {
  std::string data = readWholeFile(path);
  return fuzz::fuzzLaunchFile(reinterpret_cast<const uint8_t *>(data.data()), data.size());
}

std::string regression(const std::string &name) {
  return std::string(SIMULEE_SOURCE_DIR) + "/tests/fuzz/launch-regressions/" + name;
}

TEST(LaunchFileFuzzRegressions, EveryRecordedInputRunsCleanly) {
  std::vector<std::string> files;
  for (const fs::directory_entry &entry : fs::directory_iterator(regression("")))
    files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 3u);
  for (const std::string &path : files)
    EXPECT_GE(replay(path), 0) << path;
}

TEST(LaunchFileFuzzRegressions, TheHarnessRunsAValidLaunchAndRefusesHostileOnes) {
  // Not a no-op: the launch with every field runs; the hostile ones are
  // refused by the parser or the launch's limits.
  EXPECT_EQ(replay(regression("every_field.json")), 1);
  EXPECT_EQ(replay(regression("hostile_values.json")), 0);
  EXPECT_EQ(replay(regression("overflowing_numbers.json")), 0);
}

} // namespace
} // namespace simulee::fuzz_test
