#include "evo/SearchSpace.h"

#include "support/Assert.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simulee::evo {

Gene Gene::integer(std::string name, uint32_t bits, bool isSigned) {
  Gene gene;
  gene.name = std::move(name);
  gene.bits = bits;
  gene.isSigned = isSigned;
  return gene;
}

Gene Gene::floating(std::string name, uint32_t bits) {
  Gene gene;
  gene.name = std::move(name);
  gene.kind = GeneKind::Float;
  gene.bits = bits;
  return gene;
}

Gene Gene::bufferSize(std::string name) {
  Gene gene = integer(std::move(name), 64, /*isSigned=*/false);
  gene.role = GeneRole::BufferSize;
  return gene;
}

Gene Gene::bufferFill(std::string name, uint32_t kinds) {
  Gene gene = integer(std::move(name), 32, /*isSigned=*/false);
  gene.role = GeneRole::BufferFill;
  gene.lower = 0;
  gene.upper = double(kinds - 1);
  return gene;
}

const Gene &SearchSpace::gene(size_t index) const {
  SIMULEE_ASSERT(index < geneCount(), "gene index out of range");
  return index < scalars.size() ? scalars[index] : buffers[index - scalars.size()];
}

GeneRange SearchSpace::range(size_t index) const { return geneRange(gene(index), limits); }

static GeneRange typeRange(const Gene &gene) {
  if (gene.kind == GeneKind::Float) {
    double largest = gene.bits == 16   ? 65504.0
                     : gene.bits == 32 ? double(std::numeric_limits<float>::max())
                                       : std::numeric_limits<double>::max();
    return {-largest, largest};
  }
  constexpr double exactLimit = 0x1.0p53;
  double magnitude = std::ldexp(1.0, int(gene.bits) - (gene.isSigned ? 1 : 0));
  double low = gene.isSigned ? -magnitude : 0.0;
  double high = magnitude - 1.0;
  return {std::max(low, -exactLimit), std::min(high, exactLimit)};
}

GeneRange geneRange(const Gene &gene, const Limits &limits) {
  GeneRange range = typeRange(gene);
  if (gene.role == GeneRole::BufferSize) {
    range.low = std::max(range.low, 1.0);
    range.high = std::min(range.high, double(limits.maxBufferElements));
  }
  if (gene.lower)
    range.low = std::max(range.low, *gene.lower);
  if (gene.upper)
    range.high = std::min(range.high, *gene.upper);
  return range;
}

static Status checkRank(const char *what, const DimsSetting &setting) {
  if (setting.rank >= 1 && setting.rank <= 3)
    return Ok{};
  return makeError(std::string(what) + " rank " + std::to_string(setting.rank) +
                   " is not 1, 2 or 3");
}

static Status checkFixedBlock(const Dims &block, const Limits &limits) {
  std::string shown = "block " + formatDims(block);
  if (block.x == 0 || block.y == 0 || block.z == 0)
    return makeError(shown + " has a zero dimension");
  if (block.x > limits.maxBlockDimXY || block.y > limits.maxBlockDimXY)
    return makeError(shown + " exceeds the x/y limit of " + std::to_string(limits.maxBlockDimXY));
  if (block.z > limits.maxBlockDimZ)
    return makeError(shown + " exceeds the z limit of " + std::to_string(limits.maxBlockDimZ));
  if (block.count() > limits.maxThreadsPerBlock)
    return makeError(shown + " has " + std::to_string(block.count()) + " threads; the limit is " +
                     std::to_string(limits.maxThreadsPerBlock));
  return Ok{};
}

static Status checkFixedGrid(const Dims &grid, const Limits &limits) {
  std::string shown = "grid " + formatDims(grid);
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return makeError(shown + " has a zero dimension");
  if (grid.x > limits.maxGridDimX || grid.y > limits.maxGridDimYZ || grid.z > limits.maxGridDimYZ)
    return makeError(shown + " exceeds the grid dimension limits");
  return Ok{};
}

static Status checkGene(const Gene &gene, const Limits &limits) {
  std::string shown = "argument '" + gene.name + "'";
  bool intWidthOk = gene.bits >= 1 && gene.bits <= 64;
  bool floatWidthOk = gene.bits == 16 || gene.bits == 32 || gene.bits == 64;
  if (gene.kind == GeneKind::Int ? !intWidthOk : !floatWidthOk)
    return makeError(shown + " has an unsupported width of " + std::to_string(gene.bits) + " bits");
  if (gene.role != GeneRole::Scalar && gene.kind != GeneKind::Int)
    return makeError(shown + ": a buffer size or fill must be an integer");
  GeneRange range = geneRange(gene, limits);
  if (range.low > range.high)
    return makeError(shown + " has no value within its bounds");
  if (gene.fixed && (*gene.fixed < range.low || *gene.fixed > range.high))
    return makeError(shown + " = " + std::to_string(*gene.fixed) + " is out of its range");
  return Ok{};
}

Status SearchSpace::validate() const {
  if (Status status = checkRank("grid", grid); !status)
    return status;
  if (Status status = checkRank("block", block); !status)
    return status;
  if (limits.maxThreads == 0)
    return makeError("the total-thread limit must be at least 1");
  if (block.fixed)
    if (Status status = checkFixedBlock(*block.fixed, limits); !status)
      return status;
  if (grid.fixed)
    if (Status status = checkFixedGrid(*grid.fixed, limits); !status)
      return status;
  // Free dims can shrink to 1, so only the fixed ones bound the smallest launch.
  uint64_t fewestThreads =
      (grid.fixed ? grid.fixed->count() : 1) * (block.fixed ? block.fixed->count() : 1);
  if (fewestThreads > limits.maxThreads)
    return makeError("the fixed launch has " + std::to_string(fewestThreads) +
                     " threads; the limit is " + std::to_string(limits.maxThreads));
  for (size_t index = 0; index < geneCount(); ++index)
    if (Status status = checkGene(gene(index), limits); !status)
      return status;
  return Ok{};
}

} // namespace simulee::evo
