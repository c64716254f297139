#include "memmodel/ReleaseOrder.h"

#include <algorithm>
#include <bit>

namespace simulee::memmodel {

void ReleaseOrder::beginBlock() {
  fences_.clear();
  sharedReleases_.clear();
  sharedAcquires_.clear();
}

void ReleaseOrder::onFence(uint32_t visitOrder, uint32_t warp, uint64_t step, interp::LaneMask mask,
                           bool deviceScope) {
  for (interp::LaneMask lanes = mask; lanes; lanes &= lanes - 1) {
    ThreadFences &fences = fences_[warp * interp::kWarpSize + unsigned(std::countr_zero(lanes))];
    fences.latest = {visitOrder, step};
    if (deviceScope)
      fences.device = fences.latest;
  }
}

uint64_t ReleaseOrder::addressOf(const Access &access) {
  return uint64_t(access.buffer) << 40 ^ access.offset;
}

void ReleaseOrder::onAtomic(const Access &atomic, const DivergenceTracker &divergence) {
  bool shared = atomic.space == interp::MemSpace::Shared;
  if (!shared && atomic.space != interp::MemSpace::Global)
    return;
  ReleasesByAddress &releases = shared ? sharedReleases_ : globalReleases_;
  uint64_t address = addressOf(atomic);
  auto released = releases.find(address);
  if (released != releases.end()) { // an address is kept from its first release on
    uint64_t sequence = released->second.count;
    Acquires &acquires = shared ? sharedAcquires_[address] : globalAcquires_[atomic.block][address];
    uint64_t &visit = acquires.byVisitOrder[atomic.visitOrder];
    visit = std::max(visit, sequence);
    // One entry per thread, visit order and releases seen.
    std::vector<ThreadAcquire> &own = acquires.byThread[atomic.thread];
    if (own.empty() || own.back().visitOrder != atomic.visitOrder ||
        own.back().sequence != sequence)
      own.push_back({atomic.visitOrder, atomic.step, sequence});
  }
  auto fences = fences_.find(atomic.thread);
  if (fences == fences_.end())
    return;
  Release release{atomic.thread, fences->second.latest, fences->second.device, atomic.step, 0, {}};
  for (unsigned lane = 0; lane < interp::kWarpSize; ++lane)
    if (std::optional<uint64_t> sync = divergence.lastWarpSync(atomic.warp, atomic.lane, lane);
        lane != atomic.lane && sync && *sync <= release.fence.step)
      release.syncedLanes.emplace_back(lane, *sync);
  AddressReleases &here = releases[address];
  release.sequence = here.count++;
  here.byBlock[atomic.block].push_back(std::move(release));
}

// What the fence published: the fencing thread's own accesses up to it (and
// the releasing atomic itself), and, to other blocks, its block's accesses
// in earlier barrier intervals (within the block barriers order those).
bool ReleaseOrder::covers(const Release &release, const Access &prior, bool otherBlock) {
  if (otherBlock && !release.device)
    return false;
  const Fence &fence = otherBlock ? *release.device : release.fence;
  if (otherBlock && prior.visitOrder < fence.visitOrder)
    return true;
  if (prior.thread == release.thread)
    return (prior.visitOrder == fence.visitOrder && prior.step <= fence.step) ||
           prior.step == release.atomicStep;
  if (otherBlock || prior.visitOrder != fence.visitOrder ||
      prior.warp != release.thread / interp::kWarpSize)
    return false;
  return std::any_of(release.syncedLanes.begin(), release.syncedLanes.end(),
                     [&](const std::pair<uint32_t, uint64_t> &synced) {
                       return synced.first == prior.lane && prior.step < synced.second;
                     });
}

// An acquire before `now`: one of now's thread earlier in its visit order,
// one of a lane of its warp that a __syncwarp with now's lane followed, or,
// from another block's view, one of now's block in an earlier visit order.
uint64_t ReleaseOrder::seenBy(const Acquires &acquires, const Access &now, bool otherBlock,
                              const DivergenceTracker &divergence) {
  uint64_t seen = 0;
  if (otherBlock)
    for (const auto &[visitOrder, sequence] : acquires.byVisitOrder) {
      if (visitOrder >= now.visitOrder)
        break;
      seen = std::max(seen, sequence);
    }
  if (auto own = acquires.byThread.find(now.thread); own != acquires.byThread.end())
    for (const ThreadAcquire &acquire : own->second)
      if (acquire.visitOrder == now.visitOrder && acquire.step <= now.step)
        seen = std::max(seen, acquire.sequence);
  if (otherBlock)
    return seen;
  uint32_t firstLane = now.thread - now.lane;
  for (unsigned lane = 0; lane < interp::kWarpSize; ++lane) {
    auto other = acquires.byThread.find(firstLane + lane);
    if (lane == now.lane || other == acquires.byThread.end())
      continue;
    for (const ThreadAcquire &acquire : other->second)
      if (acquire.visitOrder == now.visitOrder && acquire.sequence > seen &&
          divergence.warpSyncBetween(now.warp, lane, acquire.step, now.lane, now.step))
        seen = acquire.sequence;
  }
  return seen;
}

bool ReleaseOrder::releasedBefore(const AddressReleases &releases, uint64_t seen,
                                  const Access &prior, bool otherBlock) {
  auto fromBlock = releases.byBlock.find(prior.block);
  if (fromBlock == releases.byBlock.end())
    return false;
  for (const Release &release : fromBlock->second)
    if (release.sequence < seen && covers(release, prior, otherBlock))
      return true;
  return false;
}

bool ReleaseOrder::ordered(const Access &prior, const Access &now,
                           const DivergenceTracker &divergence) const {
  bool otherBlock = prior.block != now.block;
  if (!otherBlock && !sharedAcquires_.empty())
    for (const auto &[address, acquires] : sharedAcquires_)
      if (uint64_t seen = seenBy(acquires, now, false, divergence);
          seen && releasedBefore(sharedReleases_.at(address), seen, prior, false))
        return true;
  if (globalAcquires_.empty()) // no fenced atomic was acquired: the common case
    return false;
  auto block = globalAcquires_.find(now.block);
  if (block == globalAcquires_.end())
    return false;
  for (const auto &[address, acquires] : block->second)
    if (uint64_t seen = seenBy(acquires, now, otherBlock, divergence);
        seen && releasedBefore(globalReleases_.at(address), seen, prior, otherBlock))
      return true;
  return false;
}

} // namespace simulee::memmodel
