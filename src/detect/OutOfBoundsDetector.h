// Out-of-bounds accesses as their own finding kind (never a crash): one
// finding per instruction, from the interpreter's OutOfBoundsEvents.
#pragma once

#include "detect/Finding.h"
#include "memmodel/MemoryModel.h"

#include <string>
#include <vector>

namespace simulee::detect {

std::string outOfBoundsReason(const interp::OutOfBoundsEvent &event);

std::vector<Finding> findOutOfBounds(const memmodel::MemoryModel &model,
                                     const LaunchRecord &launch);

} // namespace simulee::detect
