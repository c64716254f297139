// Parsing compute-sanitizer's racecheck and synccheck text output (samples
// written here in the documented format, in both racecheck report modes) and
// matching hazards to simulee's findings by source line.
#include "ReplayTestSupport.h"

#include "replay/Sanitizer.h"
#include "session/Analysis.h"

#include <gtest/gtest.h>

namespace simulee::replay_test {
namespace {

using replay::Hazard;
using replay::parseRacecheck;
using replay::parseSynccheck;

constexpr const char *kAnalysisMode =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Race reported between Write access at 0x4f0 in "
    "/src/corpus/shared_rw_two_warps.cu:7:shared_rw_two_warps(float const*, float*)\n"
    "=========     and Read access at 0x560 in "
    "/src/corpus/shared_rw_two_warps.cu:8:shared_rw_two_warps(float const*, float*) [64 hazards]\n"
    "=========     and Read access at 0x5a0 in "
    "/src/corpus/shared_rw_two_warps.cu:9:shared_rw_two_warps(float const*, float*) [2 hazards]\n"
    "=========\n"
    "========= Warning: Race reported between Read access at 0x100 in /src/k.cu:20:f(int*)\n"
    "=========     and Write access at 0x120 in /src/k.cu:21:f(int*) [1 hazards]\n"
    "=========\n"
    "========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n";

constexpr const char *kHazardMode =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Potential WAW hazard detected at __shared__ 0x0 in block (0,0,0) :\n"
    "=========     Write Thread (31,0,0) at 0x170 in /home/u/same_stmt.cu:6:waw(int*)\n"
    "=========     Write Thread (0,0,0) at 0x170 in /home/u/same_stmt.cu:6:waw(int*)\n"
    "=========     Current Value : 13, Incoming Value : 0\n"
    "=========\n"
    "========= Error: Potential RAW hazard detected at __shared__ 0x84 in block (1,0,0) :\n"
    "=========     Write Thread (33,0,0) at 0x1c0 in /home/u/same_stmt.cu:8:waw(int*)\n"
    "=========     Read Thread (1,0,0) at 0x200 in /home/u/same_stmt.cu:9:waw(int*)\n"
    "=========     Current Value : 0\n"
    "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n";

constexpr const char *kSynccheck =
    "========= COMPUTE-SANITIZER\n"
    "========= Barrier error detected. Divergent thread(s) in warp\n"
    "=========     at 0x2d0 in /src/corpus/barrier_in_branch.cu:8:barrier_in_branch(int*, int)\n"
    "=========     by thread (3,0,0) in block (0,0,0)\n"
    "=========\n"
    "========= Barrier error detected. Divergent thread(s) in block\n"
    "=========     at 0x310 in barrier_in_branch(int*, int)\n"
    "=========     by thread (40,0,0) in block (0,0,0)\n"
    "=========\n"
    "========= ERROR SUMMARY: 2 errors\n";

constexpr const char *kMemcheck =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ read of size 4 bytes\n"
    "=========     at 0x70 in /src/corpus/oob_tile_load.cu:6:oob_tile_load(float const*, float*, "
    "int)\n"
    "=========     by thread (36,0,0) in block (1,0,0)\n"
    "=========     Address 0x7f3a00000190 is out of bounds\n"
    "=========\n"
    "========= Invalid __shared__ write of size 8 bytes\n"
    "=========     at 0x90 in /src/k.cu:12:f(double*)\n"
    "=========     by thread (0,0,0) in block (0,0,0)\n"
    "========= ERROR SUMMARY: 2 errors\n";

TEST(RacecheckParser, AnalysisModeGivesOnePairPerOtherAccess) {
  std::vector<Hazard> hazards = parseRacecheck(kAnalysisMode);
  ASSERT_EQ(hazards.size(), 3u);
  EXPECT_EQ(hazards[0].tool, Hazard::Tool::Racecheck);
  EXPECT_EQ(hazards[0].first, (replay::SourceLine{"/src/corpus/shared_rw_two_warps.cu", 7}));
  EXPECT_EQ(hazards[0].second, (replay::SourceLine{"/src/corpus/shared_rw_two_warps.cu", 8}));
  EXPECT_EQ(hazards[1].first.line, 7u);
  EXPECT_EQ(hazards[1].second.line, 9u);
  EXPECT_TRUE(hazards[0].error);
  EXPECT_FALSE(hazards[2].error); // "Warning:"
  EXPECT_EQ(hazards[2].first.line, 20u);
  EXPECT_EQ(hazards[2].second.line, 21u);
  EXPECT_TRUE(contains(hazards[0].text, "Race reported between Write access"));
}

TEST(RacecheckParser, HazardModeGivesKindAndBothAccesses) {
  std::vector<Hazard> hazards = parseRacecheck(kHazardMode);
  ASSERT_EQ(hazards.size(), 2u);
  EXPECT_EQ(hazards[0].kind, "WAW");
  EXPECT_EQ(hazards[0].first, (replay::SourceLine{"/home/u/same_stmt.cu", 6}));
  EXPECT_EQ(hazards[0].second, (replay::SourceLine{"/home/u/same_stmt.cu", 6}));
  EXPECT_EQ(hazards[1].kind, "RAW");
  EXPECT_EQ(hazards[1].first.line, 8u);
  EXPECT_EQ(hazards[1].second.line, 9u);
}

TEST(RacecheckParser, CleanOutputAndOtherToolsGiveNothing) {
  EXPECT_TRUE(parseRacecheck("========= COMPUTE-SANITIZER\n"
                             "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 "
                             "warnings)\n")
                  .empty());
  EXPECT_TRUE(parseRacecheck(kSynccheck).empty());
  EXPECT_TRUE(parseRacecheck("").empty());
  // Program output between reports is ignored.
  EXPECT_EQ(parseRacecheck(std::string("simulee-replay: done: 1 runs\n") + kHazardMode).size(), 2u);
}

TEST(SynccheckParser, BarrierErrorsWithAndWithoutLineInformation) {
  std::vector<Hazard> hazards = parseSynccheck(kSynccheck);
  ASSERT_EQ(hazards.size(), 2u);
  EXPECT_EQ(hazards[0].tool, Hazard::Tool::Synccheck);
  EXPECT_EQ(hazards[0].kind, "Divergent thread(s) in warp");
  EXPECT_EQ(hazards[0].first, (replay::SourceLine{"/src/corpus/barrier_in_branch.cu", 8}));
  EXPECT_EQ(hazards[1].kind, "Divergent thread(s) in block");
  EXPECT_EQ(hazards[1].first.line, 0u); // built without -lineinfo
  EXPECT_TRUE(parseSynccheck(kAnalysisMode).empty());
}

TEST(MemcheckParser, InvalidAccessesWithTheirSpaceAndLine) {
  std::vector<Hazard> hazards = replay::parseMemcheck(kMemcheck);
  ASSERT_EQ(hazards.size(), 2u);
  EXPECT_EQ(hazards[0].tool, Hazard::Tool::Memcheck);
  EXPECT_EQ(hazards[0].kind, "__global__ read");
  EXPECT_EQ(hazards[0].first, (replay::SourceLine{"/src/corpus/oob_tile_load.cu", 6}));
  EXPECT_EQ(hazards[1].kind, "__shared__ write");
  EXPECT_EQ(hazards[1].first.line, 12u);
  EXPECT_TRUE(replay::parseMemcheck(kSynccheck).empty());
  EXPECT_TRUE(replay::parseMemcheck(kAnalysisMode).empty());
}

// The findings of a corpus kernel's labeled launch.
std::vector<detect::Finding> findingsOf(const std::string &file, const std::string &kernel,
                                        interp::Dim3 block, std::vector<session::ArgumentSpec> args,
                                        interp::Dim3 grid = {1, 1, 1}) {
  const ir::Program &program = programFor(file);
  session::LaunchSpec spec;
  spec.config.grid = grid;
  spec.config.block = block;
  spec.args = std::move(args);
  Result<session::KernelAnalysis> analysis =
      session::analyzeLaunch(program, *program.findKernel(kernel), spec, {});
  EXPECT_TRUE(analysis.ok()) << (analysis ? "" : analysis.error().message);
  return analysis ? analysis->findings : std::vector<detect::Finding>{};
}

TEST(HazardMatching, RacecheckPairMatchesTheRaceOnTheSameLinesInEitherOrder) {
  const ir::Program &program = programFor("corpus/shared_rw_two_warps.cu");
  std::vector<detect::Finding> findings =
      findingsOf("corpus/shared_rw_two_warps.cu", "shared_rw_two_warps", {64, 1, 1},
                 {{"in", "random:64"}, {"out", "zeros:64"}});
  ASSERT_EQ(findings.size(), 1u);
  ASSERT_EQ(findings[0].kind, detect::FindingKind::DataRace);

  std::vector<Hazard> hazards = parseRacecheck(kAnalysisMode);
  EXPECT_TRUE(replay::hazardMatches(hazards[0], findings[0], program)); // lines 7 and 8
  Hazard swapped = hazards[0];
  std::swap(swapped.first, swapped.second);
  EXPECT_TRUE(replay::hazardMatches(swapped, findings[0], program));
  EXPECT_FALSE(replay::hazardMatches(hazards[1], findings[0], program)); // lines 7 and 9
  Hazard otherFile = hazards[0];
  otherFile.first.file = otherFile.second.file = "/src/elsewhere.cu";
  EXPECT_FALSE(replay::hazardMatches(otherFile, findings[0], program));
  // A synccheck report never confirms a race.
  Hazard barrier = parseSynccheck(kSynccheck)[0];
  barrier.first = barrier.second = hazards[0].first;
  EXPECT_FALSE(replay::hazardMatches(barrier, findings[0], program));
}

TEST(HazardMatching, SynccheckMatchesTheDivergentBarrierLine) {
  const ir::Program &program = programFor("corpus/barrier_in_branch.cu");
  std::vector<detect::Finding> findings =
      findingsOf("corpus/barrier_in_branch.cu", "barrier_in_branch", {64, 1, 1},
                 {{"in", "random:64"}, {"out", "zeros:64"}});
  auto divergence = std::find_if(findings.begin(), findings.end(), [](const detect::Finding &f) {
    return f.kind == detect::FindingKind::BarrierDivergence;
  });
  ASSERT_NE(divergence, findings.end());
  std::vector<Hazard> hazards = parseSynccheck(kSynccheck);
  EXPECT_TRUE(replay::hazardMatches(hazards[0], *divergence, program));  // line 8
  EXPECT_FALSE(replay::hazardMatches(hazards[1], *divergence, program)); // no line
  Hazard elsewhere = hazards[0];
  elsewhere.first.line = 9;
  EXPECT_FALSE(replay::hazardMatches(elsewhere, *divergence, program));
}

TEST(HazardMatching, MemcheckMatchesTheOutOfBoundsAccessLine) {
  const ir::Program &program = programFor("corpus/oob_tile_load.cu");
  std::vector<detect::Finding> findings =
      findingsOf("corpus/oob_tile_load.cu", "oob_tile_load", {64, 1, 1},
                 {{"in", "random:100"}, {"out", "zeros:100"}, {"n", "100"}}, {2, 1, 1});
  ASSERT_EQ(findings.size(), 1u);
  ASSERT_EQ(findings[0].kind, detect::FindingKind::OutOfBounds);
  std::vector<Hazard> hazards = replay::parseMemcheck(kMemcheck);
  EXPECT_TRUE(replay::hazardMatches(hazards[0], findings[0], program)); // line 6
  EXPECT_FALSE(replay::hazardMatches(hazards[1], findings[0], program));
}

} // namespace
} // namespace simulee::replay_test
