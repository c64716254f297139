// Buffer comparison: ulp distances, integers bit for bit, floats within the
// bound, nondeterminism across runs.
#include "replay/Compare.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace simulee::replay_test {
namespace {

using replay::compareBuffer;
using replay::ulpDistance;

template <class T> std::vector<uint8_t> bytesOf(const std::vector<T> &values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

ir::ParamInfo pointerTo(ir::ValueKind kind, uint32_t bytes, const char *name = "out") {
  ir::ParamInfo param;
  param.name = name;
  param.kind = ir::ValueKind::Pointer;
  param.bits = 64;
  param.elementKind = kind;
  param.elementBytes = bytes;
  return param;
}

uint64_t floatBits(float value) { return std::bit_cast<uint32_t>(value); }

TEST(UlpDistance, NeighbouringFloatsAreOneApart) {
  float one = 1.0f, next = std::nextafter(one, 2.0f);
  EXPECT_EQ(ulpDistance(floatBits(one), floatBits(next), 4), 1u);
  EXPECT_EQ(ulpDistance(floatBits(next), floatBits(one), 4), 1u);
  EXPECT_EQ(ulpDistance(floatBits(one), floatBits(one), 4), 0u);
}

TEST(UlpDistance, SignedZerosAreEqualAndDistancesCrossZero) {
  EXPECT_EQ(ulpDistance(floatBits(0.0f), floatBits(-0.0f), 4), 0u);
  float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(ulpDistance(floatBits(-tiny), floatBits(tiny), 4), 2u);
}

TEST(UlpDistance, NanIsFarFromNumbersAndEqualToNan) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(ulpDistance(floatBits(nan), floatBits(nan), 4), 0u);
  EXPECT_EQ(ulpDistance(floatBits(nan), floatBits(1.0f), 4), UINT64_MAX);
}

TEST(UlpDistance, DoublesAndHalves) {
  double a = 1.0, b = std::nextafter(std::nextafter(a, 2.0), 2.0);
  EXPECT_EQ(ulpDistance(std::bit_cast<uint64_t>(a), std::bit_cast<uint64_t>(b), 8), 2u);
  EXPECT_EQ(ulpDistance(0x3c00, 0x3c03, 2), 3u);         // half 1.0 and three steps up
  EXPECT_EQ(ulpDistance(0x7e00, 0x3c00, 2), UINT64_MAX); // half NaN
}

TEST(CompareBuffer, IntegersMustMatchBitForBit) {
  std::vector<uint8_t> simulated = bytesOf(std::vector<int>{1, 2, 3, 4});
  std::vector<uint8_t> gpu = bytesOf(std::vector<int>{1, 2, 30, 4});
  auto result = compareBuffer(2, pointerTo(ir::ValueKind::Int, 4), simulated, {gpu, gpu}, 4);
  EXPECT_EQ(result.param, 2u);
  EXPECT_FALSE(result.floating);
  EXPECT_FALSE(result.variesAcrossRuns());
  EXPECT_FALSE(result.matchesSimulation());
  EXPECT_EQ(result.elementsDifferingFromSimulation, 1u);
  EXPECT_EQ(result.firstSimulationDifferenceOffset, 8u);
  EXPECT_EQ(result.simulatedExample, "0x00000003");
  EXPECT_EQ(result.gpuExample, "0x0000001e");

  auto same = compareBuffer(0, pointerTo(ir::ValueKind::Int, 4), simulated, {simulated}, 4);
  EXPECT_TRUE(same.matchesSimulation());
}

TEST(CompareBuffer, FloatsMatchWithinTheUlpBoundOnly) {
  float x = 0.75f;
  float close = x, far = x;
  for (int i = 0; i < 3; ++i)
    close = std::nextafter(close, 1.0f);
  for (int i = 0; i < 5; ++i)
    far = std::nextafter(far, 1.0f);
  std::vector<uint8_t> simulated = bytesOf(std::vector<float>{x, x});
  auto within = compareBuffer(0, pointerTo(ir::ValueKind::Float, 4), simulated,
                              {bytesOf(std::vector<float>{x, close})}, 4);
  EXPECT_TRUE(within.floating);
  EXPECT_TRUE(within.matchesSimulation());
  EXPECT_EQ(within.maxUlp, 3u);

  auto beyond = compareBuffer(0, pointerTo(ir::ValueKind::Float, 4), simulated,
                              {bytesOf(std::vector<float>{x, far})}, 4);
  EXPECT_FALSE(beyond.matchesSimulation());
  EXPECT_EQ(beyond.maxUlp, 5u);
  EXPECT_EQ(beyond.firstSimulationDifferenceOffset, 4u);

  // The same difference in an integer buffer is a mismatch at any bound.
  auto asInts = compareBuffer(0, pointerTo(ir::ValueKind::Int, 4), simulated,
                              {bytesOf(std::vector<float>{x, close})}, 1000);
  EXPECT_FALSE(asInts.matchesSimulation());
}

TEST(CompareBuffer, RunsThatDifferFromTheFirstShowNondeterminism) {
  std::vector<uint8_t> a = bytesOf(std::vector<int>{5, 6, 7});
  std::vector<uint8_t> b = bytesOf(std::vector<int>{5, 9, 7});
  auto result = compareBuffer(0, pointerTo(ir::ValueKind::Int, 4), a, {a, a, b, a, b}, 0);
  EXPECT_TRUE(result.variesAcrossRuns());
  EXPECT_EQ(result.runs, 5u);
  EXPECT_EQ(result.runsDifferingFromFirst, 2u);
  EXPECT_EQ(result.firstRunDifferenceOffset, 4u);
  EXPECT_TRUE(result.matchesSimulation()); // the first run is what the simulation computed
}

TEST(CompareBuffer, StructBuffersAreComparedByteForByte) {
  ir::ParamInfo param = pointerTo(ir::ValueKind::Aggregate, 24, "particles");
  std::vector<uint8_t> simulated(48, 1), gpu(48, 1);
  gpu[30] = 2;
  auto result = compareBuffer(0, param, simulated, {gpu}, 4);
  EXPECT_FALSE(result.floating);
  EXPECT_EQ(result.elementBytes, 1u);
  EXPECT_EQ(result.elementsDifferingFromSimulation, 1u);
  EXPECT_EQ(result.firstSimulationDifferenceOffset, 30u);
}

} // namespace
} // namespace simulee::replay_test
