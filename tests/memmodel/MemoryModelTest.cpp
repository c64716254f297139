#include "memmodel/Granule.h"
#include "memmodel/MemoryModel.h"
#include "memmodel/ShadowSummary.h"
#include "SyntheticRun.h"

#include <gtest/gtest.h>

using namespace simulee::memmodel;
using simulee::interp::AccessKind;
using simulee::interp::MemSpace;
using simulee::testing::kAllLanes;
using simulee::testing::SyntheticRun;

namespace {
ModelOptions full() { return {.representation = Representation::Full}; }
ModelOptions summary() { return {.representation = Representation::Summary}; }
} // namespace

TEST(Granule, ByteMasksCoverExactlyTheAccessedBytes) {
  EXPECT_EQ(bytesInGranule(0, 4, 0), 0x0F);
  EXPECT_EQ(bytesInGranule(3, 1, 0), 0x08);
  EXPECT_EQ(bytesInGranule(4, 4, 0), 0xF0);
  EXPECT_EQ(bytesInGranule(6, 4, 0), 0xC0);
  EXPECT_EQ(bytesInGranule(6, 4, 1), 0x03);
  EXPECT_EQ(bytesInGranule(0, 8, 0), 0xFF);
  EXPECT_EQ(bytesInGranule(8, 4, 0), 0x00);
}

TEST(Granule, SharedMemoryIsScopedByBlockGlobalIsNot) {
  Access shared{.space = MemSpace::Shared, .offset = 12, .sizeBytes = 8, .block = 3};
  std::vector<GranuleKey> keys;
  forEachGranule(shared, [&](const GranuleKey &key, ByteMask) { keys.push_back(key); });
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].scope, 3u);
  EXPECT_EQ(keys[1].index, 2u);
  Access global{.space = MemSpace::Global, .offset = 0, .sizeBytes = 4, .block = 3};
  forEachGranule(global, [&](const GranuleKey &key, ByteMask) { EXPECT_EQ(key.scope, kGridScope); });
}

TEST(ShadowWitness, PackUnpackRoundTrips) {
  Witness witness = Witness::of(1023, 99999);
  EXPECT_EQ(witness.thread(), 1023u);
  EXPECT_EQ(witness.warp(), 31u);
  EXPECT_EQ(witness.lane(), 31u);
  EXPECT_EQ(witness.step(), 99999u);
  EXPECT_FALSE(witness.empty());
  EXPECT_FALSE(Witness::of(0, 0).empty());
  EXPECT_TRUE(Witness{}.empty());
}

namespace {
// What a ShadowSummary shows a new access, in order.
struct Shown : PriorAccessVisitor {
  std::vector<Access> priors;
  void visit(const Access &prior) override { priors.push_back(prior); }
};

// Thread `thread`'s `size`-byte access of global buffer 0 at `offset`.
Access globalAccess(AccessKind action, uint32_t instruction, uint32_t thread, uint64_t offset,
                    uint32_t size, uint64_t step, uint64_t value = 0) {
  return {.space = MemSpace::Global, .action = action, .offset = offset, .sizeBytes = size,
          .thread = thread, .warp = thread / 32, .lane = thread % 32, .step = step,
          .instruction = instruction, .activeMask = kAllLanes, .value = value,
          .valueKnown = action == AccessKind::Write};
}

std::vector<uint32_t> threadsOf(const Shown &shown) {
  std::vector<uint32_t> threads;
  for (const Access &prior : shown.priors)
    threads.push_back(prior.thread);
  return threads;
}
} // namespace

TEST(ShadowSummary, NeighbouringWordsOfOneStepShareACellAndSplitInCreationOrder) {
  ShadowSummary shadow;
  Shown nothing;
  shadow.record(globalAccess(AccessKind::Write, 7, 0, 0, 4, 5, 10), nothing);
  shadow.record(globalAccess(AccessKind::Write, 7, 1, 4, 4, 5, 11), nothing);
  EXPECT_TRUE(nothing.priors.empty());
  EXPECT_EQ(shadow.groupCount(), 2u);
  EXPECT_EQ(shadow.cellCount(), 1u); // one twin: 16 bytes per word

  // A store over the whole granule sees both words as they were stored.
  Shown both;
  shadow.record(globalAccess(AccessKind::Write, 8, 40, 0, 8, 9, 12), both);
  ASSERT_EQ(threadsOf(both), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(both.priors[0].offset, 0u);
  EXPECT_EQ(both.priors[0].value, 10u);
  EXPECT_EQ(both.priors[1].offset, 4u);
  EXPECT_EQ(both.priors[1].sizeBytes, 4u);
  EXPECT_EQ(both.priors[1].value, 11u);
  EXPECT_TRUE(both.priors[1].valueKnown);
  EXPECT_EQ(both.priors[1].step, 5u);
  EXPECT_EQ(shadow.cellCount(), 2u);

  // A second store of the second word splits the twin: the word's group
  // goes to the pool, and stays before the 8-byte store in the chain.
  Shown second;
  shadow.record(globalAccess(AccessKind::Write, 7, 33, 4, 4, 2, 11), second);
  EXPECT_EQ(threadsOf(second), (std::vector<uint32_t>{1, 40}));
  EXPECT_EQ(shadow.pooledGroupCount(), 1u);
  EXPECT_EQ(shadow.cellCount(), 3u);
  Shown all;
  shadow.record(globalAccess(AccessKind::Read, 9, 64, 0, 8, 3), all);
  EXPECT_EQ(threadsOf(all), (std::vector<uint32_t>{0, 33, 1, 40}));
}

TEST(ShadowSummary, WordsOfDifferentStepsOrInstructionsKeepTheirOwnCells) {
  ShadowSummary steps;
  Shown nothing;
  steps.record(globalAccess(AccessKind::Write, 7, 0, 0, 4, 5, 10), nothing);
  steps.record(globalAccess(AccessKind::Write, 7, 1, 4, 4, 6, 11), nothing);
  EXPECT_EQ(steps.cellCount(), 2u);
  ShadowSummary instructions;
  instructions.record(globalAccess(AccessKind::Write, 7, 0, 0, 4, 5, 10), nothing);
  instructions.record(globalAccess(AccessKind::Write, 8, 1, 4, 4, 5, 11), nothing);
  EXPECT_EQ(instructions.cellCount(), 2u);
  // A twin keeps 30 bits of step.
  ShadowSummary late;
  late.record(globalAccess(AccessKind::Write, 7, 0, 0, 4, uint64_t(1) << 30, 10), nothing);
  late.record(globalAccess(AccessKind::Write, 7, 1, 4, 4, uint64_t(1) << 30, 11), nothing);
  EXPECT_EQ(late.cellCount(), 2u);
  EXPECT_TRUE(nothing.priors.empty());
}

class MemoryModelBoth : public ::testing::TestWithParam<Representation> {
protected:
  ModelOptions options() { return {.representation = GetParam()}; }
};

TEST_P(MemoryModelBoth, SameEpochDifferentWarpsPairIsRecorded) {
  MemoryModel model(options());
  SyntheticRun(model).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes).write(0, 1, 10).read(
      32, 1, 11);
  ASSERT_EQ(model.accessPairs().size(), 1u);
  const AccessPair &pair = model.accessPairs()[0];
  EXPECT_EQ(pair.relation, PairRelation::SameVisitOrder);
  EXPECT_FALSE(pair.ordering.sameWarp);
  EXPECT_EQ(pair.earlier.instruction, 10u);
  EXPECT_EQ(pair.later.instruction, 11u);
}

TEST_P(MemoryModelBoth, DifferentBlocksPairIsRecordedForGlobalOnly) {
  MemoryModel model(options());
  {
    SyntheticRun run(model);
    run.block(0).mask(0, 0, 1).write(0, 1, 10).in(MemSpace::Shared).write(0, 2, 12);
    run.block(1).mask(0, 0, 1).in(MemSpace::Global).read(0, 1, 11).in(MemSpace::Shared).read(0, 2,
                                                                                              13);
  }
  ASSERT_EQ(model.accessPairs().size(), 1u);
  EXPECT_EQ(model.accessPairs()[0].relation, PairRelation::DifferentBlocks);
  EXPECT_EQ(model.accessPairs()[0].later.space, MemSpace::Global);
}

TEST_P(MemoryModelBoth, SameThreadAndLocalAccessesMakeNoPairs) {
  MemoryModel model(options());
  SyntheticRun(model)
      .block(0)
      .mask(0, 0, kAllLanes)
      .write(0, 1, 10)
      .read(0, 2, 11)
      .in(MemSpace::Local)
      .write(1, 3, 12)
      .write(2, 3, 12);
  EXPECT_TRUE(model.accessPairs().empty());
  EXPECT_EQ(model.accessCount(), 2u);
}

TEST_P(MemoryModelBoth, OverlapIsJudgedOnBytes) {
  MemoryModel model(options());
  SyntheticRun(model)
      .block(0)
      .mask(0, 0, kAllLanes)
      .mask(1, 0, kAllLanes)
      .write(0, 1, 10, /*offset=*/0, /*size=*/4)
      .read(32, 1, 11, /*offset=*/4, /*size=*/4) // adjacent: no overlap
      .read(33, 2, 12, /*offset=*/3, /*size=*/1); // last byte of the write
  ASSERT_EQ(model.accessPairs().size(), 1u);
  EXPECT_EQ(model.accessPairs()[0].later.instruction, 12u);
  EXPECT_EQ(firstSharedByte(model.accessPairs()[0].earlier, model.accessPairs()[0].later), 3u);
}

TEST_P(MemoryModelBoth, BarrierCrossingsGoToTheBarrierNotToPairs) {
  MemoryModel model(options());
  SyntheticRun(model)
      .block(0)
      .mask(0, 0, kAllLanes)
      .mask(1, 0, kAllLanes)
      .write(0, 1, 10)
      .barrier(1, {50})
      .read(32, 3, 11)
      .barrier(2, {51})
      .barrier(3, {50})
      .write(33, 6, 12); // three barriers after the write: no crossing
  EXPECT_TRUE(model.accessPairs().empty());
  const auto &barriers = model.barrierInstances();
  ASSERT_EQ(barriers.size(), 3u);
  EXPECT_EQ(barriers[0].barrierInstrs, std::vector<uint32_t>{50});
  auto crossings = barriers[0].crossings.members();
  ASSERT_EQ(crossings.size(), 1u);
  EXPECT_EQ(crossings[0].earlierAction, AccessKind::Write);
  EXPECT_EQ(crossings[0].laterAction, AccessKind::Read);
  EXPECT_FALSE(crossings[0].sameWarp);
  // Barrier 51 and the second instance of 50 saw nothing cross.
  EXPECT_EQ(barriers[1].barrierInstrs, std::vector<uint32_t>{51});
  EXPECT_TRUE(barriers[1].crossings.empty());
  EXPECT_TRUE(barriers[2].crossings.empty());
}

TEST_P(MemoryModelBoth, AStoreInALoopWritesOneValuePerBarrierInterval) {
  // Lanes 0 and 1 of one warp store the same sum to one word in one step,
  // a barrier, then the next iteration's sum (another value) the same way:
  // each interval's pair writes one value, whatever the last one wrote.
  MemoryModel model(options());
  SyntheticRun(model)
      .block(0)
      .mask(0, 0, kAllLanes)
      .store(0, 1, 10, 0, 7)
      .store(1, 1, 10, 0, 7)
      .barrier(1, {50})
      .store(0, 3, 10, 0, 9)
      .store(1, 3, 10, 0, 9);
  // Pairs alike but for their example fold into one.
  ASSERT_FALSE(model.accessPairs().empty());
  for (const AccessPair &pair : model.accessPairs())
    EXPECT_TRUE(writesSameValue(pair.earlier, pair.later)) << pair.later.value;
}

TEST_P(MemoryModelBoth, BarrierInstancesAreFoldedByInstructionsAndCrossings) {
  MemoryModel model(options());
  {
    SyntheticRun run(model);
    for (uint32_t block = 0; block < 3; ++block)
      run.block(block).mask(0, 0, kAllLanes).barrier(1, {50}).barrier(2, {50});
  }
  ASSERT_EQ(model.barrierInstances().size(), 1u);
  EXPECT_EQ(model.barrierInstances()[0].count, 6u);
}

TEST_P(MemoryModelBoth, SameWarpFactsComeFromTheDivergenceTracker) {
  MemoryModel model(options());
  SyntheticRun(model)
      .block(0)
      .mask(0, 0, 0b11)
      .mask(0, 2, 0b01)
      .write(0, 2, 10)
      .mask(0, 3, 0b10)
      .read(1, 3, 11);
  ASSERT_EQ(model.accessPairs().size(), 1u);
  const WarpOrdering &ordering = model.accessPairs()[0].ordering;
  EXPECT_TRUE(ordering.sameWarp);
  EXPECT_FALSE(ordering.commonActiveStep);
  EXPECT_FALSE(ordering.sameStep);
}

INSTANTIATE_TEST_SUITE_P(Representations, MemoryModelBoth,
                         ::testing::Values(Representation::Full, Representation::Summary));

TEST(MemoryModel, FullKeepsTuplesAsColumnsSummaryKeepsNone) {
  MemoryModel fullModel(full());
  SyntheticRun(fullModel).block(2).mask(1, 0, kAllLanes).write(40, 7, 10, 16, 4);
  ASSERT_EQ(fullModel.tuples().size(), 1u);
  TupleColumns columns = fullModel.tupleColumns();
  ASSERT_EQ(columns.thread.size(), 1u);
  EXPECT_EQ(columns.thread[0], 40u);
  EXPECT_EQ(columns.warp[0], 1u);
  EXPECT_EQ(columns.lane[0], 8u);
  EXPECT_EQ(columns.block[0], 2u);
  EXPECT_EQ(columns.offset[0], 16u);
  EXPECT_EQ(columns.activeMask[0], kAllLanes);

  MemoryModel summaryModel(summary());
  SyntheticRun(summaryModel).block(0).mask(0, 0, 1).write(0, 1, 10);
  EXPECT_TRUE(summaryModel.tuples().empty());
  EXPECT_EQ(summaryModel.representation(), Representation::Summary);
}

TEST(MemoryModel, AutoPicksSummaryForLargeLaunchesAndWhenTheLogGrows) {
  EXPECT_EQ(MemoryModel({.launchThreads = 100}).representation(), Representation::Full);
  EXPECT_EQ(MemoryModel({.launchThreads = 1 << 20}).representation(), Representation::Summary);
  MemoryModel model({.summaryThresholdAccesses = 3});
  SyntheticRun run(model);
  run.block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes).write(0, 1, 10).read(1, 2, 11);
  EXPECT_EQ(model.representation(), Representation::Full);
  run.read(2, 3, 11);
  EXPECT_EQ(model.representation(), Representation::Summary);
  run.read(32, 1, 12); // still sees the write, now from the summary
  bool sawWrite = false;
  for (const AccessPair &pair : model.accessPairs())
    sawWrite |= pair.earlier.instruction == 10 && pair.later.instruction == 12;
  EXPECT_TRUE(sawWrite);
}

TEST(FitnessFigures, CountsDistinctAddressesAndThreadsPerAddress) {
  MemoryModel model(full());
  {
    SyntheticRun run(model);
    run.block(0).mask(0, 0, kAllLanes);
    run.read(0, 1, 10, 0).read(1, 1, 10, 0).read(1, 2, 10, 0); // address 0: threads 0, 1
    run.write(2, 1, 11, 8);                                    // address 8: thread 2
    run.in(MemSpace::Local).write(3, 1, 12, 100);              // private: not counted
    run.block(1).mask(0, 0, kAllLanes).in(MemSpace::Global).read(0, 1, 10, 0); // (1, 0): new
  }
  const FitnessFigures &fitness = model.fitness();
  EXPECT_EQ(fitness.distinctAddresses(), 2u);
  EXPECT_EQ(fitness.accessingThreadsSum(), 4u);
  EXPECT_DOUBLE_EQ(fitness.ratio(), 0.5);
  EXPECT_EQ(fitness.minAddress(), 0u);
  EXPECT_EQ(fitness.maxAddress(), 11u);
  EXPECT_EQ(fitness.range(), 11u);
}

TEST(FitnessFigures, NothingAccessedIsRatioOne) {
  MemoryModel model;
  EXPECT_DOUBLE_EQ(model.fitness().ratio(), 1.0);
  EXPECT_EQ(model.fitness().range(), 0u);
}

TEST(FitnessFigures, ThreadReturningAfterAnotherCountsOnce) {
  MemoryModel model(full());
  {
    SyntheticRun run(model);
    run.block(0).mask(0, 0, kAllLanes).in(MemSpace::Shared);
    run.write(0, 1, 10, 0).read(1, 2, 11, 0).write(0, 3, 10, 0).read(2, 4, 11, 0);
    run.block(1).mask(0, 0, kAllLanes).write(0, 1, 10, 0); // another block's shared memory
  }
  EXPECT_EQ(model.fitness().distinctAddresses(), 2u);
  EXPECT_EQ(model.fitness().accessingThreadsSum(), 4u);
}

TEST(MemoryModel, ReadReadPairsAreNotRecorded) {
  MemoryModel model(full());
  {
    SyntheticRun run(model);
    run.block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes);
    run.read(0, 1, 10, 0).read(32, 1, 11, 0);
  }
  EXPECT_TRUE(model.accessPairs().empty());
}
