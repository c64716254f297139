#include "evo/Mutation.h"

#include "Spaces.h"
#include "evo/InitialPopulation.h"
#include "evo/Repair.h"

#include <gtest/gtest.h>

#include <cmath>

namespace simulee::evo {
namespace {

using testing::expectWithinLimits;
using testing::oneDimSpace;

// Long random walks from random starting points, across ranks and caps.
TEST(Mutation, ChildrenRespectEveryLimit) {
  Random random(11);
  for (uint32_t gridRank = 1; gridRank <= 3; ++gridRank) {
    for (uint32_t blockRank = 1; blockRank <= 3; ++blockRank) {
      SearchSpace space = oneDimSpace();
      space.grid.rank = gridRank;
      space.block.rank = blockRank;
      space.limits.maxThreads = gridRank == 3 ? 300 : uint64_t(1) << 16;
      Solution solution = randomSolution(space, random);
      for (int step = 0; step < 400; ++step) {
        auto distribution = step % 2 ? StepDistribution::Cauchy : StepDistribution::Normal;
        solution = mutate(space, solution, distribution, random);
        expectWithinLimits(space, solution);
        if (::testing::Test::HasFailure())
          return;
      }
    }
  }
}

TEST(Mutation, FixedSettingsNeverChange) {
  SearchSpace space = oneDimSpace();
  space.grid.fixed = Dims{3, 2, 1};
  space.block.rank = 2;
  space.scalars[0].fixed = 77;
  Random random(3);
  Solution solution = typicalSolution(space);
  bool blockMoved = false, scaleMoved = false;
  for (int step = 0; step < 200; ++step) {
    Solution child = mutate(space, solution, StepDistribution::Cauchy, random);
    EXPECT_EQ(child.grid, (Dims{3, 2, 1}));
    EXPECT_EQ(child.genes[0], 77);
    blockMoved |= !(child.block == solution.block);
    scaleMoved |= child.genes[1] != solution.genes[1];
    solution = child;
  }
  // The free settings did move, so the fixed ones held for a reason.
  EXPECT_TRUE(blockMoved);
  EXPECT_TRUE(scaleMoved);
}

TEST(Mutation, FixedBlockOutsideTheRankIsKept) {
  SearchSpace space = oneDimSpace();
  space.block.rank = 1;
  space.block.fixed = Dims{4, 4, 2}; // the user's choice wins over the derived rank
  Random random(4);
  Solution child = mutate(space, typicalSolution(space), StepDistribution::Normal, random);
  EXPECT_EQ(child.block, (Dims{4, 4, 2}));
}

TEST(Mutation, DimsMoveByAtMostOnePerAxisWithoutResize) {
  DimsSetting setting;
  setting.rank = 3;
  Random random(8);
  bool sawDown = false, sawUp = false;
  for (int i = 0; i < 300; ++i) {
    Dims start{10, 10, 10};
    Dims moved = stepDims(setting, start, /*mayResize=*/false, random);
    for (unsigned axis = 0; axis < 3; ++axis) {
      int delta = int(moved[axis]) - int(start[axis]);
      EXPECT_LE(std::abs(delta), 1);
      sawDown |= delta < 0;
      sawUp |= delta > 0;
    }
  }
  EXPECT_TRUE(sawDown);
  EXPECT_TRUE(sawUp);
}

TEST(Mutation, BlockResizeSometimesDoublesOrHalves) {
  DimsSetting setting;
  Random random(12);
  bool doubled = false, halved = false;
  for (int i = 0; i < 500; ++i) {
    Dims moved = stepDims(setting, Dims{40, 1, 1}, /*mayResize=*/true, random);
    doubled |= moved.x == 80;
    halved |= moved.x == 20;
    EXPECT_TRUE(moved.x == 80 || moved.x == 20 || (moved.x >= 39 && moved.x <= 41)) << moved.x;
    EXPECT_EQ(moved.y, 1u);
  }
  EXPECT_TRUE(doubled);
  EXPECT_TRUE(halved);
}

TEST(Mutation, RepairShrinksOversizedLaunches) {
  SearchSpace space = oneDimSpace();
  space.grid.rank = 2;
  space.block.rank = 3;
  space.limits.maxThreads = 4096;
  Solution solution;
  solution.grid = {500, 70000, 9};
  solution.block = {2000, 0, 100};
  solution.genes = Eigen::Vector3d(-1e20, std::nan(""), 0);
  repair(space, solution);
  expectWithinLimits(space, solution);
  EXPECT_EQ(solution.grid.z, 1u); // beyond the grid's rank
  EXPECT_EQ(solution.genes[1], 0.0);
  EXPECT_EQ(solution.genes[2], 1.0); // buffers hold at least one element
}

// Draws many children of one parent: the Cauchy child's steps have the
// heavier tail, the normal child's stay close.
TEST(Mutation, CauchyChildrenJumpFurtherThanNormalChildren) {
  SearchSpace space;
  space.scalars = {Gene::floating("x", 64)};
  space.grid.fixed = Dims{1, 1, 1};
  space.block.fixed = Dims{32, 1, 1};
  Solution parent = typicalSolution(space);
  parent.genes[0] = 0.0; // step scale 1: standard steps
  Random random(21);
  int normalFar = 0, cauchyFar = 0;
  double normalSquares = 0;
  const int draws = 10000;
  for (int i = 0; i < draws; ++i) {
    double normalStep = mutate(space, parent, StepDistribution::Normal, random).genes[0];
    double cauchyStep = mutate(space, parent, StepDistribution::Cauchy, random).genes[0];
    normalFar += std::abs(normalStep) > 10;
    cauchyFar += std::abs(cauchyStep) > 10;
    normalSquares += normalStep * normalStep;
  }
  EXPECT_EQ(normalFar, 0);
  // P(|C| > 10) = 1 - 2/pi * atan(10) ~ 6.3%.
  EXPECT_NEAR(double(cauchyFar) / draws, 0.063, 0.01);
  EXPECT_NEAR(std::sqrt(normalSquares / draws), 1.0, 0.05);
}

TEST(Mutation, IntegerStepsGrowWithTheValue) {
  EXPECT_EQ(stepScale(0), 1.0);
  EXPECT_EQ(stepScale(-400), 101.0);
  SearchSpace space = oneDimSpace();
  Random random(30);
  Solution parent = typicalSolution(space);
  parent.genes[0] = 4000;
  double largestMove = 0;
  for (int i = 0; i < 100; ++i) {
    Solution child = mutate(space, parent, StepDistribution::Normal, random);
    largestMove = std::max(largestMove, std::abs(child.genes[0] - 4000));
  }
  EXPECT_GT(largestMove, 500); // scale 1001: unit steps would never get here
}

} // namespace
} // namespace simulee::evo
