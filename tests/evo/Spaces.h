// Search spaces and checks shared by the evo tests.
#pragma once

#include "evo/SearchSpace.h"
#include "evo/Solution.h"

#include <gtest/gtest.h>

#include <cmath>

namespace simulee::evo::testing {

// A 1-D kernel `k(int n, float scale, T *data)` with `data` auto-sized.
inline SearchSpace oneDimSpace() {
  SearchSpace space;
  space.scalars = {Gene::integer("n", 32, true), Gene::floating("scale", 32)};
  space.buffers = {Gene::bufferSize("data")};
  return space;
}

// Every launch limit, checked directly rather than through repair().
inline void expectWithinLimits(const SearchSpace &space, const Solution &solution) {
  const Limits &limits = space.limits;
  for (unsigned axis = 0; axis < 3; ++axis) {
    EXPECT_GE(solution.grid[axis], 1u);
    EXPECT_GE(solution.block[axis], 1u);
    if (space.grid.isFree() && axis >= space.grid.rank) {
      EXPECT_EQ(solution.grid[axis], 1u) << "grid axis " << axis << " beyond the rank";
    }
    if (space.block.isFree() && axis >= space.block.rank) {
      EXPECT_EQ(solution.block[axis], 1u) << "block axis " << axis << " beyond the rank";
    }
  }
  EXPECT_LE(solution.block.count(), limits.maxThreadsPerBlock);
  EXPECT_LE(solution.block.z, limits.maxBlockDimZ);
  EXPECT_LE(solution.grid.y, limits.maxGridDimYZ);
  EXPECT_LE(solution.grid.z, limits.maxGridDimYZ);
  EXPECT_LE(solution.threadCount(), limits.maxThreads);
  ASSERT_EQ(size_t(solution.genes.size()), space.geneCount());
  for (size_t index = 0; index < space.geneCount(); ++index) {
    GeneRange range = space.range(index);
    double value = solution.genes[Eigen::Index(index)];
    EXPECT_GE(value, range.low) << space.gene(index).name;
    EXPECT_LE(value, range.high) << space.gene(index).name;
    if (space.gene(index).kind == GeneKind::Int) {
      EXPECT_EQ(value, std::nearbyint(value)) << space.gene(index).name;
    }
  }
}

} // namespace simulee::evo::testing
