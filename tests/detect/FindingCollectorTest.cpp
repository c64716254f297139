#include "detect/BarrierDivergenceDetector.h"
#include "detect/OutOfBoundsDetector.h"
#include "DetectTestSupport.h"

#include <gtest/gtest.h>

using namespace simulee;
using namespace simulee::testing;
using detect::Finding;
using detect::FindingCollector;
using detect::FindingKind;
using interp::BarrierDivergenceEvent;
using memmodel::MemoryModel;

namespace {

BarrierDivergenceEvent divergence(uint32_t barrier, uint32_t other, uint32_t block = 0) {
  return {BarrierDivergenceEvent::Cause::PartialWarp, block, 0, barrier, other, 1, 2};
}

interp::OutOfBoundsEvent outOfBounds(uint32_t instruction, uint64_t offset) {
  interp::AccessEvent access{interp::MemSpace::Global, interp::AccessKind::Write, 1, offset, 4,
                             0, 3, 0, 3, 7, instruction};
  return {access, 64};
}

} // namespace

TEST(FindingKind, NamesAndBugness) {
  EXPECT_STREQ(detect::findingKindName(FindingKind::DataRace), "data-race");
  EXPECT_STREQ(detect::findingKindName(FindingKind::RedundantBarrier), "redundant-barrier");
  EXPECT_STREQ(detect::findingKindName(FindingKind::BarrierDivergence), "barrier-divergence");
  EXPECT_STREQ(detect::findingKindName(FindingKind::OutOfBounds), "out-of-bounds");
  EXPECT_TRUE(detect::isBug(FindingKind::DataRace));
  EXPECT_FALSE(detect::isBug(FindingKind::UnreachedBarrier));
}

TEST(BarrierDivergenceDetector, OneFindingPerBarrierAndOtherInstruction) {
  MemoryModel model;
  model.onBarrierDivergence(divergence(50, 60, 0));
  model.onBarrierDivergence(divergence(50, 60, 1));
  model.onBarrierDivergence(divergence(50, 61, 0));
  auto found = detect::findBarrierDivergences(model, {});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].kind, FindingKind::BarrierDivergence);
  EXPECT_EQ(found[0].sites[0].instruction, 50u);
  EXPECT_EQ(found[0].sites[0].thread, 1u);
  EXPECT_EQ(found[0].sites[1].instruction, 60u);
  EXPECT_EQ(found[0].sites[1].thread, 2u);
  EXPECT_EQ(found[0].sites[0].block, 0u);
  EXPECT_EQ(found[1].sites[1].instruction, 61u);
}

TEST(OutOfBoundsDetector, OneFindingPerInstruction) {
  MemoryModel model;
  model.onOutOfBounds(outOfBounds(20, 64));
  model.onOutOfBounds(outOfBounds(20, 68));
  model.onOutOfBounds(outOfBounds(21, 64));
  auto found = detect::findOutOfBounds(model, {});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].kind, FindingKind::OutOfBounds);
  EXPECT_EQ(found[0].exampleOffset, 64u);
  EXPECT_EQ(found[0].buffer, 1u);
  EXPECT_EQ(found[0].sites[0].action, interp::AccessKind::Write);
  EXPECT_EQ(found[0].detail, "4-byte write at byte offset 64 of a 64-byte buffer");
}

TEST(FindingCollector, AccumulatesDeduplicatesAndSortsOverLaunches) {
  FindingCollector collector({50, 51});
  detect::LaunchRecord first, second;
  first.seed = 1;
  second.seed = 2;
  {
    MemoryModel model;
    SyntheticRun(model).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes).write(0, 1, 12).read(
        32, 1, 11);
    model.onOutOfBounds(outOfBounds(20, 64));
    collector.addLaunch(model, first);
  }
  {
    MemoryModel model;
    SyntheticRun(model)
        .block(0)
        .mask(0, 0, kAllLanes)
        .mask(1, 0, kAllLanes)
        .write(32, 1, 12) // the same race, the other way round
        .read(0, 1, 11)
        .barrier(1, {50})
        // Other bytes of the same buffer, by both warps: the barrier had
        // something on both sides (evidence) and orders nothing.
        .read(0, 2, 13, 64)
        .read(32, 2, 13, 68);
    model.onBarrierDivergence(divergence(50, 60));
    collector.addLaunch(model, second);
  }
  auto found = collector.findings();
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].kind, FindingKind::DataRace);
  EXPECT_EQ(found[0].launch.seed, 1u); // first example kept
  EXPECT_EQ(found[0].sites[0].instruction, 11u);
  EXPECT_EQ(found[1].kind, FindingKind::RedundantBarrier);
  EXPECT_EQ(found[1].launch.seed, 2u);
  EXPECT_EQ(found[2].kind, FindingKind::BarrierDivergence);
  EXPECT_EQ(found[3].kind, FindingKind::OutOfBounds);
  EXPECT_EQ(found[4].kind, FindingKind::UnreachedBarrier);
  EXPECT_EQ(found[4].sites[0].instruction, 51u);
}

// Launches collected separately (in parallel) and merged in order must give
// what adding them to one collector in that order gives.
TEST(FindingCollector, MergingPerLaunchCollectorsEqualsAddingInOrder) {
  auto runRace = [](MemoryModel &model) {
    SyntheticRun(model).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes).write(0, 1, 12).read(
        32, 1, 11);
  };
  // Barrier 50 needed in launch 2 only; barrier 52 redundant in both. Both
  // warps access the buffer in every visit order (evidence).
  auto runBarriers = [](MemoryModel &model, bool needed) {
    SyntheticRun run(model);
    run.block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes).write(0, 1, 13, 0).write(32, 1, 13, 4);
    run.barrier(1, {50}).read(needed ? 32 : 0, 2, 14, 0).read(needed ? 0 : 32, 2, 14, 4);
    run.barrier(2, {52}).write(0, 3, 15, 64).write(32, 3, 15, 68); // new slots: nothing to order
  };
  detect::LaunchRecord first, second;
  first.seed = 1;
  second.seed = 2;

  FindingCollector inOrder({50, 51, 52});
  FindingCollector merged({50, 51, 52});
  for (int launch = 0; launch < 2; ++launch) {
    const detect::LaunchRecord &record = launch == 0 ? first : second;
    MemoryModel forInOrder, forMerge;
    runRace(forInOrder);
    runRace(forMerge);
    runBarriers(forInOrder, launch == 1);
    runBarriers(forMerge, launch == 1);
    inOrder.addLaunch(forInOrder, record);
    FindingCollector single({50, 51, 52});
    single.addLaunch(forMerge, record);
    merged.merge(single);
  }
  auto expected = inOrder.findings();
  auto actual = merged.findings();
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(detect::keyOf(actual[i]), detect::keyOf(expected[i]));
    EXPECT_EQ(actual[i].launch.seed, expected[i].launch.seed);
    EXPECT_EQ(actual[i].detail, expected[i].detail);
  }
  EXPECT_EQ(countKind(actual, FindingKind::RedundantBarrier), 1u); // 52 only
  EXPECT_EQ(countKind(actual, FindingKind::UnreachedBarrier), 1u); // 51
}
