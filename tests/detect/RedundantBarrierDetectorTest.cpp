#include "detect/RedundantBarrierDetector.h"
#include "DetectTestSupport.h"

#include <gtest/gtest.h>

#include <functional>

using namespace simulee;
using namespace simulee::testing;
using detect::Finding;
using detect::FindingKind;
using interp::MemSpace;
using memmodel::MemoryModel;
using memmodel::Representation;

namespace {

constexpr uint32_t kBarrier = 50;

class BarrierRule : public ::testing::TestWithParam<Representation> {
protected:
  void launch(detect::RedundantBarrierDetector &detector,
              const std::function<void(SyntheticRun &)> &script, bool independentThreads = false,
              interp::Dim3 block = {64, 1, 1}) {
    MemoryModel model({.representation = GetParam(), .independentThreads = independentThreads});
    {
      SyntheticRun run(model);
      script(run);
    }
    detect::LaunchRecord record;
    record.block = block;
    detector.addLaunch(model, record);
  }
};

// tile[t] = ...; __syncthreads(); ... = tile[other(t)]  for two warps.
void exchange(SyntheticRun &run, bool readOwnSlot) {
  run.block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes).in(MemSpace::Shared);
  for (uint32_t t : {0u, 1u, 32u, 33u})
    run.write(t, 1, 10, 4 * t);
  run.barrier(1, {kBarrier});
  for (uint32_t t : {0u, 1u, 32u, 33u}) {
    uint32_t slot = readOwnSlot ? t : (t + 32) % 64;
    run.read(t, 3, 11, 4 * slot);
  }
}

} // namespace

TEST_P(BarrierRule, BarrierOrderingTwoWarpsIsNeeded) {
  detect::RedundantBarrierDetector detector({kBarrier});
  launch(detector, [](SyntheticRun &run) { exchange(run, false); });
  EXPECT_TRUE(detector.findings().empty());
}

TEST_P(BarrierRule, BarrierBetweenOwnSlotsIsRedundant) {
  detect::RedundantBarrierDetector detector({kBarrier});
  launch(detector, [](SyntheticRun &run) { exchange(run, true); });
  auto found = detector.findings();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, FindingKind::RedundantBarrier);
  EXPECT_EQ(found[0].sites[0].instruction, kBarrier);
  EXPECT_FALSE(found[0].sites[0].isAccess);
}

TEST_P(BarrierRule, BarrierWhoseResultIsUsedIsNeverRedundant) {
  // __syncthreads_count between own-slot accesses: no memory conflict, but
  // the count it returns is the barrier's whole purpose.
  detect::RedundantBarrierDetector detector({kBarrier}, {kBarrier});
  launch(detector, [](SyntheticRun &run) { exchange(run, true); });
  EXPECT_TRUE(detector.findings().empty());
}

TEST_P(BarrierRule, RedundantOnlyIfRedundantInEveryLaunch) {
  detect::RedundantBarrierDetector detector({kBarrier});
  launch(detector, [](SyntheticRun &run) { exchange(run, true); });
  launch(detector, [](SyntheticRun &run) { exchange(run, false); });
  launch(detector, [](SyntheticRun &run) { exchange(run, true); });
  EXPECT_TRUE(detector.findings().empty());
}

TEST_P(BarrierRule, LaunchesThatDoNotExecuteTheBarrierDoNotCount) {
  detect::RedundantBarrierDetector detector({kBarrier});
  launch(detector, [](SyntheticRun &run) { exchange(run, true); });
  launch(detector, [](SyntheticRun &run) { run.block(0).mask(0, 0, 1).write(0, 1, 10); });
  EXPECT_EQ(countKind(detector.findings(), FindingKind::RedundantBarrier), 1u);
}

TEST_P(BarrierRule, NeverExecutedBarrierIsUnreachedNotRedundant) {
  detect::RedundantBarrierDetector detector({kBarrier, 51});
  launch(detector, [](SyntheticRun &run) { exchange(run, false); });
  auto found = detector.findings();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, FindingKind::UnreachedBarrier);
  EXPECT_EQ(found[0].sites[0].instruction, 51u);
  EXPECT_FALSE(detect::isBug(found[0].kind));
}

TEST_P(BarrierRule, ARequiredBarrierThatIsNotTheKernelsOwnIsNeverUnreached) {
  // 52: a grid barrier's block barrier (required, not listed): a launch that
  // never syncs the grid says nothing of it.
  detect::RedundantBarrierDetector detector({kBarrier}, {52});
  launch(detector, [](SyntheticRun &run) { exchange(run, false); });
  EXPECT_TRUE(detector.findings().empty());
}

TEST_P(BarrierRule, NeededUnderIndependentThreadsEvenWhenJudgedInLockstep) {
  // One warp exchanging slots: lockstep would order the two sides, but on
  // Volta and later the barrier is what orders them. Advice to delete it
  // must hold there, whatever semantics the races were judged by.
  auto oneWarpExchange = [](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).in(MemSpace::Shared);
    run.write(0, 1, 10, 0).write(1, 1, 10, 4);
    run.barrier(1, {kBarrier});
    run.read(0, 3, 11, 4).read(1, 3, 11, 0);
  };
  for (bool independentThreads : {false, true}) {
    detect::RedundantBarrierDetector detector({kBarrier});
    launch(detector, oneWarpExchange, independentThreads);
    EXPECT_TRUE(detector.findings().empty());
  }
}

TEST_P(BarrierRule, OneWarpLaunchIsNoEvidence) {
  // Own slots, but only one warp: nothing shows the barrier could go in a
  // block of several warps, so nothing is said.
  detect::RedundantBarrierDetector detector({kBarrier});
  launch(detector, [](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).in(MemSpace::Shared);
    run.write(0, 1, 10, 0).write(1, 1, 10, 4);
    run.barrier(1, {kBarrier});
    run.read(0, 3, 11, 0).read(1, 3, 11, 4);
  });
  EXPECT_TRUE(detector.candidates().empty());
  EXPECT_TRUE(detector.findings().empty());
}

TEST_P(BarrierRule, BarrierWithNothingOnOneSideOrdersNothingWhateverTheLaunch) {
  // A kernel's first statement (nothing before it) and its last (nothing
  // after it), in a one-warp launch that is no evidence otherwise.
  constexpr uint32_t kFirst = 50, kLast = 52;
  detect::RedundantBarrierDetector detector({kFirst, kLast});
  launch(detector, [](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).in(MemSpace::Shared);
    run.barrier(1, {kFirst});
    run.write(0, 2, 10, 0).write(1, 2, 10, 4);
    run.barrier(3, {kLast});
  });
  auto found = detector.findings();
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].sites[0].instruction, kFirst);
  EXPECT_NE(found[0].detail.find("orders nothing"), std::string::npos);
  EXPECT_EQ(found[1].sites[0].instruction, kLast);
}

TEST_P(BarrierRule, BarrierWithAccessesOnBothSidesNeedsEvidence) {
  // Accesses before and after, but one warp: not ordering nothing.
  detect::RedundantBarrierDetector detector({kBarrier});
  launch(detector, [](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).in(MemSpace::Shared);
    run.write(0, 1, 10, 0);
    run.barrier(2, {kBarrier});
    run.read(0, 3, 11, 0);
  });
  EXPECT_TRUE(detector.findings().empty());
}

TEST_P(BarrierRule, ASearchNeedsEvidenceFromTwoConventionalBlockShapes) {
  detect::RedundantBarrierDetector detector({kBarrier});
  detector.requireEvidenceShapes(2);
  auto ownSlots = [](SyntheticRun &run) { exchange(run, true); };
  launch(detector, ownSlots, false, {64, 1, 1});
  launch(detector, ownSlots, false, {64, 1, 1});
  launch(detector, ownSlots, false, {36, 1, 1}); // not a multiple of 32: no shape
  EXPECT_TRUE(detector.findings().empty());
  launch(detector, ownSlots, false, {128, 1, 1});
  ASSERT_EQ(detector.findings().size(), 1u);
  EXPECT_EQ(detector.findings()[0].kind, FindingKind::RedundantBarrier);
}

TEST_P(BarrierRule, NoJudgedLaunchSaysNothing) {
  detect::RedundantBarrierDetector detector({kBarrier, 51});
  EXPECT_TRUE(detector.findings().empty());
}

TEST_P(BarrierRule, CandidatesThatCannotGoTogetherAreOneGroup) {
  // t0,t32 write their slots | 50 | read their own slots | 51 | read each
  // other's: each barrier alone is removable, both together are not. The
  // detector judges one at a time; the caller's joint re-check names the
  // group, reported once.
  detect::RedundantBarrierDetector detector({50, 51});
  launch(detector, [](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes).in(MemSpace::Shared);
    run.write(0, 1, 10, 0).write(32, 1, 10, 4).barrier(1, {50});
    run.read(0, 3, 11, 0).read(32, 3, 11, 4).barrier(2, {51});
    run.read(0, 6, 12, 4).read(32, 6, 12, 0);
  });
  EXPECT_EQ(detector.candidates(), (std::vector<uint32_t>{50, 51}));
  EXPECT_EQ(countKind(detector.findings(), FindingKind::RedundantBarrier), 2u);
  auto grouped = detector.findings({{50, 51}});
  ASSERT_EQ(countKind(grouped, FindingKind::RedundantBarrier), 1u);
  EXPECT_EQ(grouped[0].sites[0].instruction, 50u);
  EXPECT_EQ(grouped[0].groupBarriers, (std::vector<uint32_t>{51}));
}

INSTANTIATE_TEST_SUITE_P(Representations, BarrierRule,
                         ::testing::Values(Representation::Full, Representation::Summary));

TEST(BarrierRuleMerge, MergeWouldRaceReadsLikeTheIndependentThreadsRaceRule) {
  using interp::AccessKind;
  memmodel::BarrierCrossing crossing{AccessKind::Write, AccessKind::Read, false, false, false};
  EXPECT_TRUE(detect::mergeWouldRace(crossing));
  crossing.sameWarp = true;
  crossing.commonActiveStep = true; // lockstep would order them; Volta does not
  EXPECT_TRUE(detect::mergeWouldRace(crossing));
  crossing.warpSyncBetween = true;
  EXPECT_FALSE(detect::mergeWouldRace(crossing));
  crossing = {AccessKind::Read, AccessKind::Read, false, false, false};
  EXPECT_FALSE(detect::mergeWouldRace(crossing));
}
