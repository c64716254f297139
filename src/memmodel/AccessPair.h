// What the model tells the detectors: pairs of overlapping accesses by
// different threads, each with the ordering facts the rules of DESIGN.md read
// (which block, which visit order, which warp, whether the two lanes ran a
// common step or met at a __syncwarp in between). The model decides no bug
// kind; detect/ applies the rules to these facts.
#pragma once

#include "memmodel/Access.h"

#include <cstdint>
#include <vector>

namespace simulee::memmodel {

enum class PairRelation : uint8_t {
  DifferentBlocks,   // global/constant memory, blocks never ordered
  SameVisitOrder,    // same block, same epoch
  AdjacentVisitOrders // same block, `later` one barrier after `earlier`
};

// Ordering facts for two accesses of one block; only meaningful for sameWarp.
struct WarpOrdering {
  bool sameWarp = false;
  bool commonActiveStep = false; // some step in [s1, s2] had both lanes active
  bool warpSyncBetween = false;  // a __syncwarp holding both lanes at a step in (s1, s2]
  bool sameStep = false;         // s1 == s2: one lockstep instruction
};

struct AccessPair {
  Access earlier; // recorded first
  Access later;
  PairRelation relation = PairRelation::SameVisitOrder;
  WarpOrdering ordering;
};

// A pair of accesses on either side of one barrier instance, reduced to what
// "would they race in one visit order?" depends on. Across a barrier the two
// accesses are never one lockstep step.
struct BarrierCrossing {
  interp::AccessKind earlierAction = interp::AccessKind::Read;
  interp::AccessKind laterAction = interp::AccessKind::Read;
  bool sameWarp = false;
  bool commonActiveStep = false;
  bool warpSyncBetween = false;
};

// The set of distinct BarrierCrossings seen across one barrier instance:
// 4 x 4 actions x 2 x 2 x 2 flags = 128 kinds, one bit each.
class BarrierCrossingSet {
public:
  static constexpr unsigned kKinds = 128;

  void insert(const BarrierCrossing &crossing) {
    unsigned index = indexOf(crossing);
    bits_[index / 64] |= uint64_t(1) << (index % 64);
  }
  bool empty() const { return bits_[0] == 0 && bits_[1] == 0; }
  std::vector<BarrierCrossing> members() const {
    std::vector<BarrierCrossing> result;
    for (unsigned index = 0; index < kKinds; ++index)
      if (bits_[index / 64] >> (index % 64) & 1)
        result.push_back(crossingAt(index));
    return result;
  }
  bool operator==(const BarrierCrossingSet &) const = default;

private:
  static unsigned indexOf(const BarrierCrossing &c) {
    unsigned actions = unsigned(c.earlierAction) * 4 + unsigned(c.laterAction);
    return ((actions * 2 + c.sameWarp) * 2 + c.commonActiveStep) * 2 + c.warpSyncBetween;
  }
  static BarrierCrossing crossingAt(unsigned index) {
    BarrierCrossing c;
    c.warpSyncBetween = index & 1;
    c.commonActiveStep = index >> 1 & 1;
    c.sameWarp = index >> 2 & 1;
    unsigned actions = index >> 3;
    c.earlierAction = interp::AccessKind(actions / 4);
    c.laterAction = interp::AccessKind(actions % 4);
    return c;
  }

  uint64_t bits_[2] = {0, 0};
};

// Executed instances of a barrier, folded: every instance (block, epoch) with
// the same barrier instructions and the same crossings is one entry.
struct BarrierInstance {
  std::vector<uint32_t> barrierInstrs; // from BarrierReleaseEvent
  BarrierCrossingSet crossings;        // pairs across this barrier
  // Evidence that the instance separated something (see BarrierEvidence.h).
  bool evidence = false;
  // No shared or global access on one side of it in its block: it orders
  // nothing (see BarrierEvidence::ordersNothing).
  bool ordersNothing = false;
  // A clock was read just before or just after it in its block: it times the
  // block's work (a benchmark's `__syncthreads(); if (tid == 0) start =
  // clock64();`) and is never redundant.
  bool timed = false;
  uint32_t exampleBlock = 0;
  uint32_t exampleEpoch = 0; // the visit order the barrier started
  uint64_t count = 0;        // instances folded into this entry
};

} // namespace simulee::memmodel
