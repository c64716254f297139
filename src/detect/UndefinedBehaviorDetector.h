// Undefined behaviour a thread executed (shift by at least the bit width,
// integer division by zero or INT_MIN / -1, null, wild or misaligned
// pointers) as its own finding kind: one finding per instruction, from the
// interpreter's UndefinedBehaviorEvents. The thread stopped there.
#pragma once

#include "detect/Finding.h"
#include "memmodel/MemoryModel.h"

#include <string>
#include <vector>

namespace simulee::detect {

// "integer division by zero in a 32-bit udiv", ...
std::string undefinedBehaviorReason(const interp::UndefinedBehaviorEvent &event);

std::vector<Finding> findUndefinedBehavior(const memmodel::MemoryModel &model,
                                           const LaunchRecord &launch);

} // namespace simulee::detect
