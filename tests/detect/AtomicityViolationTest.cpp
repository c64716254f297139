// The atomicity-violation rule on hand-written event sequences: which
// accesses of other threads can fall between a thread's pair
// (memmodel/AtomicityTracker.h) and which findings each schedule keeps
// (detect/AtomicityViolationDetector.h).
#include "detect/AtomicityViolationDetector.h"
#include "DetectTestSupport.h"

#include <gtest/gtest.h>

using namespace simulee;
using interp::AccessKind;
using interp::MemSpace;
using ir::AtomicityPattern;
using ir::AtomicRole;
using memmodel::AtomicityTriple;
using memmodel::MemoryModel;
using memmodel::ModelOptions;
using memmodel::PairRelation;
using simulee::testing::kAllLanes;
using simulee::testing::SyntheticRun;

namespace {

// Instructions: 1 reads (the check), 2 updates (the act), 3 updates (another
// thread's), 4 reads only, 5 updates and 6 updates (a write-read-write pair).
constexpr uint32_t kCheck = 1, kAct = 2, kUpdate = 3, kRead = 4, kTake = 5, kPutBack = 6;

ModelOptions options(bool independentThreads = true) {
  ModelOptions options;
  options.independentThreads = independentThreads;
  options.atomicUnits = {{kCheck, kAct, AtomicityPattern::CheckThenAct},
                         {kTake, kPutBack, AtomicityPattern::WriteReadWrite}};
  static const std::vector<ir::InstructionInfo> instructions = [] {
    std::vector<ir::InstructionInfo> infos(7);
    AtomicRole roles[] = {AtomicRole::None,  AtomicRole::Reads,   AtomicRole::Updates,
                          AtomicRole::Updates, AtomicRole::Reads, AtomicRole::Updates,
                          AtomicRole::Updates};
    for (size_t id = 0; id < infos.size(); ++id)
      infos[id].atomicRole = roles[id];
    return infos;
  }();
  options.instructions = &instructions;
  return options;
}

std::vector<detect::Finding> findings(const MemoryModel &model) {
  return detect::findAtomicityViolations(model, {});
}

TEST(AtomicityViolation, AnotherWarpsUpdateBetweenThePairIsOne) {
  MemoryModel model(options());
  SyntheticRun(model).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes)
      .atomic(0, 1, kCheck).atomic(0, 2, kAct).atomic(32, 1, kUpdate);
  ASSERT_EQ(model.atomicityTriples().size(), 1u);
  const AtomicityTriple &triple = model.atomicityTriples()[0];
  EXPECT_EQ(triple.relation, PairRelation::SameVisitOrder);
  EXPECT_FALSE(triple.sameWarp);
  std::vector<detect::Finding> found = findings(model);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, detect::FindingKind::AtomicityViolation);
  EXPECT_EQ(found[0].subkind, "check-then-act");
  ASSERT_EQ(found[0].sites.size(), 3u);
  EXPECT_EQ(found[0].sites[0].instruction, kCheck);
  EXPECT_EQ(found[0].sites[1].instruction, kAct);
  EXPECT_EQ(found[0].sites[2].instruction, kUpdate);
  EXPECT_EQ(found[0].sites[2].thread, 32u);
}

TEST(AtomicityViolation, TheUpdateMayComeBeforeThePairInTheSimulation) {
  MemoryModel model(options());
  SyntheticRun(model).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes)
      .atomic(32, 1, kUpdate).atomic(0, 1, kCheck).atomic(0, 2, kAct);
  EXPECT_EQ(findings(model).size(), 1u);
}

TEST(AtomicityViolation, ABarrierBetweenOrdersThemAndEndsThePair) {
  MemoryModel across(options());
  SyntheticRun(across).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes)
      .atomic(0, 1, kCheck).barrier(1, {9}).atomic(0, 3, kAct).atomic(32, 3, kUpdate);
  EXPECT_TRUE(across.atomicityTriples().empty()) << "the pair spans a barrier";
  MemoryModel after(options());
  SyntheticRun(after).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes)
      .atomic(0, 1, kCheck).atomic(0, 2, kAct).barrier(1, {9}).atomic(32, 4, kUpdate);
  EXPECT_TRUE(after.atomicityTriples().empty()) << "the update is in another visit order";
}

TEST(AtomicityViolation, BlocksFallBetweenOnGlobalMemoryOnly) {
  MemoryModel global(options());
  SyntheticRun(global).block(0).mask(0, 0, kAllLanes).atomic(0, 1, kCheck).atomic(0, 2, kAct)
      .block(1).mask(0, 0, kAllLanes).atomic(0, 1, kUpdate);
  ASSERT_EQ(global.atomicityTriples().size(), 1u);
  EXPECT_EQ(global.atomicityTriples()[0].relation, PairRelation::DifferentBlocks);

  MemoryModel shared(options());
  SyntheticRun(shared).block(0).in(MemSpace::Shared).mask(0, 0, kAllLanes)
      .atomic(0, 1, kCheck).atomic(0, 2, kAct).block(1).in(MemSpace::Shared)
      .mask(0, 0, kAllLanes).atomic(0, 1, kUpdate);
  EXPECT_TRUE(shared.atomicityTriples().empty());

  // Block-scoped atomics of two blocks race instead (the data-race rule).
  MemoryModel scoped(options());
  SyntheticRun(scoped).block(0).mask(0, 0, kAllLanes).atomic(0, 1, kCheck).atomic(0, 2, kAct)
      .block(1).mask(0, 0, kAllLanes).access(AccessKind::BlockAtomic, 0, 1, kUpdate, 0, 4);
  EXPECT_TRUE(scoped.atomicityTriples().empty());
}

TEST(AtomicityViolation, WithinAWarpLockstepKeepsOnlyWhatItsOrderPutsBetween) {
  // Lane 1's update at step 2, between lane 0's steps 1 and 3: both schedules.
  MemoryModel between(options(false));
  SyntheticRun(between).block(0).mask(0, 0, kAllLanes)
      .atomic(0, 1, kCheck).atomic(1, 2, kUpdate).atomic(0, 3, kAct);
  ASSERT_EQ(between.atomicityTriples().size(), 1u);
  EXPECT_TRUE(between.atomicityTriples()[0].betweenInLockstep);
  EXPECT_EQ(findings(between).size(), 1u);

  // Lane 1's update after the pair: only independent thread scheduling can
  // move it between.
  auto after = [](MemoryModel &model) {
    SyntheticRun(model).block(0).mask(0, 0, kAllLanes)
        .atomic(0, 1, kCheck).atomic(0, 2, kAct).atomic(1, 5, kUpdate);
  };
  MemoryModel lockstep(options(false)), independent(options(true));
  after(lockstep);
  after(independent);
  ASSERT_EQ(lockstep.atomicityTriples().size(), 1u);
  EXPECT_FALSE(lockstep.atomicityTriples()[0].betweenInLockstep);
  EXPECT_TRUE(findings(lockstep).empty());
  EXPECT_EQ(findings(independent).size(), 1u);
}

TEST(AtomicityViolation, ASyncwarpOfBothLanesKeepsTheOtherLaneOut) {
  MemoryModel model(options());
  SyntheticRun(model).block(0).mask(0, 0, kAllLanes)
      .atomic(0, 1, kCheck).atomic(0, 2, kAct).warpSync(0, 3, kAllLanes).atomic(1, 5, kUpdate);
  EXPECT_TRUE(model.atomicityTriples().empty());
  // A __syncwarp that lane 1 is not part of orders nothing for it.
  MemoryModel partial(options());
  SyntheticRun(partial).block(0).mask(0, 0, kAllLanes)
      .atomic(0, 1, kCheck).atomic(0, 2, kAct).warpSync(0, 3, 0x1u).atomic(1, 5, kUpdate);
  EXPECT_EQ(partial.atomicityTriples().size(), 1u);
}

TEST(AtomicityViolation, TheAccessBetweenMustFitThePattern) {
  // A check-then-act is broken by a write, not by another read.
  MemoryModel read(options());
  SyntheticRun(read).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes)
      .atomic(0, 1, kCheck).atomic(0, 2, kAct).atomic(32, 1, kRead);
  EXPECT_TRUE(read.atomicityTriples().empty());
  // A write-read-write pair is broken by a read of its intermediate value.
  MemoryModel sentinel(options());
  SyntheticRun(sentinel).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes)
      .atomic(0, 1, kTake).atomic(0, 2, kPutBack).atomic(32, 1, kRead);
  ASSERT_EQ(sentinel.atomicityTriples().size(), 1u);
  EXPECT_EQ(findings(sentinel)[0].subkind, "write-read-write");
}

TEST(AtomicityViolation, ThePairIsOneThreadsAtOneOffset) {
  MemoryModel offsets(options());
  SyntheticRun(offsets).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes)
      .atomic(0, 1, kCheck, 0).atomic(0, 2, kAct, 4).atomic(32, 1, kUpdate, 4)
      .atomic(32, 2, kUpdate, 0);
  EXPECT_TRUE(offsets.atomicityTriples().empty());
  // A second access with no first before it in its thread is no pair.
  MemoryModel lone(options());
  SyntheticRun(lone).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes)
      .atomic(1, 1, kCheck).atomic(0, 2, kAct).atomic(32, 1, kUpdate);
  EXPECT_TRUE(lone.atomicityTriples().empty());
}

TEST(AtomicityViolation, NoUnitsNothingWatched) {
  ModelOptions none = options();
  none.atomicUnits.clear();
  MemoryModel model(none);
  SyntheticRun(model).block(0).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes)
      .atomic(0, 1, kCheck).atomic(0, 2, kAct).atomic(32, 1, kUpdate);
  EXPECT_TRUE(model.atomicityTriples().empty());
}

} // namespace
