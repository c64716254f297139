#include "evo/Fitness.h"

#include <gtest/gtest.h>

#include <cmath>

namespace simulee::evo {
namespace {

Fitness valid(double ratio, double range) { return Fitness{true, ratio, range}; }

TEST(Fitness, LowerRatioIsBetter) {
  EXPECT_TRUE(isBetter(valid(0.5, 0), valid(0.9, 1000)));
  EXPECT_FALSE(isBetter(valid(0.9, 1000), valid(0.5, 0)));
}

TEST(Fitness, AtEqualRatioLargerRangeIsBetter) {
  EXPECT_TRUE(isBetter(valid(1.0, 4096), valid(1.0, 64)));
  EXPECT_FALSE(isBetter(valid(1.0, 64), valid(1.0, 4096)));
  EXPECT_FALSE(isBetter(valid(1.0, 64), valid(1.0, 64)));
}

TEST(Fitness, InvalidRanksBelowEveryValid) {
  EXPECT_TRUE(isBetter(valid(1.0, 0), Fitness::invalid()));
  EXPECT_FALSE(isBetter(Fitness{false, 0.0, 1e9}, valid(1.0, 0)));
  EXPECT_FALSE(isBetter(Fitness::invalid(), Fitness::invalid()));
  EXPECT_TRUE(isBetter(valid(1.0, 0), valid(std::nan(""), 0)));
}

TEST(Fitness, AcceptanceNeedsValidRatioBelowThreshold) {
  EXPECT_TRUE(isAcceptable(valid(0.29, 0), 0.3));
  EXPECT_FALSE(isAcceptable(valid(0.3, 0), 0.3));
  EXPECT_FALSE(isAcceptable(Fitness{false, 0.1, 0}, 0.3));
}

TEST(Fitness, FromCountsIsDistinctOverPairs) {
  // 4 addresses, each touched by 8 threads, spanning bytes [100, 116).
  Fitness fitness = Fitness::fromCounts(4, 32, 100, 116);
  EXPECT_TRUE(fitness.valid);
  EXPECT_DOUBLE_EQ(fitness.ratio, 0.125);
  EXPECT_DOUBLE_EQ(fitness.range, 16);
  Fitness none = Fitness::fromCounts(0, 0, 0, 0);
  EXPECT_TRUE(none.valid);
  EXPECT_DOUBLE_EQ(none.ratio, 1.0);
}

} // namespace
} // namespace simulee::evo
