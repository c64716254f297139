// Pointer arithmetic never changes a pointer's space or buffer (issue 13):
// offsets beyond the 40-bit field saturate out of bounds, null stays null.
#include "ir/PointerEncoding.h"
#include "interp/Memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace simulee::interp_test {
namespace {

using ir::decodePointer;
using ir::encodePointer;
using ir::offsetPointer;
using ir::PointerSpace;

TEST(PointerEncoding, SmallOffsetsMoveWithinTheBuffer) {
  uint64_t p = encodePointer(PointerSpace::Shared, 3, 100);
  ir::DecodedPointer moved = decodePointer(offsetPointer(p, -104));
  EXPECT_EQ(moved.space, PointerSpace::Shared);
  EXPECT_EQ(moved.buffer, 3u);
  EXPECT_EQ(moved.offset, -4);
}

TEST(PointerEncoding, HugeOffsetsSaturateInsideTheirOwnBuffer) {
  uint64_t p = encodePointer(PointerSpace::Global, 0, 0);
  for (int64_t delta : {int64_t(1) << 39, int64_t(1) << 40, int64_t(1) << 62,
                        std::numeric_limits<int64_t>::max()}) {
    ir::DecodedPointer up = decodePointer(offsetPointer(p, delta));
    EXPECT_EQ(up.buffer, 0u) << delta;
    EXPECT_EQ(up.space, PointerSpace::Global) << delta;
    EXPECT_EQ(up.offset, ir::kMaxOffset) << delta;
    ir::DecodedPointer down = decodePointer(offsetPointer(p, -delta));
    EXPECT_EQ(down.buffer, 0u) << delta;
    EXPECT_EQ(down.offset, ir::kMinOffset) << delta;
  }
  // Repeated steps cannot walk out of the field either.
  uint64_t q = p;
  for (int i = 0; i < 8; ++i)
    q = offsetPointer(q, int64_t(1) << 38);
  EXPECT_EQ(decodePointer(q).buffer, 0u);
  EXPECT_EQ(decodePointer(q).offset, ir::kMaxOffset);
}

TEST(PointerEncoding, NullStaysNullWhereverItMoves) {
  for (int64_t delta : {int64_t(4), int64_t(-4), int64_t(1) << 40, -(int64_t(1) << 41)})
    EXPECT_TRUE(decodePointer(offsetPointer(0, delta)).isNull) << delta;
}

TEST(PointerEncoding, SaturatedOffsetIsOutOfBoundsOfEveryBuffer) {
  EXPECT_GT(uint64_t(ir::kMaxOffset), ir::kMaxBufferBytes);
}

} // namespace
} // namespace simulee::interp_test
