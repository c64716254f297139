// How one call site shapes the search (session/SiteSearch.h): constants
// fixed, the user's settings winning, dims that follow a formula computed
// per launch, and the integers they follow kept to launches that fit.
#include "session/SiteSearch.h"

#include <gtest/gtest.h>

using namespace simulee;
using namespace simulee::session;
using host::Formula;
using host::SiteValue;

namespace {

ir::ParamInfo intParam(const char *name) {
  ir::ParamInfo param;
  param.name = name;
  param.kind = ir::ValueKind::Int;
  param.bits = 32;
  return param;
}

// scale(float *data, int n, int half, int mode)
ir::KernelInfo kernel() {
  ir::KernelInfo info;
  info.name = info.sourceName = "scale";
  ir::ParamInfo data;
  data.name = "data";
  data.kind = ir::ValueKind::Pointer;
  data.bits = 64;
  info.params = {data, intParam("n"), intParam("half"), intParam("mode")};
  return info;
}

// scale<<<(n + 255) / 256, 256>>>(data, n, n / 2, 3)
host::CallSite site() {
  host::CallSite site;
  site.file = "main.cu";
  site.line = 12;
  site.kernel = "scale";
  Formula n = Formula::argument(1);
  site.grid[0] = SiteValue::ofFormula(
      Formula::binary(Formula::Op::Div,
                      Formula::binary(Formula::Op::Add, n, Formula::constant(255)),
                      Formula::constant(256)),
      "(n + 255) / 256");
  site.grid[1] = site.grid[2] = SiteValue::ofInteger(1, "");
  site.block[0] = SiteValue::ofInteger(256, "256");
  site.block[1] = site.block[2] = SiteValue::ofInteger(1, "");
  site.sharedBytes = SiteValue::ofInteger(0, "");
  site.arguments = {
      SiteValue::unknown("d"), SiteValue::unknown("n"),
      SiteValue::ofFormula(Formula::binary(Formula::Op::Div, n, Formula::constant(2)), "n / 2"),
      SiteValue::ofInteger(3, "3")};
  return site;
}

std::string valueOf(const std::vector<ArgumentSpec> &specs, const std::string &name) {
  for (const ArgumentSpec &spec : specs)
    if (spec.name == name)
      return spec.value;
  return "";
}

TEST(SitePlan, ConstantsAreFixedAndFormulasDerived) {
  ir::KernelInfo info = kernel();
  host::CallSite call = site();
  SitePlan plan(info, call, {}, 4096);
  FixedSettings fixed = plan.fixed();
  EXPECT_EQ(fixed.site, &plan);
  EXPECT_EQ(valueOf(fixed.args, "mode"), "3");
  ASSERT_TRUE(fixed.block.has_value());
  EXPECT_EQ(fixed.block->x, 256u);
  EXPECT_FALSE(fixed.grid.has_value()); // follows n
  EXPECT_FALSE(plan.derives(1));        // n is searched
  EXPECT_TRUE(plan.derives(2));         // half = n / 2
  EXPECT_FALSE(plan.derives(3));        // mode is fixed
}

TEST(SitePlan, UserSettingsWin) {
  ir::KernelInfo info = kernel();
  host::CallSite call = site();
  FixedSettings user;
  user.block = interp::Dim3{64, 1, 1};
  user.args = {{"mode", "7"}, {"half", "5"}};
  SitePlan plan(info, call, user, 4096);
  FixedSettings fixed = plan.fixed();
  EXPECT_EQ(fixed.block->x, 64u);
  EXPECT_EQ(valueOf(fixed.args, "mode"), "7");
  EXPECT_FALSE(plan.derives(2));
}

TEST(SitePlan, ApplyComputesGridAndDerivedArguments) {
  ir::KernelInfo info = kernel();
  host::CallSite call = site();
  SitePlan plan(info, call, {}, 4096);
  interp::LaunchConfig config;
  std::vector<ArgumentSpec> specs = {{"n", "1000"}, {"mode", "3"}};
  std::vector<uint64_t> positive, allocated, offsets;
  ASSERT_TRUE(plan.apply(config, specs, positive, allocated, offsets));
  EXPECT_EQ(config.grid.x, 4u);
  EXPECT_EQ(valueOf(specs, "half"), "500");
  EXPECT_EQ(positive, std::vector<uint64_t>{500});
  EXPECT_EQ(allocated, (std::vector<uint64_t>{0, 0, 0, 0})); // no allocation known
  // n = 0 launches no block: not a launch the site makes.
  specs = {{"n", "0"}};
  EXPECT_FALSE(plan.apply(config, specs, positive, allocated, offsets));
}

TEST(SitePlan, TheHostsAllocationSizesItsBufferAndBoundsTheSearch) {
  // cudaMalloc(&d, n * sizeof(float)); scale<<<(n + 255) / 256, 256>>>(d, n, n / 2, 3)
  ir::KernelInfo info = kernel();
  info.params[0].elementBytes = 4;
  host::CallSite call = site();
  call.allocationBytes.assign(4, SiteValue::unknown(""));
  call.allocations.assign(4, "");
  call.allocationBytes[0] = SiteValue::ofFormula(
      Formula::binary(Formula::Op::Mul, Formula::argument(1), Formula::constant(4)),
      "n * sizeof(float)");
  call.allocations[0] = "cudaMalloc at main.cu:10";
  SitePlan plan(info, call, {}, 4096);
  EXPECT_TRUE(plan.sizes(0));
  EXPECT_FALSE(plan.sizes(1));
  EXPECT_EQ(plan.allocation(0), "cudaMalloc at main.cu:10");
  interp::LaunchConfig config;
  std::vector<ArgumentSpec> specs = {{"n", "1000"}};
  std::vector<uint64_t> positive, allocated, offsets;
  ASSERT_TRUE(plan.apply(config, specs, positive, allocated, offsets));
  EXPECT_EQ(allocated, (std::vector<uint64_t>{1000, 0, 0, 0}));
  // The user's buffer wins over the host's allocation.
  FixedSettings user;
  user.args = {{"data", "zeros:10"}};
  EXPECT_FALSE(SitePlan(info, call, user, 4096).sizes(0));
}

TEST(SitePlan, AnIntegerSizingOnlyAnAllocationStaysWithinTheLargestAllocation) {
  // The grid is constant; n sizes only the buffer: it is still bounded.
  ir::KernelInfo info = kernel();
  info.params[0].elementBytes = 4;
  host::CallSite call = site();
  call.grid[0] = SiteValue::ofInteger(4, "4");
  call.allocationBytes.assign(4, SiteValue::unknown(""));
  call.allocations.assign(4, "");
  call.allocationBytes[0] = SiteValue::ofFormula(
      Formula::binary(Formula::Op::Mul, Formula::argument(1), Formula::constant(4)), "n * 4");
  SitePlan plan(info, call, {}, 4096);
  evo::SearchSpace space;
  space.scalars.push_back(evo::Gene::integer("n", 32, true));
  space.scalars.back().param = 1;
  plan.shape(space);
  ASSERT_TRUE(space.scalars[0].upper.has_value());
  EXPECT_EQ(*space.scalars[0].upper, double(uint64_t(1) << 24)); // 64 MiB of floats
}

TEST(SitePlan, IntegersSizingTheGridStayWithinTheThreadCap) {
  ir::KernelInfo info = kernel();
  host::CallSite call = site();
  SitePlan plan(info, call, {}, 4096);
  evo::SearchSpace space;
  space.scalars.push_back(evo::Gene::integer("n", 32, true));
  space.scalars.back().param = 1;
  space.scalars.push_back(evo::Gene::integer("mode", 32, true));
  space.scalars.back().param = 3;
  plan.shape(space);
  ASSERT_TRUE(space.grid.fixed.has_value()); // not searched: apply() sets it
  // 16 blocks of 256 threads: n up to 4096.
  EXPECT_EQ(space.scalars[0].lower, 1.0);
  EXPECT_EQ(space.scalars[0].upper, 4096.0);
  EXPECT_FALSE(space.scalars[1].upper.has_value());
}

} // namespace

namespace {

TEST(SitePlan, SearchedIntegersAreMovedOntoTheSitesConstraints) {
  // assert((n & (n - 1)) == 0) before the launch.
  ir::KernelInfo info = kernel();
  host::CallSite call = site();
  Formula n = Formula::argument(1);
  call.constraints.push_back(
      {Formula::binary(Formula::Op::Eq,
                       Formula::binary(Formula::Op::And, n,
                                       Formula::binary(Formula::Op::Sub, n, Formula::constant(1))),
                       Formula::constant(0)),
       "(n & (n - 1)) == 0"});
  SitePlan plan(info, call, {}, 4096);
  interp::LaunchConfig config;
  std::vector<ArgumentSpec> specs = {{"n", "1000"}, {"mode", "3"}};
  std::vector<uint64_t> positive, allocated, offsets;
  ASSERT_TRUE(plan.apply(config, specs, positive, allocated, offsets));
  EXPECT_EQ(valueOf(specs, "n"), "1024"); // the nearest power of two
  EXPECT_EQ(config.grid.x, 4u);
  EXPECT_EQ(valueOf(specs, "half"), "512");
  // A value the user fixed is never moved: that launch is not the site's.
  FixedSettings user;
  user.args = {{"n", "1000"}};
  SitePlan fixedPlan(info, call, user, 4096);
  specs = {{"n", "1000"}, {"mode", "3"}};
  EXPECT_FALSE(fixedPlan.apply(config, specs, positive, allocated, offsets));
}

// gemm(M, N, K, ...) over 32 x 32 tiles: tiled_gemm<<<dim3(CEIL_DIV(M, 32),
// CEIL_DIV(N, 32)), THREADS>>>(M, N, K).
host::CallSite tiledSite(int64_t threads) {
  host::CallSite site;
  site.file = "gemm.cu";
  site.line = 20;
  site.kernel = "tiled_gemm";
  auto ceilDiv = [](uint32_t argument) {
    return Formula::binary(
        Formula::Op::Div,
        Formula::binary(
            Formula::Op::Sub,
            Formula::binary(Formula::Op::Add, Formula::argument(argument), Formula::constant(32)),
            Formula::constant(1)),
        Formula::constant(32));
  };
  site.grid[0] = SiteValue::ofFormula(ceilDiv(0), "CEIL_DIV(M, 32)");
  site.grid[1] = SiteValue::ofFormula(ceilDiv(1), "CEIL_DIV(N, 32)");
  site.grid[2] = SiteValue::ofInteger(1, "");
  site.block[0] = SiteValue::ofInteger(threads, std::to_string(threads));
  site.block[1] = site.block[2] = SiteValue::ofInteger(1, "");
  site.sharedBytes = SiteValue::ofInteger(0, "");
  site.arguments = {SiteValue::unknown("M"), SiteValue::unknown("N"), SiteValue::unknown("K")};
  return site;
}

ir::KernelInfo tiledKernel() {
  ir::KernelInfo info;
  info.name = info.sourceName = "tiled_gemm";
  info.params = {intParam("M"), intParam("N"), intParam("K")};
  return info;
}

TEST(SitePlan, SizesAGridCountsInTilesAreMovedOntoWholeTiles) {
  ir::KernelInfo info = tiledKernel();
  host::CallSite call = tiledSite(1024); // a flat block: its threads are no tile's width
  SitePlan plan(info, call, {}, 1 << 16);
  EXPECT_EQ(plan.tiledParameters(),
            (std::vector<std::pair<std::string, int64_t>>{{"M", 32}, {"N", 32}}));
  interp::LaunchConfig config;
  std::vector<ArgumentSpec> specs = {{"M", "8"}, {"N", "50"}, {"K", "37"}};
  std::vector<uint64_t> positive, allocated, offsets;
  ASSERT_TRUE(plan.apply(config, specs, positive, allocated, offsets));
  EXPECT_EQ(valueOf(specs, "M"), "32"); // at least one tile
  EXPECT_EQ(valueOf(specs, "N"), "64"); // the nearest whole number of tiles
  EXPECT_EQ(valueOf(specs, "K"), "37"); // no grid counts it
  EXPECT_EQ(config.grid.x, 1u);
  EXPECT_EQ(config.grid.y, 2u);
}

TEST(SitePlan, OneThreadPerElementIsNoTiling) {
  // 32 x 32 blocks over a matrix, and scale's (n + 255) / 256 blocks of 256:
  // their partial blocks are what their bounds checks are for.
  ir::KernelInfo info = tiledKernel();
  host::CallSite call = tiledSite(32);
  call.block[1] = SiteValue::ofInteger(32, "32");
  EXPECT_TRUE(SitePlan(info, call, {}, 1 << 16).tiledParameters().empty());
  ir::KernelInfo scaleInfo = kernel();
  host::CallSite scaleCall = site();
  EXPECT_TRUE(SitePlan(scaleInfo, scaleCall, {}, 4096).tiledParameters().empty());
}

TEST(SitePlan, EachPartOfAConditionMovesItsOwnInteger) {
  // if (M >= 128 && N >= 128) launch: both searched values below it.
  ir::KernelInfo info = tiledKernel();
  host::CallSite call = tiledSite(32);
  call.block[1] = SiteValue::ofInteger(32, "32");
  call.constraints.push_back(
      {Formula::binary(
           Formula::Op::LogicalAnd,
           Formula::binary(Formula::Op::Ge, Formula::argument(0), Formula::constant(128)),
           Formula::binary(Formula::Op::Ge, Formula::argument(1), Formula::constant(128))),
       "M >= 128 and N >= 128"});
  SitePlan plan(info, call, {}, 1 << 20);
  interp::LaunchConfig config;
  std::vector<ArgumentSpec> specs = {{"M", "40"}, {"N", "100"}, {"K", "8"}};
  std::vector<uint64_t> positive, allocated, offsets;
  ASSERT_TRUE(plan.apply(config, specs, positive, allocated, offsets));
  EXPECT_EQ(valueOf(specs, "M"), "128");
  EXPECT_EQ(valueOf(specs, "N"), "128");
}

} // namespace
