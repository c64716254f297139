// Order between blocks through a fenced atomic (memmodel/ReleaseOrder.h).
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
  // Block 0: thread 0 writes its partial (step 3), fences (4), takes a ticket (5).
  order.beginBlock();
  Access partial = access(0, 0, 1, 3);
  Access afterFence = access(0, 0, 1, 5);
  order.onFence(1, 0, 4, 1u);
  Access released = ticket(0, 0, 1, 6);
  order.onAtomic(released);
  // Block 1: thread 0 takes the last ticket (step 2), then its block reads.
  order.beginBlock();
  Access acquired = ticket(1, 0, 0, 2);
  order.onAtomic(acquired);
  Access sameThreadLater = access(1, 0, 0, 3, interp::AccessKind::Read);
  Access laterInterval = access(1, 33, 1, 9, interp::AccessKind::Read);
  Access otherThreadSameInterval = access(1, 5, 0, 3, interp::AccessKind::Read);
  Access beforeTheAcquire = access(1, 0, 0, 1, interp::AccessKind::Read);
  EXPECT_TRUE(order.ordered(partial, sameThreadLater));
  EXPECT_TRUE(order.ordered(partial, laterInterval));
  EXPECT_TRUE(order.ordered(released, laterInterval)); // the releasing atomic itself
  EXPECT_FALSE(order.ordered(partial, otherThreadSameInterval));
  EXPECT_FALSE(order.ordered(partial, beforeTheAcquire));
  EXPECT_FALSE(order.ordered(afterFence, laterInterval)); // after the fence: not published
}

TEST(ReleaseOrder, NoFenceOrAFenceByAnotherThreadReleasesNothing) {
  ReleaseOrder order;
  order.beginBlock();
  Access partial = access(0, 0, 1, 3);
  order.onFence(1, 1, 4, 1u); // thread 32 fences, thread 0 takes the ticket
  order.onAtomic(ticket(0, 0, 1, 6));
  order.beginBlock();
  order.onAtomic(ticket(1, 0, 0, 2));
  EXPECT_FALSE(order.ordered(partial, access(1, 0, 2, 9, interp::AccessKind::Read)));
}

TEST(ReleaseOrder, AnAcquireSeesOnlyTheReleasesBeforeIt) {
  ReleaseOrder order;
  order.beginBlock();
  order.onAtomic(ticket(0, 0, 0, 1)); // block 0 takes its ticket first, unfenced
  order.beginBlock();
  Access partial = access(1, 0, 0, 1);
  order.onFence(0, 0, 2, 1u);
  order.onAtomic(ticket(1, 0, 0, 3)); // block 1 releases after block 0's atomic
  // Block 0's accesses were before block 1's release: nothing orders them,
  // and block 0 acquired nothing from block 1.
  EXPECT_FALSE(order.ordered(partial, access(0, 0, 1, 5)));
  EXPECT_FALSE(order.ordered(access(0, 0, 0, 0), access(1, 0, 1, 5)));
}

} // namespace
} // namespace simulee::memmodel
