// Blocks of one launch on several threads (RunOptions::jobs,
// interp/ParallelBlocks.h): memory, events, statistics and errors are those
// of running the blocks one after another, whether the blocks are
// independent (they do run in parallel) or communicate through global
// memory (the chunks where they do are undone and run in order).
#include "TestSupport.h"

#include "interp/Events.h"
#include "interp/ParallelBlocks.h"

#include <sstream>

namespace simulee::interp_test {
namespace {

using interp::ArgumentValue;

const char *kSource = R"(
#include <assert.h>
// Independent blocks: a tree reduction in shared memory, one sum per block.
__global__ void blockSums(const int *in, int *out) {
  __shared__ int part[64];
  unsigned t = threadIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
}
// The last block to finish adds every block's sum: blocks communicate
// through a counter and the partial sums.
__global__ void lastBlockTotals(const int *in, int *partial, unsigned *done, int *total) {
  __shared__ bool last;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0) partial[blockIdx.x] = 0;
  __syncthreads();
  atomicAdd(&partial[blockIdx.x], v);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(done, 1) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}
// Each block waits for the previous block's flag: in order the wait is
// already over, in parallel a block spins on a flag another block writes.
__global__ void chain(volatile int *flags, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x > 0)
      while (flags[blockIdx.x - 1] == 0) {}
    flags[blockIdx.x] = blockIdx.x + 1;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = flags[blockIdx.x];
}
// Writes everywhere, then one block fails an assertion halfway through the
// grid, and another block reads out of bounds.
__global__ void failsAtBlock(int *out, int failing, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
  if (blockIdx.x == 3 && threadIdx.x == 1) out[n + 5] = 1;
  assert(!(blockIdx.x == failing && threadIdx.x == 7));
  out[i] += 1;
}
// Each block runs long: its events alone outgrow what a chunk may hold
// while it waits to be passed on.
__global__ void longBlocks(int *out, int rounds) {
  __shared__ int counts[32];
  counts[threadIdx.x] = 0;
  for (int r = 0; r < rounds; ++r)
    counts[threadIdx.x] += r;
  out[blockIdx.x * blockDim.x + threadIdx.x] = counts[threadIdx.x];
}
__device__ int scratch[4096];
// A __device__ variable every block writes at its own index and reads back.
__global__ void throughVariable(int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[i] = 3 * i;
  __syncthreads();
  out[i] = scratch[i ^ 1];
}
)";

const ir::Program &program() {
  static std::unique_ptr<ir::Program> loaded = [] {
    Result<ir::Program> p = ir::loadProgramFromCuda(kSource, "parallel_blocks.cu");
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p ? std::make_unique<ir::Program>(std::move(*p)) : nullptr;
  }();
  return *loaded;
}

struct Outcome {
  std::string error;
  interp::RunStats stats;
  std::string events;
  std::vector<ArgumentValue> args;
};

Outcome run(const std::string &kernel, uint32_t grid, uint32_t block,
        std::vector<ArgumentValue> args, unsigned jobs, uint64_t totalBudget = 0) {
  Outcome result;
  const ir::KernelInfo *k = program().findKernel(kernel);
  EXPECT_NE(k, nullptr) << kernel;
  if (!k)
    return result;
  interp::LaunchConfig config;
  config.grid = {grid, 1, 1};
  config.block = {block, 1, 1};
  config.totalBudgetInstrs = totalBudget;
  interp_test::EventTrace trace;
  interp::RunOptions options;
  options.listener = &trace;
  options.jobs = jobs;
  Result<interp::RunStats> stats = interp::runKernel(program(), *k, config, args, options);
  if (stats)
    result.stats = *stats;
  else
    result.error = stats.error().message;
  result.events = trace.text.str();
  result.args = std::move(args);
  return result;
}

// The run on `jobs` threads equals the run on one; the former's blocks run
// in parallel, as counted.
uint64_t expectSameAsInOrder(const std::string &kernel, uint32_t grid, uint32_t block,
                             const std::vector<ArgumentValue> &args, unsigned jobs,
                             uint64_t totalBudget = 0) {
  Outcome inOrder = run(kernel, grid, block, args, 1, totalBudget);
  Outcome parallel = run(kernel, grid, block, args, jobs, totalBudget);
  EXPECT_EQ(inOrder.error, parallel.error) << kernel << " on " << jobs;
  EXPECT_EQ(inOrder.stats.threadInstrs, parallel.stats.threadInstrs) << kernel;
  EXPECT_EQ(inOrder.stats.warpSteps, parallel.stats.warpSteps) << kernel;
  EXPECT_EQ(inOrder.stats.blocksInParallel, 0u);
  EXPECT_TRUE(inOrder.events == parallel.events) << kernel << " on " << jobs;
  EXPECT_EQ(inOrder.args.size(), parallel.args.size());
  for (size_t i = 0; i < inOrder.args.size() && i < parallel.args.size(); ++i)
    EXPECT_TRUE(inOrder.args[i].bytes == parallel.args[i].bytes) << kernel << " argument " << i;
  return parallel.stats.blocksInParallel;
}

std::vector<int> counting(size_t n) {
  std::vector<int> values(n);
  for (size_t i = 0; i < n; ++i)
    values[i] = int(i * 7 % 13);
  return values;
}

TEST(ParallelBlocks, IndependentBlocksRunInParallelWithTheSameResult) {
  for (unsigned jobs : {2u, 3u, 8u}) {
    std::vector<ArgumentValue> args = {bufferArg(counting(64 * 100)),
                                       bufferArg(std::vector<int>(100))};
    EXPECT_EQ(expectSameAsInOrder("_Z9blockSumsPKiPi", 100, 64, args, jobs), 100u) << jobs;
  }
  Outcome parallel = run("_Z9blockSumsPKiPi", 100, 64,
                     {bufferArg(counting(64 * 100)), bufferArg(std::vector<int>(100))}, 2);
  std::vector<int> sums = valuesOf<int>(parallel.args[1].bytes);
  std::vector<int> in = counting(64 * 100);
  int first = 0;
  for (int i = 0; i < 64; ++i)
    first += in[i];
  EXPECT_EQ(sums[0], first);
}

TEST(ParallelBlocks, BlocksCommunicatingThroughGlobalMemoryRunInOrder) {
  std::vector<ArgumentValue> totals = {bufferArg(counting(32 * 40)),
                                       bufferArg(std::vector<int>(40)),
                                       bufferArg(std::vector<unsigned>(1)),
                                       bufferArg(std::vector<int>(1))};
  EXPECT_LT(expectSameAsInOrder("_Z15lastBlockTotalsPKiPiPjS1_", 40, 32, totals, 2), 40u);
  Outcome parallel = run("_Z15lastBlockTotalsPKiPiPjS1_", 40, 32, totals, 3);
  std::vector<int> in = counting(32 * 40);
  int sum = 0;
  for (int v : in)
    sum += v;
  EXPECT_EQ(valuesOf<int>(parallel.args[3].bytes)[0], sum);
  EXPECT_EQ(valuesOf<unsigned>(parallel.args[2].bytes)[0], 40u);

  // A block spinning on a flag only another block of its chunk writes
  // stops once the chunk is void, and the chain completes in order.
  std::vector<ArgumentValue> chain = {bufferArg(std::vector<int>(64)),
                                      bufferArg(std::vector<int>(64 * 32))};
  expectSameAsInOrder("_Z5chainPViPi", 64, 32, chain, 2);
  Outcome chained = run("_Z5chainPViPi", 64, 32, chain, 4);
  EXPECT_EQ(chained.error, "");
  EXPECT_EQ(valuesOf<int>(chained.args[1].bytes)[63 * 32 + 5], 64);
}

TEST(ParallelBlocks, AFailingBlockFailsAsInOrderWithTheSameMemory) {
  for (int failing : {0, 5, 37}) {
    std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(40 * 32)), scalarArg(failing),
                                       scalarArg(40 * 32)};
    expectSameAsInOrder("_Z12failsAtBlockPiii", 40, 32, args, 3);
    Outcome parallel = run("_Z12failsAtBlockPiii", 40, 32, args, 3);
    EXPECT_NE(parallel.error.find("assertion"), std::string::npos) << parallel.error;
    EXPECT_NE(parallel.error.find("of block (" + std::to_string(failing) + ",0,0)"),
              std::string::npos)
        << parallel.error;
  }
  // No failure: the overrun is an event like any, in its block's place.
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(40 * 32)), scalarArg(-1),
                                     scalarArg(40 * 32)};
  EXPECT_EQ(expectSameAsInOrder("_Z12failsAtBlockPiii", 40, 32, args, 2), 40u);
  EXPECT_NE(run("_Z12failsAtBlockPiii", 40, 32, args, 2).events.find("overrun 3/1"),
            std::string::npos);
}

TEST(ParallelBlocks, TheInstructionBudgetStopsTheLaunchWhereItWouldInOrder) {
  std::vector<ArgumentValue> args = {bufferArg(counting(64 * 100)),
                                     bufferArg(std::vector<int>(100))};
  Outcome whole = run("_Z9blockSumsPKiPi", 100, 64, args, 1);
  ASSERT_EQ(whole.error, "");
  uint64_t budget = whole.stats.threadInstrs * 2 / 3;
  expectSameAsInOrder("_Z9blockSumsPKiPi", 100, 64, args, 3, budget);
  EXPECT_NE(run("_Z9blockSumsPKiPi", 100, 64, args, 3, budget).error.find(interp::kLaunchTooCostly),
            std::string::npos);
}

TEST(ParallelBlocks, DeviceVariablesAreSharedByTheWorkers) {
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(4096))};
  EXPECT_EQ(expectSameAsInOrder("_Z15throughVariablePi", 64, 64, args, 4), 64u);
  std::vector<int> out = valuesOf<int>(run("_Z15throughVariablePi", 64, 64, args, 4).args[0].bytes);
  EXPECT_EQ(out[10], 3 * 11);
  EXPECT_EQ(out[4095], 3 * 4094);
}

// Counts the accesses passed on and folds them, in order, into one number.
struct AccessFold final : interp::ExecutionListener {
  uint64_t count = 0, fold = 0;
  void onAccess(const interp::AccessEvent &event) override {
    ++count;
    fold = fold * 1000003 ^ (uint64_t(event.block) << 40 ^ uint64_t(event.thread) << 32 ^
                             event.step << 8 ^ event.offset ^ uint64_t(event.kind));
  }
};

// A block whose events would outgrow a chunk's share of memory (32 MiB)
// does not wait to be passed on: its chunk runs again block after block,
// and so does the rest of the launch, with the events of the launch in order.
TEST(ParallelBlocks, BlocksTooLongToRecordRunInOrder) {
  const ir::KernelInfo *k = program().findKernel("_Z10longBlocksPii");
  ASSERT_NE(k, nullptr);
  interp::LaunchConfig config;
  config.grid = {4, 1, 1};
  config.block = {32, 1, 1};
  uint64_t folds[2] = {}, counts[2] = {};
  for (unsigned jobs : {1u, 2u}) {
    std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(4 * 32)), scalarArg(9000)};
    AccessFold fold;
    interp::RunOptions options;
    options.listener = &fold;
    options.jobs = jobs;
    Result<interp::RunStats> stats = interp::runKernel(program(), *k, config, args, options);
    ASSERT_TRUE(stats.ok()) << stats.error().message;
    EXPECT_EQ(stats->blocksInParallel, 0u) << jobs;
    EXPECT_EQ(valuesOf<int>(args[0].bytes)[33], 9000 * 8999 / 2);
    folds[jobs - 1] = fold.fold;
    counts[jobs - 1] = fold.count;
  }
  EXPECT_GT(counts[0], 4u * 32 * 9000 * 2);
  EXPECT_EQ(counts[0], counts[1]);
  EXPECT_EQ(folds[0], folds[1]);
}

TEST(ParallelBlocks, ClaimsAllowSharedReadsAndOneBlocksWrites) {
  interp::GlobalClaims claims(6);
  alignas(16) uint8_t bytes[64] = {};
  EXPECT_TRUE(claims.claim(bytes, 4, /*writes=*/false, 1));
  EXPECT_TRUE(claims.claim(bytes, 4, false, 2)); // read by many
  EXPECT_FALSE(claims.claim(bytes, 4, true, 1)); // written after another's read
  EXPECT_TRUE(claims.claim(bytes + 8, 8, true, 3));
  EXPECT_TRUE(claims.claim(bytes + 12, 1, false, 3)); // its own write
  EXPECT_FALSE(claims.claim(bytes + 12, 1, false, 4));
  EXPECT_FALSE(claims.claim(bytes + 6, 4, true, 4)); // spans a granule block 3 wrote
  EXPECT_TRUE(claims.claim(bytes + 16, 4, false, 5));
  EXPECT_TRUE(claims.claim(bytes + 16, 4, true, 5)); // its own read, then written
  EXPECT_FALSE(claims.full());
  claims.clear();
  EXPECT_TRUE(claims.claim(bytes + 8, 8, true, 4)); // a new chunk
  // Half the table's slots at most: then every new granule is refused.
  claims.clear();
  EXPECT_TRUE(claims.claim(bytes, 64, true, 1)); // 16 granules
  EXPECT_TRUE(claims.claim(bytes, 64, true, 1));
  alignas(16) uint8_t more[256] = {};
  EXPECT_FALSE(claims.claim(more, 256, true, 1));
  EXPECT_TRUE(claims.full());
}

} // namespace
} // namespace simulee::interp_test
