// The redundant-barrier rule of DESIGN.md over many launches of one kernel: a
// barrier is redundant when every executed instance, in every launch, only
// separates visit orders whose tuples could be merged without a race; a
// barrier no launch executed is reported as unreached (a note) instead.
#pragma once

#include "detect/Finding.h"
#include "memmodel/AccessPair.h"
#include "memmodel/MemoryModel.h"

#include <cstdint>
#include <map>
#include <vector>

namespace simulee::detect {

// Would two accesses on either side of a barrier race if the barrier were
// removed, i.e. if they were in one visit order? Same-warp pairs that are
// lockstep-ordered do not count.
bool mergeWouldRace(const memmodel::BarrierCrossing &crossing, bool independentThreads);

// A barrier instance is needed when merging the visit orders it separates
// would create a race.
bool isNeeded(const memmodel::BarrierInstance &instance, bool independentThreads);

class RedundantBarrierDetector {
public:
  // The kernel's barrier instructions, as the program lists them.
  // `carryingValue`: barriers whose result the kernel uses
  // (__syncthreads_count/and/or). They communicate through the barrier
  // itself, so removing one is never harmless: they are never redundant.
  explicit RedundantBarrierDetector(std::vector<uint32_t> barrierInstructions,
                                    std::vector<uint32_t> carryingValue = {});

  // Adds the launches `other` saw, as if they had been added here after ours.
  void merge(const RedundantBarrierDetector &other);

  void addLaunch(const memmodel::MemoryModel &model, const LaunchRecord &launch);
  // Redundant barriers and unreached-barrier notes.
  std::vector<Finding> findings() const;

private:
  struct BarrierHistory {
    bool executed = false;
    bool needed = false; // in some instance of some launch
    uint64_t instances = 0;
    uint32_t launches = 0;
    uint32_t exampleBlock = 0;
    LaunchRecord exampleLaunch; // the first launch that executed it
  };

  std::map<uint32_t, BarrierHistory> history_;
};

} // namespace simulee::detect
