// The atomicity-violation rule of DESIGN.md, applied to the triples the
// Memory-Access Model kept (memmodel/AtomicityTracker.h): a pair of one
// thread's atomic accesses meant as one step, and another thread's atomic
// access that can run between them under the schedule in force. Under
// independent thread scheduling (the default) any lane of another warp or
// block, or of the same warp when no __syncwarp separates them; under
// --lockstep, within one warp, only an access the lockstep order put between
// the pair's two steps.
#pragma once

#include "detect/Finding.h"
#include "memmodel/MemoryModel.h"

#include <vector>

namespace simulee::detect {

// What goes wrong when a pattern's pair is interleaved, as one line.
const char *atomicityConsequence(ir::AtomicityPattern pattern);

// One finding per (space, pair of instructions); sites are the pair's first
// and second access, then the interleaved one.
std::vector<Finding> findAtomicityViolations(const memmodel::MemoryModel &model,
                                             const LaunchRecord &launch);

} // namespace simulee::detect
