// One Unit Tuple of the Memory-Access Model: who touched which bytes of which
// buffer, how, in which visit order and at which lockstep step of its warp.
#pragma once

#include "interp/Events.h"

#include <cstdint>

namespace simulee::memmodel {

struct Access {
  interp::MemSpace space = interp::MemSpace::Global;
  interp::AccessKind action = interp::AccessKind::Read;
  uint32_t buffer = 0;
  uint64_t offset = 0; // first byte, inside `buffer`
  uint32_t sizeBytes = 0;
  uint32_t visitOrder = 0; // the block's epoch when the access happened
  uint32_t block = 0;
  uint32_t thread = 0;
  uint32_t warp = 0;
  uint32_t lane = 0;
  uint64_t step = 0; // the warp's lockstep step
  uint32_t instruction = 0;
  // Divergence state: the lanes of the warp executing this step. The order
  // between two lanes is decided by DivergenceTracker, which sees every mask.
  interp::LaneMask activeMask = 0;
  // Plain stores: the bits written, when known (interp::AccessEvent::value).
  uint64_t value = 0;
  bool valueKnown = false;

  bool sameThreadAs(const Access &other) const {
    return block == other.block && thread == other.thread;
  }
};

// Whether two accesses of these actions can make a race or need a barrier
// at all (DESIGN.md): two reads, or two atomics, order nothing. Stores show
// only priors that can, which keeps the read-mostly common case cheap.
// A block-scoped atomic may still conflict with another atomic: one of
// another block (MemoryModel::relate drops the pairs of one block).
inline bool actionsCanConflict(interp::AccessKind a, interp::AccessKind b) {
  if (a == interp::AccessKind::Atomic && b == interp::AccessKind::Atomic)
    return false;
  return a != interp::AccessKind::Read || b != interp::AccessKind::Read;
}

// Two accesses of one block that are both atomic, whatever their scope,
// never race.
inline bool atomicInOneBlock(const Access &a, const Access &b) {
  return a.block == b.block && interp::isAtomic(a.action) && interp::isAtomic(b.action);
}

// Two writes of the same bytes with the same value: a race whose outcome does
// not depend on the order (DESIGN.md, "Same-value race").
inline bool writesSameValue(const Access &a, const Access &b) {
  return a.action == interp::AccessKind::Write && b.action == interp::AccessKind::Write &&
         a.valueKnown && b.valueKnown && a.offset == b.offset && a.sizeBytes == b.sizeBytes &&
         a.value == b.value;
}

// The first byte two accesses share; only meaningful when they overlap.
inline uint64_t firstSharedByte(const Access &a, const Access &b) {
  return a.offset > b.offset ? a.offset : b.offset;
}

} // namespace simulee::memmodel
