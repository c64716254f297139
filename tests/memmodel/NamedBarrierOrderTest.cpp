// Named barriers order exactly what they should: an arrival's earlier steps
// before a waiter's later ones, per barrier id, transitively, and nothing
// the other way round.
#include "memmodel/NamedBarrierOrder.h"

#include <gtest/gtest.h>

using simulee::memmodel::NamedBarrierOrder;

TEST(NamedBarrierOrder, ArrivalBeforeTheWaiterOnly) {
  NamedBarrierOrder order;
  order.arrive(0, 10, 1); // producer warp 0 arrives at step 10 (bar.arrive)
  order.arrive(1, 4, 1);  // consumer warp 1 waits at step 4 (bar.sync)
  order.release(1, {1});
  EXPECT_TRUE(order.ordersBefore(0, 9, 1));   // the producer's write before its arrival
  EXPECT_FALSE(order.ordersBefore(0, 10, 1)); // ... not what it does after arriving
  EXPECT_FALSE(order.ordersBefore(1, 3, 0));  // the producer never waited
  EXPECT_FALSE(order.ordersBefore(2, 0, 1));  // a warp that took no part
}

TEST(NamedBarrierOrder, BarriersAreSeparateAndOrderIsTransitive) {
  NamedBarrierOrder order;
  order.arrive(0, 5, 1);
  order.arrive(1, 7, 2); // a different barrier: warp 1 learns nothing from warp 0
  order.release(2, {1});
  EXPECT_FALSE(order.ordersBefore(0, 1, 1));
  // Barrier 1 completes with warp 1 waiting; then warp 1 hands on to warp 2.
  order.arrive(1, 9, 1);
  order.release(1, {1});
  order.arrive(1, 20, 3);
  order.arrive(2, 2, 3);
  order.release(3, {2});
  EXPECT_TRUE(order.ordersBefore(0, 4, 2));
  EXPECT_TRUE(order.ordersBefore(1, 19, 2));
}

TEST(NamedBarrierOrder, ANewBlockStartsUnordered) {
  NamedBarrierOrder order;
  order.arrive(0, 5, 1);
  order.arrive(1, 5, 1);
  order.release(1, {0, 1});
  ASSERT_TRUE(order.ordersBefore(0, 1, 1));
  order.beginBlock();
  EXPECT_FALSE(order.ordersBefore(0, 1, 1));
}
