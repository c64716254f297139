// The barrier-divergence rule of DESIGN.md: the interpreter sees the
// divergence itself (part of a warp at a barrier, threads exited or waiting at
// another barrier); this turns its events into one finding per
// (barrier instruction, other instruction).
#pragma once

#include "detect/Finding.h"
#include "memmodel/MemoryModel.h"

#include <vector>

namespace simulee::detect {

const char *divergenceReason(interp::BarrierDivergenceEvent::Cause cause);

std::vector<Finding> findBarrierDivergences(const memmodel::MemoryModel &model,
                                            const LaunchRecord &launch);

} // namespace simulee::detect
