#include "memmodel/ReleaseOrder.h"

#include <algorithm>
#include <bit>

namespace simulee::memmodel {

void ReleaseOrder::beginBlock() { fences_.clear(); }

void ReleaseOrder::onFence(uint32_t visitOrder, uint32_t warp, uint64_t step,
                           interp::LaneMask mask) {
  for (interp::LaneMask lanes = mask; lanes; lanes &= lanes - 1)
    fences_[warp * interp::kWarpSize + unsigned(std::countr_zero(lanes))] = {visitOrder, step};
}

uint64_t ReleaseOrder::addressOf(const Access &access) {
  return uint64_t(access.buffer) << 40 ^ access.offset;
}

void ReleaseOrder::onAtomic(const Access &atomic) {
  if (atomic.space != interp::MemSpace::Global)
    return;
  uint64_t address = addressOf(atomic);
  auto released = releases_.find(address);
  if (released != releases_.end()) {
    // Worth keeping only when another block released here, and when this
    // thread has no acquire of the same releases in this visit order yet.
    bool others = released->second.byBlock.size() > 1 ||
                  !released->second.byBlock.count(atomic.block);
    uint64_t sequence = released->second.count;
    if (others) {
      Acquires &acquires = acquires_[atomic.block][address];
      uint64_t &visit = acquires.byVisitOrder[atomic.visitOrder];
      visit = std::max(visit, sequence);
      std::vector<ThreadAcquire> &own = acquires.byThread[atomic.thread];
      if (own.empty() || own.back().visitOrder != atomic.visitOrder ||
          own.back().sequence != sequence)
        own.push_back({atomic.visitOrder, atomic.step, sequence});
    }
  }
  auto fence = fences_.find(atomic.thread);
  if (fence == fences_.end())
    return;
  AddressReleases &releases = releases_[address];
  releases.byBlock[atomic.block].push_back({atomic.thread, fence->second.visitOrder,
                                            fence->second.step, atomic.step, releases.count++});
}

// What the fence published: the fencing thread's own accesses up to it (and
// the releasing atomic itself), and its block's accesses in earlier barrier
// intervals.
bool ReleaseOrder::covers(const Release &release, const Access &prior) {
  if (prior.visitOrder < release.fenceVisit)
    return true;
  return prior.thread == release.thread &&
         ((prior.visitOrder == release.fenceVisit && prior.step <= release.fenceStep) ||
          prior.step == release.atomicStep);
}

bool ReleaseOrder::ordered(const Access &prior, const Access &now) const {
  if (acquires_.empty()) // no fenced atomic was acquired: the common case
    return false;
  auto block = acquires_.find(now.block);
  if (block == acquires_.end())
    return false;
  for (const auto &[address, acquires] : block->second) {
    // The most releases an acquire before `now` saw: one in an earlier visit
    // order of the block, or one of now's thread earlier in its visit order.
    uint64_t seen = 0;
    for (const auto &[visitOrder, sequence] : acquires.byVisitOrder) {
      if (visitOrder >= now.visitOrder)
        break;
      seen = std::max(seen, sequence);
    }
    if (auto own = acquires.byThread.find(now.thread); own != acquires.byThread.end())
      for (const ThreadAcquire &acquire : own->second)
        if (acquire.visitOrder == now.visitOrder && acquire.step <= now.step)
          seen = std::max(seen, acquire.sequence);
    if (seen == 0)
      continue;
    const AddressReleases &releases = releases_.at(address);
    auto fromBlock = releases.byBlock.find(prior.block);
    if (fromBlock == releases.byBlock.end())
      continue;
    for (const Release &release : fromBlock->second)
      if (release.sequence < seen && covers(release, prior))
        return true;
  }
  return false;
}

} // namespace simulee::memmodel
