#include "memmodel/NamedBarrierOrder.h"

#include <algorithm>

namespace simulee::memmodel {

void NamedBarrierOrder::beginBlock() {
  if (!used_)
    return;
  used_ = false;
  knows_.clear();
  for (Clock &clock : pending_)
    clock.clear();
}

void NamedBarrierOrder::join(Clock &into, const Clock &from) {
  if (into.size() < from.size())
    into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i)
    into[i] = std::max(into[i], from[i]);
}

NamedBarrierOrder::Clock &NamedBarrierOrder::clockOf(uint32_t warp) {
  if (knows_.size() <= warp)
    knows_.resize(size_t(warp) + 1);
  return knows_[warp];
}

void NamedBarrierOrder::arrive(uint32_t warp, uint64_t step, uint32_t barrierId) {
  if (barrierId >= kBarriers)
    return;
  used_ = true;
  Clock contribution = clockOf(warp);
  if (contribution.size() <= warp)
    contribution.resize(size_t(warp) + 1, 0);
  contribution[warp] = std::max(contribution[warp], step);
  join(pending_[barrierId], contribution);
}

void NamedBarrierOrder::release(uint32_t barrierId, const std::vector<uint32_t> &waiters) {
  if (barrierId >= kBarriers)
    return;
  for (uint32_t warp : waiters)
    join(clockOf(warp), pending_[barrierId]);
  pending_[barrierId].clear();
}

} // namespace simulee::memmodel
