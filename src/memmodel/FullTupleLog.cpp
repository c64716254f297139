#include "memmodel/FullTupleLog.h"

#include "support/Assert.h"

#include <algorithm>

namespace simulee::memmodel {

void FullTupleLog::record(const Access &access, PriorAccessVisitor &visitor) {
  SIMULEE_ASSERT(tuples_.size() < UINT32_MAX, "tuple log index overflow");
  uint32_t index = uint32_t(tuples_.size());
  tuples_.push_back(access);
  Region &region = regions_.find({access.space, access.buffer, scopeOf(access.space, access.block)});
  forEachGranule(access, [&](const GranuleKey &key, ByteMask mask) {
    std::vector<uint32_t> &unit = region.units.at(key.index);
    if (unit.empty())
      ++granuleCount_;
    for (uint32_t priorIndex : unit) {
      const Access &prior = tuples_[priorIndex];
      if (!actionsCanConflict(prior.action, access.action))
        continue;
      if (bytesInGranule(prior.offset, prior.sizeBytes ? prior.sizeBytes : 1, key.index) & mask)
        visitor.visit(prior);
    }
    unit.push_back(index);
    largestUnit_ = std::max<uint64_t>(largestUnit_, unit.size());
  });
}

} // namespace simulee::memmodel
