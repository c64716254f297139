#include "evo/InitialPopulation.h"

#include "Spaces.h"

#include <gtest/gtest.h>

#include <set>

namespace simulee::evo {
namespace {

using testing::expectWithinLimits;
using testing::oneDimSpace;

TEST(InitialPopulation, TypicalSolutionComesFirst) {
  SearchSpace space = oneDimSpace();
  Random random(1);
  std::vector<Solution> population = initialPopulation(space, 10, random);
  ASSERT_EQ(population.size(), 10u);
  EXPECT_EQ(population[0], typicalSolution(space));
}

TEST(InitialPopulation, AStartLaunchComesFirstWithItsMutantsAround) {
  // exec --search starts from the launch the program made, not from the
  // typical and random launches.
  SearchSpace space = oneDimSpace();
  Solution start;
  start.grid = {40, 1, 1};
  start.block = {256, 1, 1};
  start.genes = Eigen::VectorXd(3);
  start.genes << 10000, 0.5, 12000;
  Random random(3);
  std::vector<Solution> population = initialPopulation(space, 6, random, start);
  ASSERT_EQ(population.size(), 6u);
  EXPECT_EQ(population[0], start);
  for (size_t i = 1; i < population.size(); ++i) {
    expectWithinLimits(space, population[i]);
    EXPECT_NE(population[i], start) << i;
    // Steps scale with the value (1 + |v| / 4): a mutant of n = 10000 stays
    // within a few of those steps, never near a random launch's n of ~100.
    EXPECT_GT(population[i].genes[0], 100) << i;
    EXPECT_LE(population[i].grid.x, 41u) << i;
    EXPECT_GE(population[i].grid.x, 39u) << i;
  }
}

TEST(InitialPopulation, TypicalSolutionPerRank) {
  SearchSpace space = oneDimSpace();
  Solution oneDim = typicalSolution(space);
  EXPECT_EQ(oneDim.block, (Dims{64, 1, 1}));
  EXPECT_EQ(oneDim.grid, (Dims{2, 1, 1}));
  EXPECT_EQ(oneDim.genes[0], 128); // n = thread count
  EXPECT_EQ(oneDim.genes[1], 1.0);
  EXPECT_EQ(oneDim.genes[2], 128);
  space.block.rank = 2;
  EXPECT_EQ(typicalSolution(space).block, (Dims{8, 8, 1}));
  space.block.rank = 3;
  EXPECT_EQ(typicalSolution(space).block, (Dims{4, 4, 4}));
}

TEST(InitialPopulation, RandomSolutionsAreInsideAndVaried) {
  Random random(2);
  for (uint32_t rank = 1; rank <= 3; ++rank) {
    SearchSpace space = oneDimSpace();
    space.grid.rank = rank;
    space.block.rank = rank;
    std::set<uint64_t> blockSizes;
    bool sawWarpMultiple = false, sawOther = false;
    for (int i = 0; i < 200; ++i) {
      Solution solution = randomSolution(space, random);
      expectWithinLimits(space, solution);
      blockSizes.insert(solution.block.count());
      sawWarpMultiple |= solution.block.count() % 32 == 0;
      sawOther |= solution.block.count() % 32 != 0;
      double blockThreads = double(solution.block.count());
      EXPECT_GE(solution.genes[0], 0);
      EXPECT_LE(solution.genes[0], 2 * blockThreads);
      EXPECT_GE(solution.genes[2], double(solution.threadCount()));
      EXPECT_LE(solution.genes[2], 2 * double(solution.threadCount()));
    }
    EXPECT_GT(blockSizes.size(), 20u) << "rank " << rank;
    EXPECT_TRUE(sawWarpMultiple) << "rank " << rank;
    EXPECT_TRUE(sawOther) << "rank " << rank;
  }
}

TEST(InitialPopulation, ArgumentWindowSlidesInsideUserBounds) {
  SearchSpace space = oneDimSpace();
  space.scalars[0].lower = 100000;
  space.scalars[0].upper = 100010;
  space.scalars[1].upper = -50;
  Random random(3);
  for (int i = 0; i < 50; ++i) {
    Solution solution = randomSolution(space, random);
    EXPECT_GE(solution.genes[0], 100000);
    EXPECT_LE(solution.genes[0], 100010);
    EXPECT_LE(solution.genes[1], -50);
    EXPECT_GE(solution.genes[1], -50 - 2 * double(solution.block.count()));
  }
}

} // namespace
} // namespace simulee::evo
