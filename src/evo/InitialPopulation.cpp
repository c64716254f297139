#include "evo/InitialPopulation.h"

#include "evo/Mutation.h"
#include "evo/Repair.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace simulee::evo {

static Dims typicalBlock(uint32_t rank) {
  if (rank == 1)
    return {64, 1, 1};
  if (rank == 2)
    return {8, 8, 1};
  return {4, 4, 4};
}

static Dims typicalGrid(uint32_t rank) {
  Dims grid;
  for (unsigned axis = 0; axis < rank; ++axis)
    grid[axis] = 2;
  return grid;
}

static double typicalGene(const Gene &gene, uint64_t threads) {
  if (gene.kind == GeneKind::Float)
    return 1.0;
  if (gene.role == GeneRole::BufferFill)
    return 0.0;
  return double(threads);
}

// A value a gene's code conventionally takes, near `value`: for an integer
// it masks with, the least power of two of at least both, or the largest
// inside its range; `value` as it is for any other gene.
static double conventionalGene(const SearchSpace &space, size_t index, double value) {
  const Gene &gene = space.gene(index);
  if (gene.kind != GeneKind::Int || gene.powerOfTwoFrom == 0 || gene.fixed)
    return value;
  GeneRange range = space.range(index);
  double power = double(gene.powerOfTwoFrom);
  while (power < std::max(value, range.low) && power * 2 <= range.high)
    power *= 2;
  return power <= range.high ? power : value;
}

Solution typicalSolution(const SearchSpace &space) {
  Solution solution;
  solution.grid = typicalGrid(space.grid.rank);
  solution.block = typicalBlock(space.block.rank);
  solution.genes = Eigen::VectorXd::Zero(Eigen::Index(space.geneCount()));
  repair(space, solution); // dims first: the genes depend on the thread count
  for (size_t index = 0; index < space.geneCount(); ++index)
    solution.genes[Eigen::Index(index)] =
        conventionalGene(space, index, typicalGene(space.gene(index), solution.threadCount()));
  repair(space, solution);
  return solution;
}

static uint32_t randomPowerOfTwo(uint32_t atMost, Random &random) {
  uint32_t maxExponent = uint32_t(std::bit_width(atMost)) - 1;
  return uint32_t(1) << random.uniformInt(0, maxExponent);
}

static Dims randomBlock(uint32_t rank, Random &random) {
  Dims block;
  if (rank == 1) {
    block.x = random.chance(0.5) ? 32 * uint32_t(random.uniformInt(1, 8))
                                 : uint32_t(random.uniformInt(1, 256));
    return block;
  }
  static constexpr uint32_t axisMax[2][3] = {{32, 16, 1}, {16, 8, 4}};
  for (unsigned axis = 0; axis < rank; ++axis) {
    uint32_t atMost = axisMax[rank - 2][axis];
    block[axis] = random.chance(0.5) ? randomPowerOfTwo(atMost, random)
                                     : uint32_t(random.uniformInt(1, atMost));
  }
  return block;
}

static Dims randomGrid(uint32_t rank, Random &random) {
  Dims grid;
  for (unsigned axis = 0; axis < rank; ++axis)
    grid[axis] = uint32_t(random.uniformInt(1, 4));
  return grid;
}

// A uniform draw from [windowLow, windowHigh] slid (not stretched) inside the
// gene's range when the two do not overlap, then cut to the range.
static double sampleInWindow(const Gene &gene, GeneRange range, double windowLow, double windowHigh,
                             Random &random) {
  double width = windowHigh - windowLow;
  if (windowLow > range.high) {
    windowHigh = range.high;
    windowLow = range.high - width;
  } else if (windowHigh < range.low) {
    windowLow = range.low;
    windowHigh = range.low + width;
  }
  double low = std::max(windowLow, range.low);
  double high = std::min(windowHigh, range.high);
  if (gene.kind == GeneKind::Float)
    return low + random.uniform() * (high - low);
  int64_t lowInt = int64_t(std::ceil(low)), highInt = int64_t(std::floor(high));
  if (lowInt > highInt) // no integer inside; repair picks the nearest one
    return low;
  return double(random.uniformInt(lowInt, highInt));
}

static double randomGene(const SearchSpace &space, size_t index, const Solution &solution,
                         Random &random) {
  const Gene &gene = space.gene(index);
  GeneRange range = space.range(index);
  if (gene.role == GeneRole::BufferSize) {
    double threads = double(solution.threadCount());
    return sampleInWindow(gene, range, threads, 2 * threads, random);
  }
  if (gene.role == GeneRole::BufferFill)
    return double(random.uniformInt(int64_t(range.low), int64_t(range.high)));
  return sampleInWindow(gene, range, 0, 2 * double(solution.block.count()), random);
}

Solution randomSolution(const SearchSpace &space, Random &random) {
  Solution solution;
  solution.grid = randomGrid(space.grid.rank, random);
  solution.block = randomBlock(space.block.rank, random);
  solution.genes = Eigen::VectorXd::Zero(Eigen::Index(space.geneCount()));
  repair(space, solution); // dims first: the gene windows depend on them
  for (size_t index = 0; index < space.geneCount(); ++index)
    solution.genes[Eigen::Index(index)] =
        conventionalGene(space, index, randomGene(space, index, solution, random));
  repair(space, solution);
  return solution;
}

std::vector<Solution> initialPopulation(const SearchSpace &space, size_t size, Random &random,
                                        const std::optional<Solution> &start) {
  std::vector<Solution> population;
  if (size == 0)
    return population;
  if (start) {
    population.push_back(*start);
    repair(space, population.front());
    while (population.size() < size)
      population.push_back(mutate(space, population.front(),
                                  population.size() % 2 ? StepDistribution::Normal
                                                        : StepDistribution::Cauchy,
                                  random));
    return population;
  }
  population.push_back(typicalSolution(space));
  while (population.size() < size)
    population.push_back(randomSolution(space, random));
  return population;
}

} // namespace simulee::evo
