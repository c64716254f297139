// Whether a barrier instance separated anything worth judging: some variable
// was accessed by threads of at least two warps in one visit order before
// the barrier and again in one visit order after it (not necessarily the
// adjacent ones: a double barrier separates the accesses around both).
// Without such evidence (a one-warp block, nothing after the barrier) an
// instance says nothing about whether the barrier can go
// (BarrierInstance::evidence).
#pragma once

#include "interp/Events.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simulee::memmodel {

class BarrierEvidence {
public:
  // A new block: nothing seen yet.
  void beginBlock() {
    epoch_.clear();
    spans_.clear();
    last_ = 0;
    accessedNow_ = false;
    clockReadNow_ = false;
    firstAccessed_ = kNone;
    lastAccessed_ = 0;
  }

  // An access of the current visit order.
  void record(interp::MemSpace space, uint32_t buffer, uint32_t warp) {
    accessedNow_ |= space == interp::MemSpace::Shared || space == interp::MemSpace::Global;
    uint64_t key = uint64_t(space) << 32 | buffer;
    if (last_ >= epoch_.size() || epoch_[last_].key != key) {
      for (last_ = 0; last_ < epoch_.size() && epoch_[last_].key != key; ++last_) {
      }
      if (last_ == epoch_.size())
        epoch_.push_back(EpochEntry{key, warp, false});
    }
    epoch_[last_].severalWarps |= epoch_[last_].firstWarp != warp;
  }

  // A printf of the current visit order: output a barrier orders (all of a
  // block's lines before it print before any line after it).
  void recordOutput() { accessedNow_ = true; }

  // A clock read of the current visit order (interp::ClockReadEvent).
  void recordClockRead() { clockReadNow_ = true; }
  // Whether the current visit order read a clock: a barrier that starts or
  // ends it times the block's work (MemoryModel::OpenBarrier::timed).
  bool clockReadNow() const { return clockReadNow_; }

  // The current visit order `visitOrder` is over.
  void endVisitOrder(uint32_t visitOrder) {
    if (accessedNow_) {
      firstAccessed_ = std::min(firstAccessed_, visitOrder);
      lastAccessed_ = std::max(lastAccessed_, visitOrder);
    }
    accessedNow_ = false;
    clockReadNow_ = false;
    for (const EpochEntry &entry : epoch_) {
      if (!entry.severalWarps)
        continue;
      Span *span = spanOf(entry.key);
      if (!span)
        spans_.push_back(Span{entry.key, visitOrder, visitOrder});
      else
        span->last = visitOrder;
    }
    epoch_.clear();
    last_ = 0;
  }

  // For a barrier that started `visitOrder`, once the block has ended:
  // whether no shared or global memory was accessed on one side of it (a
  // kernel's first or last statement) and nothing was printed there, so
  // that it orders nothing.
  bool ordersNothing(uint32_t visitOrder) const {
    return firstAccessed_ == kNone || firstAccessed_ >= visitOrder || lastAccessed_ < visitOrder;
  }

  // For a barrier that started `visitOrder`, once the block has ended.
  bool isEvidence(uint32_t visitOrder) const {
    for (const Span &span : spans_)
      if (span.first < visitOrder && visitOrder <= span.last)
        return true;
    return false;
  }

private:
  struct EpochEntry {
    uint64_t key; // space << 32 | buffer
    uint32_t firstWarp;
    bool severalWarps;
  };
  // The first and last visit orders in which a variable was accessed by
  // several warps.
  struct Span {
    uint64_t key;
    uint32_t first, last;
  };

  static constexpr uint32_t kNone = UINT32_MAX;
  // Whether the current visit order accessed shared or global memory or
  // printed, and the first and last visit orders of the block that did.
  bool accessedNow_ = false;
  bool clockReadNow_ = false;
  uint32_t firstAccessed_ = kNone, lastAccessed_ = 0;

  Span *spanOf(uint64_t key) {
    for (Span &span : spans_)
      if (span.key == key)
        return &span;
    return nullptr;
  }

  std::vector<EpochEntry> epoch_;
  size_t last_ = 0; // the entry of the previous access
  std::vector<Span> spans_;
};

} // namespace simulee::memmodel
