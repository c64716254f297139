#include "evo/Solution.h"

#include "evo/HalfFloat.h"
#include "support/Assert.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>

namespace simulee::evo {

bool Solution::operator==(const Solution &other) const {
  return grid == other.grid && block == other.block && genes.size() == other.genes.size() &&
         genes == other.genes;
}

static double roundToFloatWidth(double value, uint32_t bits) {
  if (bits == 32)
    return double(float(value));
  if (bits == 16)
    return fromHalfBits(toHalfBits(float(value)));
  return value;
}

double canonicalGeneValue(const Gene &gene, const Limits &limits, double value) {
  GeneRange range = geneRange(gene, limits);
  if (std::isnan(value))
    value = 0.0;
  if (gene.kind == GeneKind::Int)
    value = std::nearbyint(value);
  value = std::clamp(value, range.low, range.high);
  if (gene.kind == GeneKind::Float)
    value = roundToFloatWidth(value, gene.bits);
  return value + 0.0; // turns -0 into +0
}

static uint64_t lowBitsMask(uint32_t bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

TypedValue typedValue(const Gene &gene, double canonicalValue) {
  TypedValue typed;
  typed.kind = gene.kind;
  if (gene.kind == GeneKind::Int) {
    typed.integer = int64_t(canonicalValue);
    typed.bits = uint64_t(typed.integer) & lowBitsMask(gene.bits);
    return typed;
  }
  typed.real = canonicalValue;
  if (gene.bits == 64)
    typed.bits = std::bit_cast<uint64_t>(canonicalValue);
  else if (gene.bits == 32)
    typed.bits = std::bit_cast<uint32_t>(float(canonicalValue));
  else
    typed.bits = toHalfBits(float(canonicalValue));
  return typed;
}

double geneValueOfBits(const Gene &gene, uint64_t bits) {
  if (gene.kind == GeneKind::Int) {
    uint64_t low = bits & lowBitsMask(gene.bits);
    if (!gene.isSigned || gene.bits >= 64)
      return gene.isSigned ? double(int64_t(low)) : double(low);
    uint64_t sign = uint64_t(1) << (gene.bits - 1);
    return double(int64_t((low ^ sign) - sign));
  }
  if (gene.bits == 64)
    return std::bit_cast<double>(bits);
  if (gene.bits == 32)
    return double(std::bit_cast<float>(uint32_t(bits)));
  return fromHalfBits(uint16_t(bits));
}

std::vector<TypedValue> typedValues(const SearchSpace &space, const Solution &solution) {
  SIMULEE_ASSERT(size_t(solution.genes.size()) == space.geneCount(), "gene count mismatch");
  std::vector<TypedValue> values;
  values.reserve(space.geneCount());
  for (size_t index = 0; index < space.geneCount(); ++index)
    values.push_back(typedValue(space.gene(index), solution.genes[Eigen::Index(index)]));
  return values;
}

static std::string formatValue(const Gene &gene, const TypedValue &typed) {
  if (gene.kind == GeneKind::Int)
    return std::to_string(typed.integer);
  // Shortest text that reads back to the same value at the type's width.
  char text[64];
  auto written = gene.bits == 64 ? std::to_chars(text, text + sizeof text, typed.real)
                                 : std::to_chars(text, text + sizeof text, float(typed.real));
  return std::string(text, written.ptr);
}

std::vector<std::string> describe(const SearchSpace &space, const Solution &solution) {
  std::vector<std::string> lines = {"grid=" + formatDims(solution.grid),
                                    "block=" + formatDims(solution.block)};
  std::vector<TypedValue> values = typedValues(space, solution);
  for (size_t index = 0; index < values.size(); ++index) {
    const Gene &gene = space.gene(index);
    std::string value = formatValue(gene, values[index]);
    if (gene.role == GeneRole::BufferSize)
      value = "buffer(" + value + ")";
    else if (gene.role == GeneRole::BufferFill)
      value = "fill(" + value + ")";
    lines.push_back(gene.name + "=" + value);
  }
  return lines;
}

} // namespace simulee::evo
