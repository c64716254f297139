// Brings a proposed solution back inside its search space: fixed settings
// restored, axes beyond the rank reset to 1, dims clamped to the hardware
// limits, thread counts shrunk under their caps, genes made canonical.
// Mutation and the initial population both propose freely and then repair.
#pragma once

#include "evo/SearchSpace.h"
#include "evo/Solution.h"

namespace simulee::evo {

// Requires space.validate() to have passed.
void repair(const SearchSpace &space, Solution &solution);

} // namespace simulee::evo
