// Order through a fenced atomic, between blocks and within one
// (memmodel/ReleaseOrder.h).
#include "memmodel/ReleaseOrder.h"

#include <gtest/gtest.h>

namespace simulee::memmodel {
namespace {

Access access(uint32_t block, uint32_t thread, uint32_t visitOrder, uint64_t step,
              interp::AccessKind action = interp::AccessKind::Write, uint32_t buffer = 0,
              uint64_t offset = 0) {
  Access a;
  a.space = interp::MemSpace::Global;
  a.action = action;
  a.buffer = buffer;
  a.offset = offset;
  a.sizeBytes = 4;
  a.block = block;
  a.thread = thread;
  a.warp = thread / interp::kWarpSize;
  a.lane = thread % interp::kWarpSize;
  a.visitOrder = visitOrder;
  a.step = step;
  return a;
}

constexpr uint32_t kCounter = 7; // the ticket counter's buffer

Access ticket(uint32_t block, uint32_t thread, uint32_t visitOrder, uint64_t step) {
  return access(block, thread, visitOrder, step, interp::AccessKind::Atomic, kCounter);
}

TEST(ReleaseOrder, AFencedAtomicOrdersWhatCameBeforeTheFenceBeforeALaterAcquirer) {
  ReleaseOrder order;
  DivergenceTracker divergence;
  // Block 0: thread 0 writes its partial (step 3), fences (4), takes a ticket (5).
  order.beginBlock();
  Access partial = access(0, 0, 1, 3);
  Access afterFence = access(0, 0, 1, 5);
  order.onFence(1, 0, 4, 1u, /*deviceScope=*/true);
  Access released = ticket(0, 0, 1, 6);
  order.onAtomic(released, divergence);
  // Block 1: thread 0 takes the last ticket (step 2), then its block reads.
  order.beginBlock();
  Access acquired = ticket(1, 0, 0, 2);
  order.onAtomic(acquired, divergence);
  Access sameThreadLater = access(1, 0, 0, 3, interp::AccessKind::Read);
  Access laterInterval = access(1, 33, 1, 9, interp::AccessKind::Read);
  Access otherThreadSameInterval = access(1, 5, 0, 3, interp::AccessKind::Read);
  Access beforeTheAcquire = access(1, 0, 0, 1, interp::AccessKind::Read);
  EXPECT_TRUE(order.ordered(partial, sameThreadLater, divergence));
  EXPECT_TRUE(order.ordered(partial, laterInterval, divergence));
  EXPECT_TRUE(order.ordered(released, laterInterval, divergence)); // the releasing atomic itself
  EXPECT_FALSE(order.ordered(partial, otherThreadSameInterval, divergence));
  EXPECT_FALSE(order.ordered(partial, beforeTheAcquire, divergence));
  EXPECT_FALSE(
      order.ordered(afterFence, laterInterval, divergence)); // after the fence: not published
}

TEST(ReleaseOrder, NoFenceOrAFenceByAnotherThreadReleasesNothing) {
  ReleaseOrder order;
  DivergenceTracker divergence;
  order.beginBlock();
  Access partial = access(0, 0, 1, 3);
  order.onFence(1, 1, 4, 1u, /*deviceScope=*/true); // thread 32 fences, thread 0 takes the ticket
  order.onAtomic(ticket(0, 0, 1, 6), divergence);
  order.beginBlock();
  order.onAtomic(ticket(1, 0, 0, 2), divergence);
  EXPECT_FALSE(order.ordered(partial, access(1, 0, 2, 9, interp::AccessKind::Read), divergence));
}

TEST(ReleaseOrder, AnAcquireSeesOnlyTheReleasesBeforeIt) {
  ReleaseOrder order;
  DivergenceTracker divergence;
  order.beginBlock();
  order.onAtomic(ticket(0, 0, 0, 1), divergence); // block 0 takes its ticket first, unfenced
  order.beginBlock();
  Access partial = access(1, 0, 0, 1);
  order.onFence(0, 0, 2, 1u, /*deviceScope=*/true);
  order.onAtomic(ticket(1, 0, 0, 3), divergence); // block 1 releases after block 0's atomic
  // Block 0's accesses were before block 1's release: nothing orders them,
  // and block 0 acquired nothing from block 1.
  EXPECT_FALSE(order.ordered(partial, access(0, 0, 1, 5), divergence));
  EXPECT_FALSE(order.ordered(access(0, 0, 0, 0), access(1, 0, 1, 5), divergence));
}

Access shared(uint32_t thread, uint64_t step, interp::AccessKind action, uint32_t buffer = 0) {
  Access a = access(0, thread, 1, step, action, buffer);
  a.space = interp::MemSpace::Shared;
  return a;
}

constexpr uint32_t kFlag = 3; // a shared flag (or a block barrier's counter)

TEST(ReleaseOrder, WithinABlockAFencedAtomicOrdersTheThreadsThatAcquireIt) {
  ReleaseOrder order;
  DivergenceTracker divergence;
  order.beginBlock();
  // Thread 0 (warp 0) fills the tile (step 3), fences the block (4) and
  // raises the flag (5); thread 40 (warp 1) reads the flag (7), then the tile.
  Access filled = shared(0, 3, interp::AccessKind::Write);
  order.onFence(1, 0, 4, 1u, /*deviceScope=*/false);
  order.onAtomic(shared(0, 5, interp::AccessKind::Atomic, kFlag), divergence);
  order.onAtomic(shared(40, 7, interp::AccessKind::Atomic, kFlag), divergence);
  EXPECT_TRUE(order.ordered(filled, shared(40, 8, interp::AccessKind::Read), divergence));
  // A thread that acquired nothing, or read before its acquire: unordered.
  EXPECT_FALSE(order.ordered(filled, shared(41, 8, interp::AccessKind::Read), divergence));
  EXPECT_FALSE(order.ordered(filled, shared(40, 6, interp::AccessKind::Read), divergence));
  // Written after the fence: not released.
  EXPECT_FALSE(order.ordered(shared(0, 6, interp::AccessKind::Write),
                             shared(40, 8, interp::AccessKind::Read), divergence));
}

TEST(ReleaseOrder, ABlockScopeFenceReleasesNothingToAnotherBlock) {
  ReleaseOrder order;
  DivergenceTracker divergence;
  order.beginBlock();
  Access partial = access(0, 0, 1, 3);
  order.onFence(1, 0, 4, 1u, /*deviceScope=*/false);
  order.onAtomic(ticket(0, 0, 1, 6), divergence);
  order.beginBlock();
  order.onAtomic(ticket(1, 0, 0, 2), divergence);
  EXPECT_FALSE(order.ordered(partial, access(1, 0, 0, 3, interp::AccessKind::Read), divergence));
}

TEST(ReleaseOrder, ALaneArrivingForItsWarpReleasesTheLanesASyncwarpJoinedToIt) {
  // libcu++'s block barrier: the lanes of a warp __syncwarp, one of them
  // arrives (fence, atomic) for all; on the other side each lane, or one
  // lane and then a __syncwarp, acquires.
  ReleaseOrder order;
  DivergenceTracker divergence;
  order.beginBlock();
  Access byLane1 = shared(1, 2, interp::AccessKind::Write);
  Access byLane2 = shared(2, 2, interp::AccessKind::Write);
  divergence.onWarpSync(0, 3, 0b011); // lanes 0 and 1, not 2
  order.onFence(1, 0, 4, 1u, /*deviceScope=*/false);
  order.onAtomic(shared(0, 5, interp::AccessKind::Atomic, kFlag), divergence);
  order.onAtomic(shared(32, 7, interp::AccessKind::Atomic, kFlag), divergence);
  EXPECT_TRUE(order.ordered(byLane1, shared(32, 8, interp::AccessKind::Read), divergence));
  EXPECT_FALSE(order.ordered(byLane2, shared(32, 8, interp::AccessKind::Read), divergence));
  // Lane 1 of warp 1 did not acquire: only a __syncwarp after lane 0's
  // acquire orders it.
  EXPECT_FALSE(order.ordered(byLane1, shared(33, 8, interp::AccessKind::Read), divergence));
  divergence.onWarpSync(1, 9, 0b011);
  EXPECT_TRUE(order.ordered(byLane1, shared(33, 10, interp::AccessKind::Read), divergence));
}

} // namespace
} // namespace simulee::memmodel
