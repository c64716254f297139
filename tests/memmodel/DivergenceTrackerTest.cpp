#include "memmodel/DivergenceTracker.h"
#include "SyntheticRun.h"

#include <gtest/gtest.h>

using simulee::memmodel::DivergenceTracker;
using simulee::testing::kAllLanes;
using simulee::testing::lanes;

TEST(DivergenceTracker, LanesActiveTogetherNowAreOrdered) {
  DivergenceTracker tracker;
  tracker.onMaskChange(0, 0, kAllLanes);
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 1, 3, 2, 7));
}

TEST(DivergenceTracker, OtherSideOfBranchIsDiverged) {
  DivergenceTracker tracker;
  tracker.onMaskChange(0, 0, lanes({0, 1, 2, 3}));
  tracker.onMaskChange(0, 5, lanes({0, 1})); // then-side, steps 5..9
  tracker.onMaskChange(0, 10, lanes({2, 3})); // else-side, steps 10..
  // Lane 0 at step 6 (then), lane 2 at step 11 (else): never together since.
  EXPECT_FALSE(tracker.hadCommonActiveStep(0, 0, 6, 2, 11));
  // Lane 0 at step 4, before the branch: both were active at step 4.
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 0, 4, 2, 11));
  // Lanes on one side stay together.
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 2, 10, 3, 12));
}

TEST(DivergenceTracker, ReconvergenceOrdersTheTwoSides) {
  DivergenceTracker tracker;
  tracker.onMaskChange(0, 0, lanes({0, 1}));
  tracker.onMaskChange(0, 2, lanes({0}));
  tracker.onMaskChange(0, 4, lanes({1}));
  tracker.onMaskChange(0, 6, lanes({0, 1})); // reconverged at step 6
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 0, 3, 1, 6));
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 0, 3, 1, 9));
  // After reconvergence, diverging again: the reconvergence step 6 is common
  // to an access at step 3 and one at step 12.
  tracker.onMaskChange(0, 8, lanes({1}));
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 0, 3, 1, 12));
  // But an access of lane 0 at step 8 cannot be: lane 0 is not active there;
  // one at step 7 (both active) is ordered with lane 1 at step 9.
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 0, 7, 1, 9));
}

// Queries are made online, as the later access executes (s2 = now).
TEST(DivergenceTracker, NestedDivergenceKeepsInnerSidesApart) {
  DivergenceTracker tracker;
  tracker.onMaskChange(0, 0, lanes({0, 1, 2, 3}));
  tracker.onMaskChange(0, 1, lanes({0, 1})); // outer then
  tracker.onMaskChange(0, 2, lanes({0}));    // inner then
  tracker.onMaskChange(0, 4, lanes({1}));    // inner else
  EXPECT_FALSE(tracker.hadCommonActiveStep(0, 0, 3, 1, 5)); // inner sides
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 0, 1, 1, 5));  // before inner branch
  tracker.onMaskChange(0, 6, lanes({0, 1})); // inner reconverge
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 0, 3, 1, 7));
  tracker.onMaskChange(0, 8, lanes({2, 3})); // outer else
  EXPECT_FALSE(tracker.hadCommonActiveStep(0, 1, 7, 2, 9)); // outer sides
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 1, 0, 2, 9));  // before outer branch
  tracker.onMaskChange(0, 10, lanes({0, 1, 2, 3})); // outer reconverge
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 1, 7, 2, 10));
}

TEST(DivergenceTracker, LoopWithDivergentExitLeavesExitedLaneApart) {
  DivergenceTracker tracker;
  tracker.onMaskChange(0, 0, lanes({0, 1}));
  // Lane 0 leaves the loop at step 3 and waits at the exit; lane 1 iterates.
  tracker.onMaskChange(0, 3, lanes({1}));
  // Lane 0 in its last iteration (step 2) vs lane 1 still looping (step 15):
  // step 2 was common.
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 0, 2, 1, 15));
  // Lane 1 alone in the loop at step 4: lane 0 has not been active since.
  EXPECT_FALSE(tracker.hadCommonActiveStep(0, 1, 4, 0, 15));
  tracker.onMaskChange(0, 20, lanes({0, 1})); // loop exit: reconverged
  // Lane 1 in the loop at step 10 vs lane 0 after the loop at step 21.
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 1, 10, 0, 21));
  EXPECT_TRUE(tracker.hadCommonActiveStep(0, 0, 3, 1, 21));
}

TEST(DivergenceTracker, TwoMaskChangesAtOneStepMakeNoCommonStep) {
  DivergenceTracker tracker;
  tracker.onMaskChange(0, 0, lanes({0}));
  tracker.onMaskChange(0, 5, lanes({0, 1})); // replaced before any step ran
  tracker.onMaskChange(0, 5, lanes({1}));
  EXPECT_FALSE(tracker.hadCommonActiveStep(0, 0, 4, 1, 6));
}

TEST(DivergenceTracker, WarpsAreIndependentAndResetPerBlock) {
  DivergenceTracker tracker;
  tracker.onMaskChange(0, 0, lanes({0, 1}));
  tracker.onMaskChange(1, 0, lanes({0}));
  EXPECT_FALSE(tracker.hadCommonActiveStep(1, 0, 0, 1, 1));
  tracker.beginBlock();
  EXPECT_FALSE(tracker.hadCommonActiveStep(0, 0, 0, 1, 1));
  EXPECT_EQ(tracker.activeMask(0), 0u);
}

TEST(DivergenceTracker, WarpSyncBetweenNeedsBothLanesAndTheInterval) {
  DivergenceTracker tracker;
  tracker.onMaskChange(0, 0, kAllLanes);
  tracker.onWarpSync(0, 5, lanes({0, 1}));
  EXPECT_TRUE(tracker.warpSyncBetween(0, 0, 3, 1, 7));
  EXPECT_FALSE(tracker.warpSyncBetween(0, 0, 5, 1, 7)); // sync not after s1
  EXPECT_FALSE(tracker.warpSyncBetween(0, 0, 3, 2, 7)); // lane 2 not in mask
  EXPECT_FALSE(tracker.warpSyncBetween(0, 0, 6, 1, 8));
}
