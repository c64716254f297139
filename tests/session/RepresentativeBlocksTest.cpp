// Representative blocks and untracked accesses (issue 18): a launch's
// findings are the same, to the example thread and offset, whether every
// access of every block is modelled (--all-blocks) or only one block per
// class of blocks with equal shared-memory behaviour and no access proven
// free of conflicts; and the verdict counts the blocks modelled.
#include "ir/Loader.h"
#include "session/Analysis.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace simulee;

namespace {

const char *kSource = R"(
// Missing barrier in the tree: a race in every block, the same in each.
__global__ void reduceRacy(const float *in, float *out) {
  __shared__ float part[128];
  unsigned t = threadIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
  }
  if (t == 0) out[blockIdx.x] = part[0];
}
// Race-free, with a barrier that is needed.
__global__ void reduce(const float *in, float *out) {
  __shared__ float part[128];
  unsigned t = threadIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
}
// Every thread of a block stores its input to one slot: a same-value race
// (a note) where the block's inputs agree, a real one where they differ,
// which depends on each block's data.
__global__ void lastWriterWins(const int *in, int *out) {
  __shared__ int slot;
  slot = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = slot;
}
// Odd and even blocks use shared memory differently; the last block races.
__global__ void byParity(float *out, int n) {
  __shared__ float tile[64];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  unsigned from = (threadIdx.x + 1 + blockIdx.x % 2) % blockDim.x;
  if (blockIdx.x + 1 == gridDim.x) from = 0;
  float v = tile[from];
  if (blockIdx.x + 1 == gridDim.x && threadIdx.x == 5) tile[0] = 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
)";

std::string describe(const std::vector<detect::Finding> &findings) {
  std::string text;
  for (const detect::Finding &f : findings) {
    text += std::string(detect::findingKindName(f.kind)) + " " + f.variable + "+" +
            std::to_string(f.exampleOffset) + " x" + std::to_string(f.occurrences) +
            (f.benign == detect::Benign::No ? "" : " benign") + ":";
    for (const detect::Site &site : f.sites)
      text += " " + std::to_string(site.instruction) + "@" + std::to_string(site.block) + "/" +
              std::to_string(site.thread);
    text += " " + f.detail + "\n";
  }
  return text;
}

struct Outcome {
  std::string findings;
  detect::LaunchCounts counts;
};

Outcome analyse(const ir::Program &program, const std::string &kernel, uint32_t grid,
                uint32_t block, std::vector<session::ArgumentSpec> args, bool allBlocks,
                uint64_t seed = 1) {
  session::LaunchSpec spec;
  spec.config.grid = {grid, 1, 1};
  spec.config.block = {block, 1, 1};
  spec.args = std::move(args);
  spec.seed = seed;
  session::AnalysisOptions options;
  options.allBlocks = allBlocks;
  Result<session::KernelAnalysis> analysis =
      session::analyzeLaunch(program, *program.findKernel(kernel), spec, options);
  EXPECT_TRUE(analysis.ok()) << analysis.error().message;
  if (!analysis)
    return {};
  return {describe(analysis->findings), analysis->counts};
}

class RepresentativeBlocks : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    Result<ir::Program> loaded = ir::loadProgramFromCuda(kSource, "representative.cu");
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    program_ = new ir::Program(std::move(*loaded));
  }
  static void TearDownTestSuite() { delete program_; }
  static ir::Program *program_;
};
ir::Program *RepresentativeBlocks::program_ = nullptr;

TEST_F(RepresentativeBlocks, EqualBlocksAreModelledOnceWithTheSameFindings) {
  for (const char *kernel : {"_Z10reduceRacyPKfPf", "_Z6reducePKfPf"}) {
    std::vector<session::ArgumentSpec> args = {{"in", "random:8192"}, {"out", "zeros:64"}};
    Outcome all = analyse(*program_, kernel, 64, 128, args, /*allBlocks=*/true);
    Outcome some = analyse(*program_, kernel, 64, 128, args, /*allBlocks=*/false);
    EXPECT_EQ(all.findings, some.findings) << kernel;
    EXPECT_EQ(all.counts.blocksModelled, 64u) << kernel;
    EXPECT_EQ(some.counts.blocks, 64u) << kernel;
    EXPECT_LE(some.counts.blocksModelled, 2u) << kernel;
  }
  EXPECT_NE(analyse(*program_, "_Z10reduceRacyPKfPf", 64, 128,
                    {{"in", "random:8192"}, {"out", "zeros:64"}}, false)
                .findings,
            "");
}

TEST_F(RepresentativeBlocks, BlocksDifferingInDataOrIndexAreModelledApart) {
  // 0/1 inputs in 4-thread blocks: some blocks store one value four times
  // (a same-value race), others two values; each pattern is its own class.
  for (uint64_t seed : {1, 2, 3, 4, 5}) {
    std::vector<session::ArgumentSpec> args = {{"in", "binary:256"}, {"out", "zeros:64"}};
    Outcome all = analyse(*program_, "_Z14lastWriterWinsPKiPi", 64, 4, args, true, seed);
    Outcome some = analyse(*program_, "_Z14lastWriterWinsPKiPi", 64, 4, args, false, seed);
    EXPECT_EQ(all.findings, some.findings) << "seed " << seed;
    EXPECT_GT(some.counts.blocksModelled, 1u) << "seed " << seed;
    EXPECT_LT(some.counts.blocksModelled, 64u) << "seed " << seed;
  }
  std::vector<session::ArgumentSpec> args = {{"out", "zeros:2048"}, {"n", "2048"}};
  Outcome all = analyse(*program_, "_Z8byParityPfi", 32, 64, args, true);
  Outcome some = analyse(*program_, "_Z8byParityPfi", 32, 64, args, false);
  EXPECT_EQ(all.findings, some.findings);
  EXPECT_NE(some.findings.find("data-race tile+0"), std::string::npos) << some.findings;
  EXPECT_EQ(some.counts.blocksModelled, 3u); // even, odd, the last
}

} // namespace
