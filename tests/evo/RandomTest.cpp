#include "evo/Random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace simulee::evo {
namespace {

TEST(Random, SameSeedGivesSameSequence) {
  Random first(42), second(42), other(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    double a = first.normal(), b = second.normal(), c = other.normal();
    EXPECT_EQ(a, b);
    differs |= a != c;
  }
  EXPECT_TRUE(differs);
}

TEST(Random, UniformIntStaysInRangeAndReachesBothEnds) {
  Random random(1);
  bool sawLow = false, sawHigh = false;
  for (int i = 0; i < 1000; ++i) {
    int64_t value = random.uniformInt(-3, 3);
    ASSERT_GE(value, -3);
    ASSERT_LE(value, 3);
    sawLow |= value == -3;
    sawHigh |= value == 3;
  }
  EXPECT_TRUE(sawLow);
  EXPECT_TRUE(sawHigh);
  EXPECT_EQ(random.uniformInt(7, 7), 7);
}

TEST(Random, TernaryStepIsBalanced) {
  Random random(5);
  int counts[3] = {};
  for (int i = 0; i < 3000; ++i)
    ++counts[random.ternaryStep() + 1];
  for (int count : counts)
    EXPECT_NEAR(count, 1000, 150);
}

TEST(Random, NormalHasUnitDeviation) {
  Random random(7);
  double sum = 0, squares = 0;
  const int draws = 20000;
  for (int i = 0; i < draws; ++i) {
    double value = random.normal();
    sum += value;
    squares += value * value;
  }
  EXPECT_NEAR(sum / draws, 0.0, 0.05);
  EXPECT_NEAR(std::sqrt(squares / draws), 1.0, 0.05);
}

TEST(Random, CauchyHasHeavierTailsThanNormal) {
  Random random(9);
  const int draws = 20000;
  int normalBeyond5 = 0, cauchyBeyond5 = 0;
  std::vector<double> cauchy;
  for (int i = 0; i < draws; ++i) {
    normalBeyond5 += std::abs(random.normal()) > 5;
    double value = random.cauchy();
    cauchyBeyond5 += std::abs(value) > 5;
    cauchy.push_back(std::abs(value));
  }
  // P(|C| > 5) = 1 - 2/pi * atan(5) ~ 12.6%; P(|N| > 5) ~ 6e-7.
  EXPECT_EQ(normalBeyond5, 0);
  EXPECT_NEAR(double(cauchyBeyond5) / draws, 0.126, 0.01);
  // The median of |C| is 1 (its scale).
  std::nth_element(cauchy.begin(), cauchy.begin() + draws / 2, cauchy.end());
  EXPECT_NEAR(cauchy[draws / 2], 1.0, 0.05);
}

} // namespace
} // namespace simulee::evo
