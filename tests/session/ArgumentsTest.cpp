// Buffer fills (`FILL:N`, and what the search evolves for automatic
// buffers): each keeps its promise, index fills never leave the smallest
// other buffer, and the same seed gives the same bytes.
#include "session/Arguments.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>

using namespace simulee;
using session::Fill;

namespace {

ir::ParamInfo intBuffer(const std::string &name) {
  ir::ParamInfo param;
  param.name = name;
  param.kind = ir::ValueKind::Pointer;
  param.bits = 64;
  param.elementKind = ir::ValueKind::Int;
  param.elementBytes = 4;
  return param;
}

// A kernel (idx, data): the index buffer and the buffer it indexes.
ir::KernelInfo twoBuffers() {
  ir::KernelInfo kernel;
  kernel.name = kernel.sourceName = "k";
  kernel.params = {intBuffer("idx"), intBuffer("data")};
  return kernel;
}

std::vector<int32_t> ints(const interp::ArgumentValue &value) {
  std::vector<int32_t> out(value.bytes.size() / 4);
  std::memcpy(out.data(), value.bytes.data(), out.size() * 4);
  return out;
}

std::vector<int32_t> built(const std::string &idxSpec, uint64_t seed = 7) {
  interp::LaunchConfig config;
  config.block = {64, 1, 1};
  Result<session::BuiltArguments> args = session::buildArguments(
      twoBuffers(), config, {{"idx", idxSpec}, {"data", "zeros:50"}}, seed);
  EXPECT_TRUE(args.ok()) << (args.ok() ? "" : args.error().message);
  return args.ok() ? ints(args->values[0]) : std::vector<int32_t>{};
}

} // namespace

TEST(BufferFill, IndicesStayInsideTheSmallestOtherBufferAndRepeat) {
  std::vector<int32_t> idx = built("indices:200");
  ASSERT_EQ(idx.size(), 200u);
  EXPECT_TRUE(std::all_of(idx.begin(), idx.end(), [](int32_t v) { return v >= 0 && v < 50; }));
  std::sort(idx.begin(), idx.end());
  EXPECT_NE(std::adjacent_find(idx.begin(), idx.end()), idx.end()) << "200 draws from 50 repeat";
}

TEST(BufferFill, PermutationHasEveryIndexOnce) {
  std::vector<int32_t> perm = built("perm:64");
  std::vector<int32_t> expected(64);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_NE(perm, expected) << "shuffled";
  std::sort(perm.begin(), perm.end());
  EXPECT_EQ(perm, expected);
}

TEST(BufferFill, SortedAndPrefixSumsAreMonotone) {
  for (const char *spec : {"sorted:100", "prefix:100"}) {
    std::vector<int32_t> values = built(spec);
    EXPECT_TRUE(std::is_sorted(values.begin(), values.end())) << spec;
    EXPECT_GT(values.back(), values.front()) << spec;
  }
  EXPECT_EQ(built("prefix:10").front(), 0);
}

TEST(BufferFill, BinarySmallAndZerosKeepTheirRange) {
  auto within = [](const std::vector<int32_t> &v, int32_t low, int32_t high) {
    return std::all_of(v.begin(), v.end(), [&](int32_t x) { return x >= low && x <= high; });
  };
  EXPECT_TRUE(within(built("binary:64"), 0, 1));
  EXPECT_TRUE(within(built("small:64"), 0, 7));
  EXPECT_TRUE(within(built("zeros:64"), 0, 0));
}

TEST(BufferFill, SameSeedSameBytesOtherSeedOtherBytes) {
  EXPECT_EQ(built("indices:64", 3), built("indices:64", 3));
  EXPECT_NE(built("indices:64", 3), built("indices:64", 4));
}

TEST(BufferFill, AutomaticBuffersFollowTheSearchsFill) {
  interp::LaunchConfig config;
  config.block = {32, 1, 1};
  Result<session::BuiltArguments> args = session::buildArguments(
      twoBuffers(), config, {}, 1, {40, 10}, {Fill::Indices, Fill::Binary});
  ASSERT_TRUE(args.ok());
  std::vector<int32_t> idx = ints(args->values[0]);
  EXPECT_TRUE(std::all_of(idx.begin(), idx.end(), [](int32_t v) { return v >= 0 && v < 10; }));
  EXPECT_EQ(args->record[0].second, "indices:40");
  EXPECT_EQ(args->record[1].second, "binary:10");
}

TEST(BufferFill, UnknownFillIsAClearError) {
  interp::LaunchConfig config;
  Result<session::BuiltArguments> args =
      session::buildArguments(twoBuffers(), config, {{"idx", "shuffled:4"}}, 1);
  ASSERT_FALSE(args.ok());
  EXPECT_NE(args.error().message.find("expected FILL:N"), std::string::npos)
      << args.error().message;
}

TEST(BufferFill, AnyCountTheMemoryLimitHoldsIsABuffer) {
  // A program's allocation of 2^28 + 16 bytes: a buffer of that size (once
  // refused for its count). Past --max-memory the error names the
  // parameter, its size and the limit.
  ir::KernelInfo kernel = twoBuffers();
  kernel.params[1].elementBytes = 1;
  interp::LaunchConfig config;
  uint64_t count = (uint64_t(1) << 28) + 16;
  Result<session::BuiltArguments> args = session::buildArguments(
      kernel, config, {{"idx", "zeros:4"}, {"data", "zeros:" + std::to_string(count)}}, 1);
  ASSERT_TRUE(args.ok()) << args.error().message;
  EXPECT_EQ(args->values[1].bytes.size(), count);
  args = session::buildArguments(kernel, config,
                                 {{"idx", "zeros:4"}, {"data", "zeros:1000000000000"}}, 1);
  ASSERT_FALSE(args.ok());
  EXPECT_NE(args.error().message.find("buffer for parameter 'data' (1000000000000 elements"),
            std::string::npos)
      << args.error().message;
  EXPECT_NE(args.error().message.find("--max-memory"), std::string::npos) << args.error().message;
}
