// Order through a fenced atomic (DESIGN.md, "Fences and atomics"): a thread
// that executes a fence and then an atomic access on an address releases
// what it did before the fence; a later atomic on that address by another
// thread (later in the simulation: later in the address's modification
// order) acquires every release made on it so far, and the acquiring
// thread's later accesses happen after the released ones.
//  - Between blocks (global memory), the fence must be of device scope
//    (__threadfence), and it also publishes its block's accesses of earlier
//    barrier intervals; the acquiring block's accesses in later barrier
//    intervals see what it acquired. This is the single-pass reduction,
//    whose last block sums the partials the others wrote and fenced.
//  - Within a block (shared or global memory), a fence of any scope
//    releases the thread's accesses of its barrier interval up to the
//    fence, and those of lanes of its warp that a __syncwarp holding both
//    ordered before the fence, to the threads that acquire it in the same
//    interval, and to lanes of theirs that a __syncwarp orders after the
//    acquire: release and acquire atomics (PTX's atom.release / ld.acquire,
//    which inline PTX lowers to a fence and an atomic) as libcu++'s block
//    barrier (cuda::barrier's arrive and wait: one lane arrives for its
//    warp) and flag handoffs between warps use.
// Blocks run one after another, and a block's warps one at a time, so the
// simulation's order of atomics on an address is a modification order.
#pragma once

#include "interp/Events.h"
#include "memmodel/Access.h"
#include "memmodel/DivergenceTracker.h"

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace simulee::memmodel {

class ReleaseOrder {
public:
  // A new block runs: the fences, shared-memory releases and in-block
  // acquires of the last one are forgotten.
  void beginBlock();
  void onFence(uint32_t visitOrder, uint32_t warp, uint64_t step, interp::LaneMask mask,
               bool deviceScope);
  // An atomic access: acquires, then releases if its thread fenced before
  // it. `divergence`: the running block's warp syncs so far.
  void onAtomic(const Access &atomic, const DivergenceTracker &divergence);
  // Whether `prior`, of another thread, happens before `now` (the access
  // being made) through a release `now`'s thread (or, between blocks,
  // `now`'s block) acquired.
  bool ordered(const Access &prior, const Access &now, const DivergenceTracker &divergence) const;

private:
  struct Fence {
    uint32_t visitOrder = 0;
    uint64_t step = 0;
  };
  struct ThreadFences {
    Fence latest;                // of any scope
    std::optional<Fence> device; // the latest of device scope
  };
  struct Release {
    uint32_t thread = 0;
    Fence fence;                 // the fence before the atomic, of any scope
    std::optional<Fence> device; // the latest device-scope one: releases to other blocks
    uint64_t atomicStep = 0;
    uint64_t sequence = 0; // its place among the address's releases
    // Lanes of the thread's warp a __syncwarp with it ordered before the
    // fence, each with that sync's step: their accesses before it.
    std::vector<std::pair<uint32_t, uint64_t>> syncedLanes;
  };
  // One thread's acquire: what its later accesses in that visit order see.
  struct ThreadAcquire {
    uint32_t visitOrder = 0;
    uint64_t step = 0;
    uint64_t sequence = 0; // releases on the address before it: sequence < this
  };
  // A block's acquires on one address: its accesses in later visit orders see
  // the most any acquire of an earlier visit order saw; a thread sees its own
  // acquires before it in the same visit order too.
  struct Acquires {
    std::map<uint32_t, uint64_t> byVisitOrder; // the largest sequence acquired in each
    std::unordered_map<uint32_t, std::vector<ThreadAcquire>> byThread; // in time order
  };
  struct AddressReleases {
    uint64_t count = 0;
    std::unordered_map<uint32_t, std::vector<Release>> byBlock;
  };
  using ReleasesByAddress = std::unordered_map<uint64_t, AddressReleases>;
  using AcquiresByAddress = std::unordered_map<uint64_t, Acquires>;

  static uint64_t addressOf(const Access &access);
  static bool covers(const Release &release, const Access &prior, bool otherBlock);
  // The most releases on `address` that acquires before `now` saw.
  static uint64_t seenBy(const Acquires &acquires, const Access &now, bool otherBlock,
                         const DivergenceTracker &divergence);
  static bool releasedBefore(const AddressReleases &releases, uint64_t seen, const Access &prior,
                             bool otherBlock);

  std::unordered_map<uint32_t, ThreadFences> fences_; // the running block's, by thread
  // Global memory's, kept across blocks; shared memory's, the running block's.
  ReleasesByAddress globalReleases_, sharedReleases_;
  // Global memory's by block, then address; shared memory's, the running block's.
  std::unordered_map<uint32_t, AcquiresByAddress> globalAcquires_;
  AcquiresByAddress sharedAcquires_;
};

} // namespace simulee::memmodel
