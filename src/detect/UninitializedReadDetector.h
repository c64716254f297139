// Reads of shared memory no thread of the block had written, as their own
// finding kind (compute-sanitizer's initcheck): one finding per instruction.
#pragma once

#include "detect/Finding.h"
#include "memmodel/MemoryModel.h"

#include <vector>

namespace simulee::detect {

std::vector<Finding> findUninitializedReads(const memmodel::MemoryModel &model,
                                            const LaunchRecord &launch);

} // namespace simulee::detect
