// One candidate launch: grid and block dims plus the argument genes (scalar
// arguments, then buffer element counts, in SearchSpace order), and the
// conversions from genes back to the values a launch needs.
#pragma once

#include "evo/Dims.h"
#include "evo/SearchSpace.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace simulee::evo {

struct Solution {
  Dims grid;
  Dims block;
  // Held canonical (see canonicalGeneValue), so equal launches compare equal.
  Eigen::VectorXd genes;

  uint64_t threadCount() const { return grid.count() * block.count(); }
  bool operator==(const Solution &other) const;
};

// A gene as the kernel parameter's type sees it.
struct TypedValue {
  GeneKind kind = GeneKind::Int;
  int64_t integer = 0; // Int (buffer sizes too); the range keeps it within int64
  double real = 0;     // Float: the value, already rounded to the type
  uint64_t bits = 0;   // raw bits of the parameter type, zero-extended to 64
};

// Integers rounded to nearest and clamped into the gene's range; floats
// clamped into theirs and rounded to their width. -0 becomes +0.
double canonicalGeneValue(const Gene &gene, const Limits &limits, double value);

TypedValue typedValue(const Gene &gene, double canonicalValue);
// The gene value of a parameter's raw bits (the inverse of typedValue):
// integers sign- or zero-extended as the gene says, floats at its width.
double geneValueOfBits(const Gene &gene, uint64_t bits);
// Typed values of all genes of `solution`, in gene order.
std::vector<TypedValue> typedValues(const SearchSpace &space, const Solution &solution);

// "grid=X,Y,Z", "block=X,Y,Z", then "name=value" per scalar argument and
// "name=buffer(N)" per buffer size, for reports and progress output.
std::vector<std::string> describe(const SearchSpace &space, const Solution &solution);

} // namespace simulee::evo
