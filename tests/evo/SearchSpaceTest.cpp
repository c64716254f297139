#include "evo/SearchSpace.h"

#include "Spaces.h"

#include <gtest/gtest.h>

namespace simulee::evo {
namespace {

using testing::oneDimSpace;

void expectInvalid(const SearchSpace &space, const std::string &mentioned) {
  Status status = space.validate();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find(mentioned), std::string::npos) << status.error().message;
}

TEST(SearchSpace, DefaultSpaceIsValid) { EXPECT_TRUE(oneDimSpace().validate().ok()); }

TEST(SearchSpace, RankOutsideOneToThreeIsRejected) {
  SearchSpace space = oneDimSpace();
  space.block.rank = 4;
  expectInvalid(space, "block rank 4");
  space.block.rank = 1;
  space.grid.rank = 0;
  expectInvalid(space, "grid rank 0");
}

TEST(SearchSpace, FixedBlockOverThreadLimitIsRejected) {
  SearchSpace space = oneDimSpace();
  space.block.fixed = Dims{64, 32, 1};
  expectInvalid(space, "2048 threads");
  space.block.fixed = Dims{1, 1, 65};
  expectInvalid(space, "z limit");
  space.block.fixed = Dims{0, 1, 1};
  expectInvalid(space, "zero");
}

TEST(SearchSpace, FixedLaunchOverTotalThreadCapIsRejected) {
  SearchSpace space = oneDimSpace();
  space.limits.maxThreads = 1000;
  space.grid.fixed = Dims{10, 1, 1};
  space.block.fixed = Dims{128, 1, 1};
  expectInvalid(space, "1280 threads");
  space.block.fixed.reset(); // a free block can shrink to 1 thread: 10 total
  EXPECT_TRUE(space.validate().ok());
}

TEST(SearchSpace, FixedGridBeyondYZLimitIsRejected) {
  SearchSpace space = oneDimSpace();
  space.limits.maxThreads = uint64_t(1) << 40;
  space.grid.fixed = Dims{1, 65536, 1};
  expectInvalid(space, "grid 1,65536,1");
}

TEST(SearchSpace, GeneRangeCombinesTypeAndBounds) {
  Limits limits;
  GeneRange int8 = geneRange(Gene::integer("c", 8, true), limits);
  EXPECT_EQ(int8.low, -128);
  EXPECT_EQ(int8.high, 127);
  GeneRange uint16 = geneRange(Gene::integer("u", 16, false), limits);
  EXPECT_EQ(uint16.low, 0);
  EXPECT_EQ(uint16.high, 65535);
  GeneRange int64 = geneRange(Gene::integer("l", 64, true), limits);
  EXPECT_EQ(int64.high, 0x1.0p53);
  Gene bounded = Gene::integer("n", 32, true);
  bounded.lower = 10;
  bounded.upper = 20;
  GeneRange both = geneRange(bounded, limits);
  EXPECT_EQ(both.low, 10);
  EXPECT_EQ(both.high, 20);
  GeneRange buffer = geneRange(Gene::bufferSize("data"), limits);
  EXPECT_EQ(buffer.low, 1);
  EXPECT_EQ(buffer.high, double(limits.maxBufferElements));
}

TEST(SearchSpace, EmptyOrViolatedBoundsAreRejected) {
  SearchSpace space = oneDimSpace();
  space.scalars[0].lower = 5;
  space.scalars[0].upper = 4;
  expectInvalid(space, "'n' has no value");
  space.scalars[0].upper.reset();
  space.scalars[0].fixed = 3;
  expectInvalid(space, "'n' = 3");
  SearchSpace wide = oneDimSpace();
  wide.scalars[1].bits = 24;
  expectInvalid(wide, "'scale' has an unsupported width");
}

TEST(SearchSpace, GenesAreScalarsThenBuffers) {
  SearchSpace space = oneDimSpace();
  ASSERT_EQ(space.geneCount(), 3u);
  EXPECT_EQ(space.gene(0).name, "n");
  EXPECT_EQ(space.gene(1).name, "scale");
  EXPECT_EQ(space.gene(2).name, "data");
  EXPECT_EQ(space.gene(2).role, GeneRole::BufferSize);
}

} // namespace
} // namespace simulee::evo
