#include "detect/DataRaceDetector.h"
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

// Runs `script` through a model of the parameter's representation and
// returns the data-race findings of that one launch.
class RaceDetector : public ::testing::TestWithParam<Representation> {
protected:
  std::vector<Finding> races(const std::function<void(SyntheticRun &)> &script,
                             bool independentThreads = false) {
    MemoryModel model({.representation = GetParam(), .independentThreads = independentThreads});
    {
      SyntheticRun run(model);
      script(run);
    }
    return detect::findDataRaces(model, {});
  }
};

// Two warps of one block, all lanes active.
void twoFullWarps(SyntheticRun &run, uint32_t block = 0) {
  run.block(block).mask(0, 0, kAllLanes).mask(1, 0, kAllLanes);
}

} // namespace

TEST_P(RaceDetector, DifferentBlocksOnGlobalMemoryIsRace) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run, 0);
    run.write(0, 1, 10);
    twoFullWarps(run, 1);
    run.read(0, 1, 11);
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(detect::keyOf(found[0]), raceKey(10, 11));
  EXPECT_EQ(found[0].sites[0].block, 0u);
  EXPECT_EQ(found[0].sites[1].block, 1u);
}

TEST_P(RaceDetector, SharedMemoryNeverRacesAcrossBlocks) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run, 0);
    run.in(MemSpace::Shared).write(0, 1, 10);
    twoFullWarps(run, 1);
    run.in(MemSpace::Shared).write(0, 1, 10);
  });
  EXPECT_TRUE(found.empty());
}

TEST_P(RaceDetector, DifferentWarpsInOneVisitOrderIsRace) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.in(MemSpace::Shared, 2).write(5, 1, 10, 8).read(37, 1, 11, 8);
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(detect::keyOf(found[0]), raceKey(10, 11, MemSpace::Shared));
  EXPECT_EQ(found[0].buffer, 2u);
  EXPECT_EQ(found[0].exampleOffset, 8u);
  EXPECT_EQ(found[0].sites[0].thread, 5u);
  EXPECT_EQ(found[0].sites[0].action, interp::AccessKind::Write);
  EXPECT_EQ(found[0].sites[1].thread, 37u);
  EXPECT_TRUE(found[0].variable.empty());
}

TEST_P(RaceDetector, DivergedLanesOfOneWarpRace) {
  auto found = races([](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes);
    run.mask(0, 3, lanes({0})).write(0, 3, 10);  // then-side
    run.mask(0, 4, lanes({1})).read(1, 4, 11);   // else-side
    run.mask(0, 5, kAllLanes);                   // reconverged
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(detect::keyOf(found[0]), raceKey(10, 11));
}

TEST_P(RaceDetector, SameWarpSameStoreWriteWriteIsRace) {
  auto found = races([](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).write(0, 4, 10).write(1, 4, 10);
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(detect::keyOf(found[0]), raceKey(10, 10));
}

TEST_P(RaceDetector, LockstepAccessesByDifferentInstructionsAreOrdered) {
  auto found = races([](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).write(0, 4, 10).read(1, 5, 11).write(2, 6, 12);
  });
  EXPECT_TRUE(found.empty());
}

TEST_P(RaceDetector, OneLoadAndOneStoreOfOneStepAreOrdered) {
  // Same step, same instruction but not both writes: an atomic-free
  // read-modify-write is two instructions, so only write-write counts.
  auto found = races([](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).read(0, 4, 10).read(1, 4, 10).write(0, 5, 11);
  });
  EXPECT_TRUE(found.empty());
}

TEST_P(RaceDetector, TwoAtomicsNeverRace) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.atomic(0, 1, 10).atomic(32, 1, 10).atomic(33, 2, 11);
  });
  EXPECT_TRUE(found.empty());
}

TEST_P(RaceDetector, AtomicAndPlainAccessRace) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.atomic(0, 1, 10).read(32, 1, 11);
  });
  EXPECT_EQ(keysOf(found), std::set{raceKey(10, 11)});
}

TEST_P(RaceDetector, TwoReadsNeverRace) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.read(0, 1, 10).read(32, 1, 11);
  });
  EXPECT_TRUE(found.empty());
}

TEST_P(RaceDetector, OneThreadNeverRacesWithItself) {
  auto found = races([](SyntheticRun &run) {
    run.block(0).mask(0, 0, lanes({0})).write(0, 1, 10).write(0, 2, 11);
  });
  EXPECT_TRUE(found.empty());
}

TEST_P(RaceDetector, OverlappingBytesRaceAdjacentBytesDoNot) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.write(0, 1, 10, /*offset=*/0, /*size=*/4);
    run.read(32, 1, 11, /*offset=*/4, /*size=*/4);  // adjacent
    run.write(33, 2, 12, /*offset=*/3, /*size=*/1); // byte 3 of the first write
  });
  EXPECT_EQ(keysOf(found), std::set{raceKey(10, 12)});
}

TEST_P(RaceDetector, BarrierSeparatesVisitOrders) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.in(MemSpace::Shared).write(0, 1, 10).barrier(1, {50}).read(32, 3, 11);
  });
  EXPECT_TRUE(found.empty());
}

TEST_P(RaceDetector, IndependentThreadsMakeLockstepPairsRace) {
  auto script = [](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).write(0, 4, 10).read(1, 5, 11);
  };
  EXPECT_TRUE(races(script, false).empty());
  EXPECT_EQ(keysOf(races(script, true)), std::set{raceKey(10, 11)});
}

TEST_P(RaceDetector, WarpSyncOrdersLanesUnderIndependentThreads) {
  auto found = races(
      [](SyntheticRun &run) {
        run.block(0).mask(0, 0, kAllLanes).write(0, 4, 10).warpSync(0, 5, lanes({0, 1}));
        run.read(1, 6, 11);  // synced with lane 0
        run.read(2, 7, 12);  // lane 2 was not in the sync mask
      },
      true);
  EXPECT_EQ(keysOf(found), std::set{raceKey(10, 12)});
}

TEST_P(RaceDetector, FindingsAreDeduplicatedByInstructionPair) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    for (uint32_t i = 0; i < 4; ++i)
      run.write(i, 1, 10, 4 * i).read(32 + i, 1, 11, 4 * i);
    // Warp 0 writing through instruction 11: ordered with its own warp's
    // write (lockstep), racing with warp 1's read by 11.
    run.write(5, 2, 11, 0);
  });
  EXPECT_EQ(countKind(found, FindingKind::DataRace), 2u); // (10, 11) and (11, 11)
  EXPECT_EQ(keysOf(found), (std::set{raceKey(10, 11), raceKey(11, 11)}));
  // The first example is kept.
  for (const Finding &finding : found) {
    if (detect::keyOf(finding) == raceKey(10, 11)) {
      EXPECT_EQ(finding.exampleOffset, 0u);
    }
  }
}

TEST_P(RaceDetector, SameValueWritesAreABenignRace) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.in(MemSpace::Shared).store(0, 1, 10, 0, 1).store(32, 1, 10, 0, 1);
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].benign, detect::Benign::SameValue);
  EXPECT_FALSE(detect::isBug(found[0]));
}

TEST_P(RaceDetector, DifferentValuesMakeTheRaceReal) {
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.in(MemSpace::Shared).store(0, 1, 10, 0, 1).store(32, 1, 10, 0, 2);
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].benign, detect::Benign::No);
  EXPECT_TRUE(detect::isBug(found[0]));
}

TEST_P(RaceDetector, OneDifferingPairMakesTheWholeInstructionPairReal) {
  // Three threads store with instruction 10: two agree, the third does not.
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.in(MemSpace::Shared).store(0, 1, 10, 0, 1).store(32, 1, 10, 0, 1).store(33, 2, 10, 0, 7);
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].benign, detect::Benign::No);
}

TEST_P(RaceDetector, AReadOfTheFlagStillRaces) {
  // The writes agree, but a read between them may see either side.
  auto found = races([](SyntheticRun &run) {
    twoFullWarps(run);
    run.in(MemSpace::Shared).store(0, 1, 10, 0, 1).read(40, 1, 11).store(32, 2, 10, 0, 1);
  });
  size_t real = 0, benign = 0;
  for (const Finding &finding : found)
    (finding.benign == detect::Benign::No ? real : benign)++;
  EXPECT_EQ(real, 1u);   // read-write (10, 11)
  EXPECT_EQ(benign, 1u); // write-write (10, 10)
}

TEST_P(RaceDetector, WarpSynchronousRaceSaysSo) {
  // Lanes of one warp, ordered only by lockstep: a race on Volta and later.
  auto script = [](SyntheticRun &run) {
    run.block(0).mask(0, 0, kAllLanes).in(MemSpace::Shared).write(0, 1, 10).read(1, 2, 11);
  };
  auto independent = races(script, true);
  ASSERT_EQ(independent.size(), 1u);
  EXPECT_EQ(independent[0].detail, detect::kWarpSynchronousReason);
  EXPECT_TRUE(races(script, false).empty());
}

INSTANTIATE_TEST_SUITE_P(Representations, RaceDetector,
                         ::testing::Values(Representation::Full, Representation::Summary));

TEST(RaceRule, ActionsConflictUnlessBothReadOrBothAtomic) {
  using interp::AccessKind;
  EXPECT_FALSE(detect::actionsConflict(AccessKind::Read, AccessKind::Read));
  EXPECT_FALSE(detect::actionsConflict(AccessKind::Atomic, AccessKind::Atomic));
  EXPECT_TRUE(detect::actionsConflict(AccessKind::Read, AccessKind::Write));
  EXPECT_TRUE(detect::actionsConflict(AccessKind::Atomic, AccessKind::Read));
  EXPECT_TRUE(detect::actionsConflict(AccessKind::Write, AccessKind::Write));
}
