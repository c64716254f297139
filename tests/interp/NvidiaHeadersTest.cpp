// Kernels compiled against NVIDIA's own headers (CUB, inline PTX) run in the
// interpreter and give the host's answers. Needs the CUDA installation that
// scripts/setup.sh assembles (scripts/cuda-headers.sh).
#include "TestSupport.h"

#include "ir/CudaInstallation.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <random>

namespace simulee::interp_test {
namespace {

using interp::ArgumentValue;

::testing::AssertionResult runNvidia(const std::string &file, const std::string &kernel,
                                     interp::Dim3 grid, interp::Dim3 block,
                                     std::vector<ArgumentValue> &args) {
  Result<std::optional<ir::CudaInstallation>> cuda = ir::findCudaInstallation("");
  if (!cuda || !*cuda)
    return ::testing::AssertionFailure()
           << "no CUDA installation from NVIDIA's wheels: run scripts/cuda-headers.sh";
  return launch("nvidia/" + file, 0, kernel, grid, block, args);
}

template <class T> std::vector<T> randomValues(size_t count, T low, T high, unsigned seed) {
  std::mt19937 engine(seed);
  std::vector<T> values(count);
  for (T &value : values) {
    if constexpr (std::is_floating_point_v<T>)
      value = std::uniform_real_distribution<T>(low, high)(engine);
    else
      value = T(std::uniform_int_distribution<long long>(low, high)(engine));
  }
  return values;
}

TEST(CubKernels, BlockReduceSumMatchesHost) {
  const int blocks = 3, block = 128;
  std::vector<int> in = randomValues<int>(blocks * block, -1000, 1000, 1), out(blocks, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(runNvidia("cub_block.cu", "blockReduceSum", {blocks, 1, 1}, {block, 1, 1}, args));
  std::vector<int> expected(blocks, 0);
  for (int i = 0; i < blocks * block; ++i)
    expected[i / block] += in[i];
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[1].bytes)));
}

TEST(CubKernels, BlockReduceWarpReductionsMaxMatchesHost) {
  const int blocks = 2, block = 128;
  std::vector<float> in = randomValues<float>(blocks * block, -50.f, 50.f, 2), out(blocks, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(runNvidia("cub_block.cu", "blockReduceMax", {blocks, 1, 1}, {block, 1, 1}, args));
  std::vector<float> expected(blocks, -1e30f);
  for (int i = 0; i < blocks * block; ++i)
    expected[i / block] = std::max(expected[i / block], in[i]);
  EXPECT_TRUE(matches(expected, valuesOf<float>(args[1].bytes)));
}

TEST(CubKernels, WarpScanInclusiveAndExclusiveMatchHost) {
  const int blocks = 2, block = 128, n = blocks * block;
  std::vector<int> in = randomValues<int>(n, -20, 20, 3), inclusive(n, 0), exclusive(n, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(inclusive), bufferArg(exclusive)};
  ASSERT_TRUE(runNvidia("cub_block.cu", "warpInclusiveScan", {blocks, 1, 1}, {block, 1, 1}, args));
  std::vector<int> wantInclusive(n), wantExclusive(n);
  for (int i = 0; i < n; ++i) {
    bool first = i % 32 == 0;
    wantExclusive[i] = first ? 0 : wantInclusive[i - 1];
    wantInclusive[i] = (first ? 0 : wantInclusive[i - 1]) + in[i];
  }
  EXPECT_TRUE(matches(wantInclusive, valuesOf<int>(args[1].bytes)));
  // Lane 0's exclusive sum is undefined in CUB; compare the others.
  std::vector<int> gotExclusive = valuesOf<int>(args[2].bytes);
  for (int i = 0; i < n; i += 32)
    gotExclusive[i] = wantExclusive[i];
  EXPECT_TRUE(matches(wantExclusive, gotExclusive));
}

TEST(CubKernels, BlockRadixSortSortsEveryTile) {
  const int blocks = 2, block = 64, items = 2, tile = block * items;
  std::vector<unsigned> keys = randomValues<unsigned>(blocks * tile, 0, 1u << 30, 4);
  std::vector<unsigned> sorted(keys.size(), 0);
  std::vector<ArgumentValue> args = {bufferArg(keys), bufferArg(sorted)};
  ASSERT_TRUE(runNvidia("cub_block.cu", "blockRadixSort", {blocks, 1, 1}, {block, 1, 1}, args));
  std::vector<unsigned> expected = keys;
  for (int b = 0; b < blocks; ++b)
    std::sort(expected.begin() + b * tile, expected.begin() + (b + 1) * tile);
  EXPECT_TRUE(matches(expected, valuesOf<unsigned>(args[1].bytes)));
}

// Host definitions of the PTX instructions, from the PTX ISA.
uint32_t bfeU32(uint32_t a, uint32_t pos, uint32_t len) {
  if (len == 0)
    return 0;
  uint64_t shifted = pos >= 32 ? 0 : uint64_t(a) >> pos;
  return len >= 32 ? uint32_t(shifted) : uint32_t(shifted & ((1ull << len) - 1));
}
uint32_t bfeS32(uint32_t a, uint32_t pos, uint32_t len) {
  if (len == 0)
    return 0;
  uint32_t msb = std::min(pos + len - 1, 31u);
  uint32_t sign = (a >> msb) & 1;
  uint32_t result = 0;
  for (uint32_t bit = 0; bit < 32; ++bit) {
    uint32_t value = bit < len && pos + bit <= 31 ? (a >> (pos + bit)) & 1 : sign;
    result |= value << bit;
  }
  return result;
}
uint32_t bfi(uint32_t insert, uint32_t base, uint32_t pos, uint32_t len) {
  uint32_t result = base;
  for (uint32_t bit = 0; bit < len && pos + bit < 32; ++bit)
    result = (result & ~(1u << (pos + bit))) | (((insert >> bit) & 1) << (pos + bit));
  return result;
}
uint32_t prmt(uint32_t a, uint32_t b, uint32_t selector) {
  uint64_t bytes = uint64_t(b) << 32 | a;
  uint32_t result = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t nibble = (selector >> (4 * i)) & 0xf;
    uint32_t byte = uint32_t(bytes >> (8 * (nibble & 7))) & 0xff;
    if (nibble & 8)
      byte = (byte & 0x80) ? 0xff : 0;
    result |= byte << (8 * i);
  }
  return result;
}
uint32_t brev(uint32_t a) {
  uint32_t result = 0;
  for (int bit = 0; bit < 32; ++bit)
    result |= ((a >> bit) & 1) << (31 - bit);
  return result;
}

TEST(InlinePtx, LaneIdAndLaneMaskMatchTheLanes) {
  const int n = 96;
  std::vector<unsigned> lane(n, 99), mask(n, 99);
  std::vector<ArgumentValue> args = {bufferArg(lane), bufferArg(mask)};
  ASSERT_TRUE(runNvidia("inline_ptx.cu", "specialRegisters", {1, 1, 1}, {n, 1, 1}, args));
  std::vector<unsigned> wantLane(n), wantMask(n);
  for (int i = 0; i < n; ++i) {
    wantLane[i] = unsigned(i % 32);
    wantMask[i] = (1u << (i % 32)) - 1;
  }
  EXPECT_TRUE(matches(wantLane, valuesOf<unsigned>(args[0].bytes)));
  EXPECT_TRUE(matches(wantMask, valuesOf<unsigned>(args[1].bytes)));
}

TEST(InlinePtx, BitFieldPermuteAndLogicMatchTheIsa) {
  const int n = 64;
  std::vector<unsigned> a = randomValues<unsigned>(n, 0, 0xffffffffu, 5);
  std::vector<unsigned> b = randomValues<unsigned>(n, 0, 0xffffffffu, 6);
  a[0] = 0x80000000u, b[0] = 31 | (5 << 5); // a field running past the sign bit
  a[1] = 0x12345678u, b[1] = 0;             // zero length
  std::vector<unsigned> out(8 * n, 0);
  std::vector<ArgumentValue> args = {bufferArg(a), bufferArg(b), bufferArg(out)};
  ASSERT_TRUE(runNvidia("inline_ptx.cu", "bitOps", {1, 1, 1}, {n, 1, 1}, args));
  std::vector<unsigned> expected(8 * n);
  for (int i = 0; i < n; ++i) {
    uint32_t x = a[i], y = b[i], pos = y & 31, len = (y >> 5) & 31;
    expected[8 * i + 0] = bfeU32(x, pos, len);
    expected[8 * i + 1] = bfeS32(x, pos, len);
    expected[8 * i + 2] = bfi(y, x, pos, len);
    expected[8 * i + 3] = prmt(x, y, y & 0xffff);
    expected[8 * i + 4] = x ^ y ^ (x + y); // LUT 0x96 is a three-way xor
    expected[8 * i + 5] = pos == 0 ? y : (y << pos) | (x >> (32 - pos));
    expected[8 * i + 6] = brev(x);
    expected[8 * i + 7] = uint32_t(std::countl_zero(x)) * 256 + uint32_t(std::popcount(x));
  }
  EXPECT_TRUE(matches(expected, valuesOf<unsigned>(args[2].bytes)));
}

// The prmt modes' byte selections, written out by hand from the PTX ISA's
// table for a = 0x03020100, b = 0x07060504 (every byte holds its own index,
// so each result lists the selected indices, byte 3 first).
TEST(InlinePtx, PermuteModesSelectTheIsaBytes) {
  const unsigned byMode[6][4] = {
      {0x03020100, 0x04030201, 0x05040302, 0x06050403}, // f4e: forward 4 extract
      {0x05060700, 0x06070001, 0x07000102, 0x00010203}, // b4e: backward 4 extract
      {0x00000000, 0x01010101, 0x02020202, 0x03030303}, // rc8: replicate byte
      {0x03020100, 0x03020101, 0x03020202, 0x03030303}, // ecl: edge clamp left
      {0x00000000, 0x01010100, 0x02020100, 0x03020100}, // ecr: edge clamp right
      {0x01000100, 0x03020302, 0x01000100, 0x03020302}, // rc16: replicate half
  };
  // Only c[1:0] selects: the upper bits must not matter.
  std::vector<unsigned> selectors = {0, 1, 2, 3, 0xfffffff0u, 0x12345677u, 0xabcdef05u, 6};
  std::vector<unsigned> out(6 * selectors.size(), 0xdeadbeef);
  std::vector<ArgumentValue> args = {bufferArg(selectors), bufferArg(out)};
  ASSERT_TRUE(runNvidia("inline_ptx.cu", "prmtModes", {1, 1, 1},
                        {unsigned(selectors.size()), 1, 1}, args));
  std::vector<unsigned> expected;
  for (unsigned selector : selectors)
    for (const auto &mode : byMode)
      expected.push_back(mode[selector & 3]);
  EXPECT_TRUE(matches(expected, valuesOf<unsigned>(args[1].bytes)));
}

TEST(InlinePtx, BarrierReductionsCountAndCombineTheBlock) {
  const int n = 96;
  std::vector<unsigned> v = randomValues<unsigned>(n, 0, 1000, 9);
  std::vector<unsigned> count(n, 7), all(n, 7), any(n, 7);
  std::vector<ArgumentValue> args = {bufferArg(v), bufferArg(count), bufferArg(all),
                                     bufferArg(any)};
  ASSERT_TRUE(runNvidia("inline_ptx.cu", "barrierReductions", {1, 1, 1}, {n, 1, 1}, args));
  unsigned odd = unsigned(std::count_if(v.begin(), v.end(), [](unsigned x) { return x & 1; }));
  EXPECT_TRUE(matches(std::vector<unsigned>(n, odd), valuesOf<unsigned>(args[1].bytes)));
  EXPECT_TRUE(matches(std::vector<unsigned>(n, odd == unsigned(n)), valuesOf<unsigned>(args[2].bytes)));
  EXPECT_TRUE(matches(std::vector<unsigned>(n, odd < unsigned(n)), valuesOf<unsigned>(args[3].bytes)));
}

TEST(InlinePtx, NamedBarrierSyncWaitsForTheArrivingProducers) {
  std::vector<float> in = randomValues<float>(64, -1.0f, 1.0f, 4), out(64, -5.0f);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(runNvidia("inline_ptx.cu", "namedBarrierConsumersFirst", {1, 1, 1}, {128, 1, 1},
                        args));
  std::vector<float> expected(64);
  for (int t = 0; t < 64; ++t)
    expected[t] = in[63 - t] + 1.0f;
  EXPECT_TRUE(matches(expected, valuesOf<float>(args[1].bytes)));
}

TEST(InlinePtx, BarrierSyncCountIntrinsicWaitsForTheBlock) {
  std::vector<float> in = randomValues<float>(64, -1.0f, 1.0f, 8), out(64, -5.0f);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(runNvidia("inline_ptx.cu", "namedBarrierIntrinsic", {1, 1, 1}, {128, 1, 1}, args));
  std::vector<float> expected(64);
  for (int t = 0; t < 64; ++t)
    expected[t] = in[63 - t] * 3.0f;
  EXPECT_TRUE(matches(expected, valuesOf<float>(args[1].bytes)));
}

TEST(InlinePtx, PredicatedShuffleDownSumsEachWarp) {
  const int n = 64;
  std::vector<int> in = randomValues<int>(n, -100, 100, 7), out(n, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(runNvidia("inline_ptx.cu", "shuffleSum", {1, 1, 1}, {n, 1, 1}, args));
  // Lane l ends with the sum of lanes l..31 reachable by the doubling offsets
  // (the predicate keeps out-of-range lanes from adding): the suffix sum.
  std::vector<int> expected(n);
  for (int w = 0; w < n; w += 32) {
    std::vector<int> value(in.begin() + w, in.begin() + w + 32);
    for (int offset = 1; offset < 32; offset *= 2) {
      std::vector<int> next = value;
      for (int l = 0; l < 32; ++l)
        if (l + offset <= 31)
          next[l] = value[l + offset] + value[l];
      value = next;
    }
    std::copy(value.begin(), value.end(), expected.begin() + w);
  }
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[1].bytes)));
}

TEST(InlinePtx, CarryChainAndWideMultiplyGiveSixtyFourBitResults) {
  const int n = 32;
  std::vector<unsigned long long> a(n), b(n), sum(n, 0), product(n, 0);
  std::mt19937_64 engine(8);
  for (int i = 0; i < n; ++i)
    a[i] = engine(), b[i] = engine();
  a[0] = 0x00000000ffffffffull, b[0] = 1; // carry out of the low half
  std::vector<ArgumentValue> args = {bufferArg(a), bufferArg(b), bufferArg(sum), bufferArg(product)};
  ASSERT_TRUE(runNvidia("inline_ptx.cu", "carryChain", {1, 1, 1}, {n, 1, 1}, args));
  std::vector<unsigned long long> wantSum(n), wantProduct(n);
  for (int i = 0; i < n; ++i) {
    wantSum[i] = a[i] + b[i];
    wantProduct[i] = uint64_t(uint32_t(a[i])) * uint64_t(uint32_t(b[i]));
  }
  std::vector<unsigned long long> gotSum = valuesOf<unsigned long long>(args[2].bytes);
  std::vector<unsigned long long> gotProduct = valuesOf<unsigned long long>(args[3].bytes);
  EXPECT_EQ(wantSum, gotSum);
  EXPECT_EQ(wantProduct, gotProduct);
}

TEST(InlinePtx, VoteMatchGuardedStoreAndReductionMatchHost) {
  const int n = 64;
  std::vector<int> in = randomValues<int>(n, -3, 3, 9), copy(n, 77), total(1, 0);
  std::vector<unsigned> ballot(n, 0), match(n, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(ballot), bufferArg(match),
                                     bufferArg(copy), bufferArg(total)};
  ASSERT_TRUE(runNvidia("inline_ptx.cu", "warpAndMemory", {1, 1, 1}, {n, 1, 1}, args));
  std::vector<unsigned> wantBallot(n, 0), wantMatch(n, 0);
  std::vector<int> wantCopy = copy;
  for (int i = 0; i < n; ++i) {
    int w = i / 32 * 32;
    for (int l = 0; l < 32; ++l) {
      wantBallot[i] |= unsigned(in[w + l] > 0) << l;
      wantMatch[i] |= unsigned((in[w + l] & 3) == (in[i] & 3)) << l;
    }
    if (in[i] != 0)
      wantCopy[i] = in[i];
  }
  EXPECT_TRUE(matches(wantBallot, valuesOf<unsigned>(args[1].bytes)));
  EXPECT_TRUE(matches(wantMatch, valuesOf<unsigned>(args[2].bytes)));
  EXPECT_TRUE(matches(wantCopy, valuesOf<int>(args[3].bytes)));
  EXPECT_EQ(std::accumulate(in.begin(), in.end(), 0), valuesOf<int>(args[4].bytes).at(0));
}

TEST(NanTags, NanOfATagIsTheQuietNanItSpells) {
  std::vector<ArgumentValue> args = {bufferArg(std::vector<uint64_t>(4, 0)),
                                     bufferArg(std::vector<uint32_t>(2, 0))};
  ASSERT_TRUE(runNvidia("nan_tags.cu", "nanTags", {1, 1, 1}, {1, 1, 1}, args));
  EXPECT_EQ(valuesOf<uint64_t>(args[0].bytes),
            (std::vector<uint64_t>{0x7ff8000000000000ull, std::bit_cast<uint64_t>(1.0),
                                   0x7ff8000000000012ull, 0x7ff8000000000007ull}));
  EXPECT_EQ(valuesOf<uint32_t>(args[1].bytes), (std::vector<uint32_t>{0x7fc00000u, 0x7fc00005u}));
}

// dp4a and dp2a against their definition in the PTX ISA, on bytes and
// halves of both signs.
TEST(DotProducts, BytesAndHalvesMultiplyAndAccumulateByTheirSignedness) {
  const int n = 32;
  std::vector<int> a = randomValues<int>(n, INT32_MIN, INT32_MAX, 11);
  std::vector<int> b = randomValues<int>(n, INT32_MIN, INT32_MAX, 12);
  std::vector<ArgumentValue> args = {bufferArg(a), bufferArg(b),
                                     bufferArg(std::vector<int>(4 * n, 0)),
                                     bufferArg(std::vector<uint32_t>(2 * n, 0))};
  ASSERT_TRUE(runNvidia("dot_products.cu", "dotProducts", {1, 1, 1}, {n, 1, 1}, args));
  auto part = [](uint32_t word, unsigned bits, unsigned index, bool isSigned) -> int64_t {
    uint32_t field = word >> (bits * index) & ((1u << bits) - 1);
    return isSigned && field >> (bits - 1) ? int64_t(field) - (int64_t(1) << bits) : field;
  };
  auto dp4a = [&](uint32_t x, uint32_t y, int64_t c, bool isSigned) {
    for (unsigned i = 0; i < 4; ++i)
      c += part(x, 8, i, isSigned) * part(y, 8, i, isSigned);
    return uint32_t(c);
  };
  auto dp2a = [&](uint32_t x, uint32_t y, int64_t c, bool high, bool isSigned) {
    for (unsigned i = 0; i < 2; ++i)
      c += part(x, 16, i, isSigned) * part(y, 8, (high ? 2 : 0) + i, isSigned);
    return uint32_t(c);
  };
  std::vector<uint32_t> want(4 * n), wantUnsigned(2 * n);
  for (int i = 0; i < n; ++i) {
    uint32_t x = uint32_t(a[i]), y = uint32_t(b[i]);
    want[4 * i] = dp4a(x, y, i, true);
    want[4 * i + 1] = dp2a(x, y, -i, false, true);
    want[4 * i + 2] = dp2a(x, y, 7, true, true);
    want[4 * i + 3] = dp4a(x, y & 0x7f7f7f7f, 0, true);
    wantUnsigned[2 * i] = dp4a(x, y, 1, false);
    wantUnsigned[2 * i + 1] = dp2a(x, y, 2, true, false);
  }
  EXPECT_EQ(valuesOf<uint32_t>(args[2].bytes), want);
  EXPECT_EQ(valuesOf<uint32_t>(args[3].bytes), wantUnsigned);
}

} // namespace
} // namespace simulee::interp_test

namespace simulee::interp_test {
namespace {

std::vector<float> uniformNumbers(unsigned long long seed, int threads, int perThread) {
  std::vector<float> out(size_t(threads) * perThread, -1.0f);
  std::vector<ArgumentValue> args = {scalarArg(seed), bufferArg(out), scalarArg(perThread)};
  EXPECT_TRUE(runNvidia("curand_thrust.cu", "uniformNumbers", {1, 1, 1}, {uint32_t(threads), 1, 1}, args));
  return valuesOf<float>(args[1].bytes);
}

// cuRAND's XORWOW generator for subsequence 0 (no skip-ahead), as its
// documentation defines it, and curand_uniform's mapping into (0, 1].
std::vector<float> hostXorwowUniform(unsigned long long seed, int count) {
  uint32_t t0 = 1099087573u * (uint32_t(seed) ^ 0xaad26b49u);
  uint32_t t1 = 2591861531u * (uint32_t(seed >> 32) ^ 0xf7dcefddu);
  uint32_t d = 6615241u + t1 + t0;
  uint32_t v[5] = {123456789u + t0, 362436069u ^ t0, 521288629u + t1, 88675123u ^ t1, 5783321u + t0};
  std::vector<float> values;
  for (int k = 0; k < count; ++k) {
    uint32_t t = v[0] ^ (v[0] >> 2);
    v[0] = v[1], v[1] = v[2], v[2] = v[3], v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
    d += 362437u;
    values.push_back(float(v[4] + d) * 2.3283064e-10f + 2.3283064e-10f / 2.0f);
  }
  return values;
}

TEST(CurandKernels, UniformIsInUnitIntervalAndReproducible) {
  const int threads = 64, perThread = 8;
  std::vector<float> first = uniformNumbers(1234, threads, perThread);
  std::vector<float> again = uniformNumbers(1234, threads, perThread);
  std::vector<float> other = uniformNumbers(99, threads, perThread);
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
  double mean = 0;
  for (float value : first) {
    EXPECT_GT(value, 0.0f);
    EXPECT_LE(value, 1.0f);
    mean += value / first.size();
  }
  EXPECT_NEAR(mean, 0.5, 0.05);
  std::vector<float> threadZero(first.begin(), first.begin() + perThread);
  EXPECT_TRUE(matches(hostXorwowUniform(1234, perThread), threadZero));
  // Every thread has its own subsequence: no two threads share a stream.
  for (int t = 1; t < threads; ++t)
    EXPECT_NE(first[0], first[size_t(t) * perThread]);
}

TEST(ThrustFunctors, TransformAndPlusReductionMatchHost) {
  const int blocks = 2, block = 128, n = blocks * block;
  const float a = 2.0f;
  std::vector<float> x(n), y(n), out(n, 0), sums(blocks, 0);
  for (int i = 0; i < n; ++i)
    x[i] = float(i % 7 - 3), y[i] = float(i % 5);
  std::vector<ArgumentValue> args = {bufferArg(x), bufferArg(y), bufferArg(out), bufferArg(sums), scalarArg(a)};
  ASSERT_TRUE(runNvidia("curand_thrust.cu", "transformReduce", {blocks, 1, 1}, {block, 1, 1}, args));
  std::vector<float> wantOut(n), wantSums(blocks, 0);
  for (int i = 0; i < n; ++i) {
    wantOut[i] = a * x[i] + y[i];
    wantSums[i / block] += wantOut[i];
  }
  EXPECT_TRUE(matches(wantOut, valuesOf<float>(args[2].bytes)));
  EXPECT_TRUE(matches(wantSums, valuesOf<float>(args[3].bytes)));
}

TEST(CacheHints, HintedLoadsAndStoresAreThePlainOnes) {
  const int n = 64;
  std::vector<float> in4 = randomValues<float>(4 * n, -8.f, 8.f, 3), out4(4 * n, 0);
  std::vector<float> in = randomValues<float>(n, -8.f, 8.f, 4), out(3 * n, 0);
  std::vector<uint16_t> inHalf(n), outHalf(n, 0);
  for (int i = 0; i < n; ++i)
    inHalf[i] = uint16_t(0x3c00 + (i % 4) * 0x0400); // 1, 2, 4, 8 as __half
  std::vector<ArgumentValue> args = {bufferArg(in4),    bufferArg(out4),    bufferArg(in),
                                     bufferArg(out),    bufferArg(inHalf),  bufferArg(outHalf),
                                     scalarArg(int32_t(n))};
  ASSERT_TRUE(runNvidia("cache_hints.cu", "cacheHints", {2, 1, 1}, {32, 1, 1}, args));
  std::vector<float> want4 = in4, want(3 * n);
  std::vector<uint16_t> wantHalf(n);
  const uint16_t plusOne[4] = {0x4000, 0x4200, 0x4500, 0x4880}; // 2, 3, 5, 9
  for (int i = 0; i < n; ++i) {
    want4[4 * i] += 1.0f;
    want[i] = float(2.0 * in[i] + in[i] + in[i] + in[i]);
    want[n + i] = in[i];
    want[2 * n + i] = -in[i];
    wantHalf[i] = plusOne[i % 4];
  }
  EXPECT_TRUE(matches(want4, valuesOf<float>(args[1].bytes)));
  EXPECT_TRUE(matches(want, valuesOf<float>(args[3].bytes)));
  EXPECT_EQ(wantHalf, valuesOf<uint16_t>(args[5].bytes));
}

} // namespace
} // namespace simulee::interp_test
