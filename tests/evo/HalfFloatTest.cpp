#include "evo/HalfFloat.h"

#include <gtest/gtest.h>

#include <cmath>

namespace simulee::evo {
namespace {

TEST(HalfFloat, ExactValuesConvertBothWays) {
  struct Case {
    float value;
    uint16_t bits;
  } cases[] = {{0.0f, 0x0000},       {-0.0f, 0x8000},      {1.0f, 0x3c00},
               {1.5f, 0x3e00},       {-2.0f, 0xc000},      {65504.0f, 0x7bff},
               {0x1.0p-14f, 0x0400}, {0x1.0p-24f, 0x0001}, {0.5f, 0x3800}};
  for (const Case &c : cases) {
    EXPECT_EQ(toHalfBits(c.value), c.bits) << c.value;
    EXPECT_EQ(fromHalfBits(c.bits), double(c.value)) << c.value;
  }
}

TEST(HalfFloat, RoundsToNearestEven) {
  // Between 1 and the next half (1 + 2^-10): halfway rounds to the even 1.
  EXPECT_EQ(toHalfBits(1.0f + 0x1.0p-11f), 0x3c00);
  EXPECT_EQ(toHalfBits(1.0f + 0x1.8p-11f), 0x3c01);
  // Halfway above an odd mantissa rounds up to the even one.
  EXPECT_EQ(toHalfBits(1.0f + 3 * 0x1.0p-11f), 0x3c02);
  // Subnormal: 1.5 units of 2^-24 rounds to 2 units.
  EXPECT_EQ(toHalfBits(1.5f * 0x1.0p-24f), 0x0002);
}

TEST(HalfFloat, OverflowAndSpecials) {
  EXPECT_EQ(toHalfBits(70000.0f), 0x7c00);
  EXPECT_EQ(toHalfBits(-INFINITY), 0xfc00);
  EXPECT_EQ(toHalfBits(0x1.0p-30f), 0x0000);
  EXPECT_TRUE(std::isnan(fromHalfBits(toHalfBits(NAN))));
  EXPECT_TRUE(std::isinf(fromHalfBits(0x7c00)));
}

} // namespace
} // namespace simulee::evo
