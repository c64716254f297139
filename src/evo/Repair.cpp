#include "evo/Repair.h"

#include "support/Assert.h"

#include <algorithm>
#include <optional>

namespace simulee::evo {

static uint32_t blockAxisLimit(const Limits &limits, unsigned axis) {
  return axis == 2 ? limits.maxBlockDimZ : limits.maxBlockDimXY;
}

static uint32_t gridAxisLimit(const Limits &limits, unsigned axis) {
  return axis == 0 ? limits.maxGridDimX : limits.maxGridDimYZ;
}

template <class AxisLimit>
static void clampDims(const DimsSetting &setting, Dims &dims, AxisLimit axisLimit) {
  if (setting.fixed) {
    dims = *setting.fixed;
    return;
  }
  for (unsigned axis = 0; axis < 3; ++axis)
    dims[axis] = setting.isFreeAxis(axis) ? std::clamp(dims[axis], 1u, axisLimit(axis)) : 1;
}

// The free axis with the largest extent above 1, if any: halving it removes
// the most threads while keeping the shape's other axes.
static std::optional<unsigned> largestShrinkableAxis(const DimsSetting &setting, const Dims &dims) {
  std::optional<unsigned> largest;
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (!setting.isFreeAxis(axis) || dims[axis] <= 1)
      continue;
    if (!largest || dims[axis] > dims[*largest])
      largest = axis;
  }
  return largest;
}

static void halve(Dims &dims, unsigned axis) { dims[axis] = std::max(1u, dims[axis] / 2); }

static void shrinkBlockToLimit(const SearchSpace &space, Solution &solution) {
  while (solution.block.count() > space.limits.maxThreadsPerBlock) {
    std::optional<unsigned> axis = largestShrinkableAxis(space.block, solution.block);
    SIMULEE_ASSERT(axis, "a validated space always has a block within the limit");
    halve(solution.block, *axis);
  }
}

// Grid first: fewer blocks keeps the block shape, which decides intra-block
// conflicts, the bugs most kernels have.
static void shrinkLaunchToLimit(const SearchSpace &space, Solution &solution) {
  while (solution.threadCount() > space.limits.maxThreads) {
    if (std::optional<unsigned> axis = largestShrinkableAxis(space.grid, solution.grid)) {
      halve(solution.grid, *axis);
      continue;
    }
    std::optional<unsigned> axis = largestShrinkableAxis(space.block, solution.block);
    SIMULEE_ASSERT(axis, "a validated space always has a launch within the limit");
    halve(solution.block, *axis);
  }
}

static void repairGenes(const SearchSpace &space, Solution &solution) {
  if (size_t(solution.genes.size()) != space.geneCount())
    solution.genes = Eigen::VectorXd::Zero(Eigen::Index(space.geneCount()));
  for (size_t index = 0; index < space.geneCount(); ++index) {
    const Gene &gene = space.gene(index);
    double &value = solution.genes[Eigen::Index(index)];
    value = canonicalGeneValue(gene, space.limits, gene.fixed ? *gene.fixed : value);
  }
}

void repair(const SearchSpace &space, Solution &solution) {
  const Limits &limits = space.limits;
  clampDims(space.grid, solution.grid, [&](unsigned axis) { return gridAxisLimit(limits, axis); });
  clampDims(space.block, solution.block,
            [&](unsigned axis) { return blockAxisLimit(limits, axis); });
  shrinkBlockToLimit(space, solution);
  shrinkLaunchToLimit(space, solution);
  repairGenes(space, solution);
}

} // namespace simulee::evo
