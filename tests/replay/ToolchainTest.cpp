// Finding CUDA tools and running commands: output, exit status, timeouts.
#include "ReplayTestSupport.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>

namespace simulee::replay_test {
namespace {

using replay::runCommand;

TEST(RunCommand, CollectsOutputAndExitStatus) {
  replay::CommandResult result = runCommand({"sh", "-c", "echo out; echo err >&2; exit 7"});
  EXPECT_TRUE(result.started);
  EXPECT_FALSE(result.timedOut);
  EXPECT_EQ(result.exitCode, 7);
  EXPECT_TRUE(contains(result.output, "out\n"));
  EXPECT_TRUE(contains(result.output, "err\n"));
}

TEST(RunCommand, MissingProgramDoesNotStart) {
  replay::CommandResult result = runCommand({"/nonexistent/simulee-no-such-tool"});
  EXPECT_FALSE(result.started);
}

TEST(RunCommand, TimeoutKillsTheProcessAndItsChildren) {
  auto start = std::chrono::steady_clock::now();
  replay::CommandResult result = runCommand({"sh", "-c", "sleep 30; echo late"}, 1);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(result.timedOut);
  EXPECT_LT(seconds, 10.0);
  EXPECT_FALSE(contains(result.output, "late"));
}

TEST(FindCudaTool, FindsExecutablesOnPathFirstThenInCudaHome) {
  TempDir onPath, cudaHome;
  fs::create_directories(cudaHome.path() + "/bin");
  for (const std::string &path :
       {onPath.file("simulee-fake-tool"), cudaHome.path() + "/bin/simulee-fake-home-tool"}) {
    writeFile(path, "#!/bin/sh\n");
    fs::permissions(path, fs::perms::owner_all);
  }
  std::string oldPath = std::getenv("PATH") ? std::getenv("PATH") : "";
  const char *oldHome = std::getenv("CUDA_HOME");
  std::string savedHome = oldHome ? oldHome : "";
  setenv("PATH", (onPath.path() + ":" + oldPath).c_str(), 1);
  setenv("CUDA_HOME", cudaHome.path().c_str(), 1);
  EXPECT_EQ(replay::findCudaTool("simulee-fake-tool"), onPath.file("simulee-fake-tool"));
  EXPECT_EQ(replay::findCudaTool("simulee-fake-home-tool"),
            cudaHome.path() + "/bin/simulee-fake-home-tool");
  EXPECT_FALSE(replay::findCudaTool("simulee-not-anywhere").has_value());
  setenv("PATH", oldPath.c_str(), 1);
  if (oldHome)
    setenv("CUDA_HOME", savedHome.c_str(), 1);
  else
    unsetenv("CUDA_HOME");
}

TEST(NvccCommand, KeepsLineInfoAndSeparateRoundingAndNamesTheArchitecture) {
  std::vector<std::string> command = replay::nvccCommand(
      "nvcc", "/d/harness.cu", "/d/harness", "/src", std::string("sm_90"), {"-DTILE=16", "-I/inc"});
  std::string line = replay::shellLine(command);
  EXPECT_TRUE(contains(line, "-lineinfo"));
  EXPECT_TRUE(contains(line, "-fmad=false"));
  EXPECT_TRUE(contains(line, "-arch=sm_90"));
  EXPECT_TRUE(contains(line, "-I/src"));
  EXPECT_TRUE(contains(line, "-DTILE=16 -I/inc"));
  EXPECT_TRUE(contains(line, "-o /d/harness /d/harness.cu"));
  EXPECT_FALSE(contains(
      replay::shellLine(replay::nvccCommand("nvcc", "a.cu", "a", "/s", std::nullopt)), "-arch"));
}

TEST(ShellLine, QuotesWordsAShellWouldSplit) {
  EXPECT_EQ(replay::shellLine({"nvcc", "-o", "/tmp/a b", "it's"}), "nvcc -o '/tmp/a b' 'it'\\''s'");
}

} // namespace
} // namespace simulee::replay_test
