// The data-race rule of DESIGN.md, applied to the access pairs the Memory-
// Access Model kept (one example per distinct set of ordering facts).
#pragma once

#include "detect/Finding.h"
#include "memmodel/AccessPair.h"
#include "memmodel/MemoryModel.h"

#include <vector>

namespace simulee::detect {

// At least one of the two is a write (an atomic counts as one), and they are
// not both atomic.
bool actionsConflict(interp::AccessKind a, interp::AccessKind b);

// Two accesses of one warp in one visit order race when they were on
// different sides of a divergent branch (no common active step), or are one
// store executed by several lanes in one step; with independent thread
// scheduling, whenever no __syncwarp separates them.
bool sameWarpAccessesRace(const memmodel::WarpOrdering &ordering, bool oneStoreOneStep,
                          bool independentThreads);

// Overlapping bytes (guaranteed by the model), conflicting actions, different
// threads, and: different blocks on global memory; or one visit order and
// different warps; or one visit order, one warp, and unordered as above.
bool racesWith(const memmodel::AccessPair &pair, bool independentThreads);

// The detail of races that exist only under independent thread scheduling.
inline constexpr const char *kWarpSynchronousReason =
    "lanes of one warp with no __syncwarp between them; warp-synchronous: safe only on "
    "pre-Volta lockstep warps";

// Why a racing pair races, as one line for Finding::detail.
const char *raceReason(const memmodel::AccessPair &pair);

// How convincing a race finding's example is: 0 a same-value (benign) race,
// 1 a race only under independent thread scheduling (warp-synchronous), 2
// any other. A finding keeps its most convincing example; it is benign only
// if every example is.
int exampleStrength(const Finding &finding);

// One finding per (space, instruction pair) among the model's pairs.
std::vector<Finding> findDataRaces(const memmodel::MemoryModel &model, const LaunchRecord &launch);

} // namespace simulee::detect
