// Happens-before from named barriers (PTX bar.sync/bar.arrive/barrier.sync
// with an id and a thread count) between the warps of one block. A named
// barrier orders only the warps that take part in it, so it cannot advance
// the block's visit order; instead each warp keeps a vector clock over the
// block's warps, counted in lockstep steps:
//
//   knows[w][v] = s  <=>  warp v's accesses at steps < s happen before warp
//                         w's accesses from now on.
//
// An arrival contributes the arriving warp's clock, with its own entry set to
// the step of the barrier instruction, to the barrier's pending join; a
// completion hands that join to every warp that waited (bar.sync). bar.arrive
// contributes without waiting, so a producer that arrives orders its writes
// before a consumer that syncs, never the other way round. Transitive chains
// (A arrives at 1, B syncs at 1 then arrives at 2, C syncs at 2) follow from
// the joins. Barrier 0 of __syncthreads is not here: it advances visit orders.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace simulee::memmodel {

class NamedBarrierOrder {
public:
  static constexpr unsigned kBarriers = 16; // PTX named barriers per block

  void beginBlock();
  void arrive(uint32_t warp, uint64_t step, uint32_t barrierId);
  void release(uint32_t barrierId, const std::vector<uint32_t> &waiters);

  // Whether `earlierWarp`'s access at `earlierStep` happens before
  // `laterWarp`'s access now (the model asks as each access arrives).
  bool ordersBefore(uint32_t earlierWarp, uint64_t earlierStep, uint32_t laterWarp) const {
    if (!used_ || laterWarp >= knows_.size() || earlierWarp >= knows_[laterWarp].size())
      return false;
    return knows_[laterWarp][earlierWarp] > earlierStep;
  }

private:
  using Clock = std::vector<uint64_t>; // by warp index of the block
  static void join(Clock &into, const Clock &from);
  Clock &clockOf(uint32_t warp);

  bool used_ = false; // no named barrier in this block yet: nothing is ordered
  std::vector<Clock> knows_;
  std::array<Clock, kBarriers> pending_;
};

} // namespace simulee::memmodel
