#include "evo/Mutation.h"

#include "evo/Repair.h"
#include "support/Assert.h"

#include <algorithm>
#include <cmath>

namespace simulee::evo {

double stepScale(double value) { return 1.0 + std::abs(value) / 4.0; }

static double drawStep(StepDistribution distribution, Random &random) {
  return distribution == StepDistribution::Normal ? random.normal() : random.cauchy();
}

static uint32_t resizedAxis(uint32_t extent, Random &random) {
  return random.chance(0.5) ? extent * 2 : extent / 2;
}

Dims stepDims(const DimsSetting &setting, Dims dims, bool mayResize, Random &random) {
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (!setting.isFreeAxis(axis))
      continue;
    if (mayResize && random.chance(1.0 / 8)) {
      dims[axis] = resizedAxis(dims[axis], random);
      continue;
    }
    // Computed in 64 bits: the step may take an extent of 1 to 0 (repair
    // lifts it back) but must not wrap around.
    int64_t moved = int64_t(dims[axis]) + random.ternaryStep();
    dims[axis] = uint32_t(std::max<int64_t>(moved, 0));
  }
  return dims;
}

Solution mutate(const SearchSpace &space, const Solution &parent, StepDistribution distribution,
                Random &random) {
  SIMULEE_ASSERT(size_t(parent.genes.size()) == space.geneCount(), "parent from another space");
  Eigen::VectorXd steps = Eigen::VectorXd::Zero(parent.genes.size());
  for (size_t index = 0; index < space.geneCount(); ++index)
    if (!space.gene(index).fixed)
      steps[Eigen::Index(index)] = drawStep(distribution, random);
  Solution child = parent;
  child.genes += parent.genes.unaryExpr(&stepScale).cwiseProduct(steps);
  child.grid = stepDims(space.grid, child.grid, /*mayResize=*/false, random);
  child.block = stepDims(space.block, child.block, /*mayResize=*/true, random);
  repair(space, child);
  return child;
}

} // namespace simulee::evo
