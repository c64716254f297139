#include "memmodel/ReleaseOrder.h"

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
    std::vector<Acquire> &acquires = acquires_[atomic.block];
    bool known = false;
    for (const Acquire &acquire : acquires)
      known = known || (acquire.address == address && acquire.thread == atomic.thread &&
                        acquire.visitOrder == atomic.visitOrder &&
                        acquire.sequence == released->second.count);
    if (others && !known)
      acquires.push_back({address, released->second.count, atomic.thread, atomic.visitOrder,
                          atomic.step});
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
  auto acquires = acquires_.find(now.block);
  if (acquires == acquires_.end())
    return false;
  for (const Acquire &acquire : acquires->second) {
    bool after = now.visitOrder > acquire.visitOrder ||
                 (now.thread == acquire.thread && now.visitOrder == acquire.visitOrder &&
                  now.step >= acquire.step);
    if (!after)
      continue;
    const AddressReleases &releases = releases_.at(acquire.address);
    auto fromBlock = releases.byBlock.find(prior.block);
    if (fromBlock == releases.byBlock.end())
      continue;
    for (const Release &release : fromBlock->second)
      if (release.sequence < acquire.sequence && covers(release, prior))
        return true;
  }
  return false;
}

} // namespace simulee::memmodel
