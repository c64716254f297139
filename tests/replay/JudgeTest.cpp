// Verdicts from what a replay showed, without running anything: the runs'
// buffers, the sanitizers' hazards, and how far the launch got.
#include "ReplayTestSupport.h"

#include "replay/Replay.h"

#include <gtest/gtest.h>

namespace simulee::replay_test {
namespace {

using replay::RunState;
using replay::Verdict;

// The findings of flag_waw's labeled launch: one global write-write race on 'flag'.
replay::LaunchReplay replayOfFlagWaw(RunState state) {
  const ir::Program &program = programFor("corpus/flag_waw.cu");
  session::LaunchSpec spec;
  spec.config.block = {64, 1, 1};
  spec.args = {{"flag", "zeros:1"}, {"n", "64"}};
  Result<session::KernelAnalysis> analysis =
      session::analyzeLaunch(program, *program.findKernel("flag_waw"), spec, {});
  EXPECT_TRUE(analysis.ok());
  replay::LaunchReplay result;
  result.state = state;
  result.reason = "the reason";
  result.runs = 4;
  if (analysis)
    for (const detect::Finding &finding : analysis->findings)
      result.findings.push_back({finding, Verdict::NoGpu, ""});
  replay::BufferComparison flag;
  flag.param = 0;
  flag.name = "flag";
  flag.runs = 4;
  result.buffers.push_back(flag);
  return result;
}

const ir::KernelInfo &flagWaw() { return *programFor("corpus/flag_waw.cu").findKernel("flag_waw"); }

TEST(JudgeFindings, RaceOnABufferThatVariesIsConfirmed) {
  replay::LaunchReplay result = replayOfFlagWaw(RunState::Ran);
  ASSERT_EQ(result.findings.size(), 1u);
  result.buffers[0].runsDifferingFromFirst = 2;
  replay::judgeFindings(programFor("corpus/flag_waw.cu"), flagWaw(), result);
  EXPECT_EQ(result.findings[0].verdict, Verdict::Confirmed);
  EXPECT_EQ(result.findings[0].evidence, "'flag' varies across runs");
  EXPECT_EQ(result.confirmedCount(), 1u);
}

TEST(JudgeFindings, RaceOnABufferThatStaysTheSameIsNotReproduced) {
  replay::LaunchReplay result = replayOfFlagWaw(RunState::Ran);
  replay::judgeFindings(programFor("corpus/flag_waw.cu"), flagWaw(), result);
  EXPECT_EQ(result.findings[0].verdict, Verdict::NotReproduced);
  EXPECT_EQ(result.findings[0].evidence, "4 runs with identical outputs");
}

TEST(JudgeFindings, ALaunchThatDidNotRunIsNoGpuWithItsReason) {
  for (RunState state : {RunState::NoCompiler, RunState::NoGpu, RunState::BuildFailed,
                         RunState::TimedOut, RunState::SetupFailed}) {
    replay::LaunchReplay result = replayOfFlagWaw(state);
    replay::judgeFindings(programFor("corpus/flag_waw.cu"), flagWaw(), result);
    EXPECT_EQ(result.findings[0].verdict, Verdict::NoGpu) << replay::runStateName(state);
    EXPECT_EQ(result.findings[0].evidence, "the reason");
  }
}

TEST(JudgeFindings, AFaultConfirmsOutOfBoundsOnlyAndBarriersAreNotChecked) {
  replay::LaunchReplay result = replayOfFlagWaw(RunState::KernelFailed);
  detect::Finding outOfBounds = result.findings[0].finding;
  outOfBounds.kind = detect::FindingKind::OutOfBounds;
  detect::Finding redundant = result.findings[0].finding;
  redundant.kind = detect::FindingKind::RedundantBarrier;
  result.findings.push_back({outOfBounds, Verdict::NoGpu, ""});
  result.findings.push_back({redundant, Verdict::NoGpu, ""});
  replay::judgeFindings(programFor("corpus/flag_waw.cu"), flagWaw(), result);
  EXPECT_EQ(result.findings[0].verdict, Verdict::NotReproduced); // the race
  EXPECT_EQ(result.findings[1].verdict, Verdict::Confirmed);
  EXPECT_EQ(result.findings[1].evidence, "the reason");
  EXPECT_EQ(result.findings[2].verdict, Verdict::NotChecked);
}

TEST(JudgeFindings, MatchedHazardsAreMarkedAndUnmatchedOnesKept) {
  replay::LaunchReplay result = replayOfFlagWaw(RunState::Ran);
  std::string source = programFor("corpus/flag_waw.cu").path;
  replay::Hazard onTheRace, elsewhere;
  onTheRace.first = onTheRace.second = {source, 5};
  onTheRace.text = "Error: Potential WAW hazard";
  elsewhere.first = elsewhere.second = {source, 2};
  result.hazards = {elsewhere, onTheRace};
  result.sanitizerRan = true;
  replay::judgeFindings(programFor("corpus/flag_waw.cu"), flagWaw(), result);
  EXPECT_EQ(result.findings[0].verdict, Verdict::Confirmed);
  EXPECT_EQ(result.findings[0].evidence, "racecheck: Error: Potential WAW hazard");
  EXPECT_EQ(result.hazardMatched, (std::vector<bool>{false, true}));
}

} // namespace
} // namespace simulee::replay_test
