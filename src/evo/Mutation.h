// The paper's mutation (Algorithm 2): a child adds standard-normal or
// standard-Cauchy steps to its parent's argument genes and moves each free
// dim by -1, 0 or +1; the result is repaired back inside the search space.
#pragma once

#include "evo/Random.h"
#include "evo/SearchSpace.h"
#include "evo/Solution.h"

#include <cstdint>

namespace simulee::evo {

enum class StepDistribution : uint8_t { Normal, Cauchy };

// The factor a standard step is multiplied by for a gene now at `value`:
// 1 + |value| / 4. Near zero this is the paper's standard step; further out
// the step grows with the value, so an integer at 500 is not stuck moving by
// one, and a Cauchy draw of 10 (a few percent of draws) jumps it by ~1250.
double stepScale(double value);

// Moves each free axis below the rank by a random -1/0/+1. Extension to the
// paper, for blocks only (`mayResize`): one axis in eight doubles or halves
// instead, since thresholds like "block.x >= 64" or "a second warp" are many
// unit steps away from where a search starts. Not repaired.
Dims stepDims(const DimsSetting &setting, Dims dims, bool mayResize, Random &random);

// A repaired child of `parent`; fixed genes and dims stay as they are.
Solution mutate(const SearchSpace &space, const Solution &parent, StepDistribution distribution,
                Random &random);

} // namespace simulee::evo
