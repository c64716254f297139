// ValueNames: a block's stored values named per address in the order they
// first appear, forgotten at clear(), through the table's growth.
#include "memmodel/ValueNames.h"

#include <gtest/gtest.h>

using simulee::memmodel::ValueNames;

TEST(ValueNames, ValuesAreNamedPerAddressInOrderOfFirstAppearance) {
  ValueNames names;
  EXPECT_EQ(names.name(8, 700), 0u);
  EXPECT_EQ(names.name(8, 5), 1u);
  EXPECT_EQ(names.name(8, 700), 0u);
  EXPECT_EQ(names.name(16, 5), 0u); // another address names apart
  EXPECT_EQ(names.name(8, 0), 2u);
  EXPECT_EQ(names.name(8, 5), 1u);
  names.clear();
  EXPECT_EQ(names.name(8, 5), 0u);
  EXPECT_EQ(names.name(8, 700), 1u);
}

TEST(ValueNames, AnAddressNamesAtMostThirtyTwoValues) {
  ValueNames names;
  for (uint64_t v = 0; v < ValueNames::kMostNamed; ++v)
    EXPECT_EQ(names.name(4, 1000 + v), v);
  EXPECT_EQ(names.name(4, 99), 99 ^ ValueNames::kUnnamed);
  EXPECT_EQ(names.name(4, 1003), 3u);
}

TEST(ValueNames, ManyAddressesKeepTheirNamesAsTheTableGrows) {
  ValueNames names;
  for (int round = 0; round < 2; ++round) {
    for (uint64_t a = 0; a < 5000; ++a) {
      EXPECT_EQ(names.name(a * 4, a * 31), 0u);
      EXPECT_EQ(names.name(a * 4, a * 31 + 1), 1u);
    }
    for (uint64_t a = 0; a < 5000; ++a)
      EXPECT_EQ(names.name(a * 4, a * 31 + 1), 1u);
    names.clear();
  }
}
