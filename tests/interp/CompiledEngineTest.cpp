// The compiled engine (jit/Engine.h) against the interpreter, its reference:
// the same memory, counts, events and errors on the cases compiled code
// hands back to the interpreter (divergence, unusual lanes, budgets), and
// code made once per program and function. Every kernel of the interpreter's
// output tests also runs under both (TestSupport.h's launch).
#include "TestSupport.h"

#include "jit/Engine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace simulee;
using interp::ArgumentValue;
using interp_test::bufferArg;
using interp_test::EngineRun;
using interp_test::scalarArg;
using interp_test::valuesOf;

namespace {

const char *kSource = R"(
// Each thread loops its own number of times: branches diverge and
// reconverge, and the loop's body is straight-line arithmetic.
__global__ void triangle(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int sum = 0;
  for (int k = 0; k <= i % 37; ++k) {
    sum += k * k - (k >> 1);
    if (k & 1) sum ^= i;
  }
  out[i] = sum;
}

// A loop that ends only when memory says so.
__global__ void spin(volatile int *flag, int *count) {
  int c = 0;
  while (flag[0] == 0) ++c;
  count[threadIdx.x] = c;
}

// Warp 0 waits for a flag warp 1 raises: warp 0 runs first, and spins
// until it gives way to warp 1 (Launch::givesWay).
__global__ void handOff(volatile int *flag, int *data, int *out) {
  if (threadIdx.x >= 32) {
    data[threadIdx.x - 32] = 3 * threadIdx.x;
    __threadfence_block();
    if (threadIdx.x == 32)
      *flag = 1;
  } else {
    while (*flag == 0) {
    }
    out[threadIdx.x] = data[threadIdx.x];
  }
}

// Shifts some lanes cannot make (undefined), and a step of a pointer far
// past its buffer (its offset saturates).
__global__ void unusual(unsigned *out, unsigned amount, long long far) {
  unsigned t = threadIdx.x;
  out[t] = 1u << (t + amount);
  unsigned *p = out + far * (t & 1);
  if (t == 3) *p = 7;
}

// Float arithmetic with NaNs, infinities and signed zeros.
__global__ void floats(const float *a, const float *b, float *sums, double *products, int *less) {
  int t = threadIdx.x;
  sums[t] = a[t] + b[t] - a[t] * b[t] / (b[t] - 1.0f);
  products[t] = (double)a[t] * (double)b[t] / ((double)b[t] - 1.0);
  less[t] = a[t] < b[t] || !(a[t] >= b[t]);
}

// Integer division (some lanes by zero, one INT_MIN / -1), conversions
// between floats, doubles and integers of each width (NaN, infinities,
// values out of range), the math functions compiled code computes, and
// integer bit functions.
__global__ void conversions(const int *num, const int *den, const float *x, int *quotients,
                            unsigned long long *bits, float *floats, double *doubles) {
  int t = threadIdx.x;
  int n = num[t], d = den[t];
  if (n == 12345) // a branch: compiled code is entered after it (step 0 is the interpreter's)
    return;
  unsigned un = unsigned(n), ud = unsigned(d);
  quotients[4 * t] = n / d;
  quotients[4 * t + 1] = n % d;
  quotients[4 * t + 2] = int(un / ud);
  quotients[4 * t + 3] = int(un % ud);
  float f = x[t];
  double wide = double(f) * 3.0;
  bits[8 * t] = (unsigned long long)(long long)f;
  bits[8 * t + 1] = (unsigned long long)f;
  bits[8 * t + 2] = unsigned(int(wide));
  bits[8 * t + 3] = (unsigned short)(short)f + ((unsigned long long)(unsigned char)f << 32);
  bits[8 * t + 4] = __popc(un) + 64 * __clz(n) + 4096 * __ffs(d) +
                    (unsigned long long)__builtin_ctz(un | 0x10000) << 20;
  bits[8 * t + 5] = unsigned(abs(n)) ^ (unsigned long long)(unsigned)min(n, d) << 32;
  bits[8 * t + 6] = max(un, ud) + (unsigned long long)(unsigned)max(n, d) << 32;
  bits[8 * t + 7] = (unsigned long long)llabs((long long)n * d) ^ (unsigned long long)min(un, ud);
  floats[8 * t] = sqrtf(f) + floorf(f);
  floats[8 * t + 1] = rsqrtf(f) * ceilf(f);
  floats[8 * t + 2] = truncf(f) - roundf(f);
  floats[8 * t + 3] = rintf(f) + fabsf(f);
  floats[8 * t + 4] = float(wide / 7.0);
  floats[8 * t + 5] = float(n) + float(un) * 0.5f;
  floats[8 * t + 6] = float((long long)n * 1000003) + float((unsigned long long)un << 31);
  floats[8 * t + 7] = __frcp_rn(f);
  doubles[4 * t] = sqrt(wide) + floor(wide) - round(wide);
  doubles[4 * t + 1] = double(n) + double((unsigned long long)un * 4294967311ull);
  doubles[4 * t + 2] = fabs(wide) * ceil(wide) + trunc(wide) + rint(wide);
  doubles[4 * t + 3] = double(f);
}

// A per-thread array indexed by data lives on each lane's stack; one lane
// reads far past it.
__global__ void stacks(const int *keys, int *out, int n) {
  int t = threadIdx.x;
  if (keys[t] == -12345)
    return;
  int hist[16];
  for (int k = 0; k < 16; ++k)
    hist[k] = k * t;
  for (int k = 0; k < n; ++k)
    hist[(keys[t] + k) & 15] += k;
  int sum = 0;
  for (int k = 0; k < 16; ++k)
    sum += hist[k] * (k + 1);
  out[t] = sum + (keys[t] == 7 ? hist[keys[t] * 100000] : hist[keys[t] & 15]);
}

// Shared memory and barriers: a tree sum.
__global__ void treeSum(const int *in, int *out) {
  __shared__ int part[128];
  int t = threadIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
}

// Each thread rescales its own element (no other thread's access can reach
// it: blocks run in parallel claim nothing for it), then every block's first
// thread writes one word of global memory, where blocks run in parallel
// collide: their chunk is undone, rescaled elements included, and run again
// block after block.
__global__ void rescaleThenCollide(float *y, int *last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = y[i] * 2.0f + 1.0f;
  if (threadIdx.x == 0) *last = blockIdx.x;
}
)";

const ir::Program &program() {
  static std::unique_ptr<ir::Program> loaded = [] {
    Result<ir::Program> p = ir::loadProgramFromCuda(kSource, "compiled_engine.cu");
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p ? std::make_unique<ir::Program>(std::move(*p)) : nullptr;
  }();
  return *loaded;
}

struct Outcomes {
  EngineRun interpreted, compiled, plain;
  std::vector<ArgumentValue> interpretedArgs, compiledArgs, plainArgs;
};

// Runs `kernel` under both engines and expects the same outcome.
Outcomes expectSameUnderBothEngines(const std::string &kernel, interp::LaunchConfig config,
                                    const std::vector<ArgumentValue> &args, unsigned jobs = 1) {
  Outcomes outcomes;
  const ir::KernelInfo *k = program().findKernel(kernel);
  EXPECT_NE(k, nullptr) << kernel;
  if (!k)
    return outcomes;
  outcomes.interpretedArgs = args;
  outcomes.compiledArgs = args;
  outcomes.interpreted = interp_test::runWith(interp::Engine::Interpreter, program(), *k, config,
                                              outcomes.interpretedArgs, jobs);
  outcomes.compiled = interp_test::runWith(interp::Engine::Compiled, program(), *k, config,
                                           outcomes.compiledArgs, jobs);
  EXPECT_TRUE(interp_test::sameRuns(outcomes.interpreted, outcomes.compiled,
                                    outcomes.interpretedArgs, outcomes.compiledArgs))
      << kernel;
  EXPECT_EQ(outcomes.interpreted.stats.compiledThreadInstrs, 0u);
  // With no listener for accesses, compiled code makes loads and stores itself.
  outcomes.plainArgs = args;
  outcomes.plain = interp_test::runWith(interp::Engine::Compiled, program(), *k, config,
                                        outcomes.plainArgs, jobs, /*accesses=*/false);
  EngineRun interpreted = outcomes.interpreted;
  interpreted.events = interp_test::withoutAccesses(interpreted.events);
  EXPECT_TRUE(interp_test::sameRuns(interpreted, outcomes.plain, outcomes.interpretedArgs,
                                    outcomes.plainArgs))
      << kernel << " (no access events)";
  return outcomes;
}

interp::LaunchConfig launchOf(uint32_t grid, uint32_t block) {
  interp::LaunchConfig config;
  config.grid = {grid, 1, 1};
  config.block = {block, 1, 1};
  return config;
}

TEST(CompiledEngine, DivergentLoopsGiveTheInterpretersResults) {
  const int n = 1000;
  Outcomes runs = expectSameUnderBothEngines("triangle", launchOf(8, 128),
                                             {bufferArg(std::vector<int>(n, -1)), scalarArg(n)});
  EXPECT_EQ(runs.compiled.error, "");
  // Most of the work ran compiled.
  EXPECT_GT(runs.compiled.stats.compiledThreadInstrs, runs.compiled.stats.threadInstrs / 2);
  std::vector<int> out = valuesOf<int>(runs.compiledArgs[0].bytes);
  for (int i = 0; i < n; i += 97) {
    int sum = 0;
    for (int k = 0; k <= i % 37; ++k) {
      sum += k * k - (k >> 1);
      if (k & 1)
        sum ^= i;
    }
    EXPECT_EQ(out[i], sum) << i;
  }
}

TEST(CompiledEngine, ALoopPastTheStepBudgetStopsWhereTheInterpreterStops) {
  interp::LaunchConfig config = launchOf(1, 64);
  config.budgetInstrs = 50000;
  Outcomes runs = expectSameUnderBothEngines(
      "spin", config, {bufferArg(std::vector<int>{0}), bufferArg(std::vector<int>(64))});
  EXPECT_NE(runs.compiled.error.find(interp::kDoesNotTerminate), std::string::npos)
      << runs.compiled.error;
}

TEST(CompiledEngine, AWarpSpinningOnAnotherWarpGivesWayAtTheSameStepUnderBoth) {
  Outcomes runs =
      expectSameUnderBothEngines("handOff", launchOf(1, 64),
                                 {bufferArg(std::vector<int>{0}), bufferArg(std::vector<int>(32)),
                                  bufferArg(std::vector<int>(32, -1))});
  EXPECT_EQ(runs.compiled.error, "");
  std::vector<int> out = valuesOf<int>(runs.compiledArgs[2].bytes);
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(out[i], 3 * (32 + i)) << i;
  // Warp 0 spun compiled until it gave way, then found the flag.
  EXPECT_GT(runs.compiled.stats.compiledThreadInstrs, 32u * jit::kStopCheckSteps / 2);
}

TEST(CompiledEngine, ALaunchPastItsThreadInstructionBudgetStopsWhereTheInterpreterStops) {
  interp::LaunchConfig config = launchOf(8, 128);
  config.totalBudgetInstrs = 20000;
  Outcomes runs = expectSameUnderBothEngines("triangle", config,
                                             {bufferArg(std::vector<int>(1024)), scalarArg(1024)});
  EXPECT_NE(runs.compiled.error.find(interp::kLaunchTooCostly), std::string::npos)
      << runs.compiled.error;
}

// Each warp's first block runs compiled, after the stop check the
// interpreter makes at its first step: the only one a block of short warps
// gets after the block's own.
TEST(CompiledEngine, CompiledCodeMakesTheInterpretersStopChecks) {
  const ir::KernelInfo *kernel = program().findKernel("triangle");
  ASSERT_NE(kernel, nullptr);
  interp::LaunchConfig config = launchOf(1, 1024);
  config.budgetSeconds = 1e-9;
  std::vector<ArgumentValue> args{bufferArg(std::vector<int>(1024)), scalarArg(1024)};
  EngineRun run = interp_test::runWith(interp::Engine::Compiled, program(), *kernel, config, args);
  EXPECT_NE(run.error.find("time budget"), std::string::npos) << run.error;
}

TEST(CompiledEngine, UnusualLanesAreTheInterpretersToReport) {
  Outcomes runs = expectSameUnderBothEngines(
      "unusual", launchOf(1, 32),
      {bufferArg(std::vector<unsigned>(32)), scalarArg(uint32_t(20)), scalarArg(int64_t(1) << 45)});
  EXPECT_NE(runs.compiled.events.find("ub "), std::string::npos);      // the shifts
  EXPECT_NE(runs.compiled.events.find("overrun "), std::string::npos); // the far store
}

TEST(CompiledEngine, FloatResultsHaveTheInterpretersBits) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> a{1.5f, nan, inf, -0.0f, 3.0f, -inf, 1e30f, 2.0f};
  std::vector<float> b{2.0f, 1.0f, -inf, 0.0f, nan, -inf, 1e-30f, 1.0f};
  std::vector<float> sums(8);
  std::vector<double> products(8);
  std::vector<int> less(8);
  expectSameUnderBothEngines(
      "floats", launchOf(1, 8),
      {bufferArg(a), bufferArg(b), bufferArg(sums), bufferArg(products), bufferArg(less)});
}

TEST(CompiledEngine, DivisionsConversionsAndMathHaveTheInterpretersBits) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const int most = std::numeric_limits<int>::max(), least = std::numeric_limits<int>::min();
  std::vector<int> num, den;
  std::vector<float> x;
  const float values[] = {2.5f,   -2.5f,  3.5f,     -0.0f,   nan,   inf,    -inf, 1e20f,
                          -1e20f, 255.9f, 65537.7f, -129.5f, 0.25f, 1e-40f, 4e9f, -3e9f};
  for (int t = 0; t < 64; ++t) {
    num.push_back(t % 5 == 0 ? least : (t - 20) * 7919 + (t % 3 == 0 ? most / 3 : 0));
    den.push_back(t % 8 == 1 ? 0 : t % 11 == 0 ? -1 : (t % 7) - 3 + (t & 16));
    x.push_back(values[t % 16] * (t < 32 ? 1.0f : -1.5f));
  }
  std::vector<int> quotients(4 * 64);
  std::vector<uint64_t> bits(8 * 64);
  std::vector<float> floats(8 * 64);
  std::vector<double> doubles(4 * 64);
  auto args = [&] {
    return std::vector<ArgumentValue>{bufferArg(num),       bufferArg(den),  bufferArg(x),
                                      bufferArg(quotients), bufferArg(bits), bufferArg(floats),
                                      bufferArg(doubles)};
  };
  Outcomes runs = expectSameUnderBothEngines("conversions", launchOf(1, 64), args());
  EXPECT_NE(runs.compiled.events.find("ub "), std::string::npos); // division by zero
  // With no lane dividing by zero or overflowing, the divisions are compiled too.
  for (int &d : den)
    d = d == 0 || d == -1 ? 3 : d;
  runs = expectSameUnderBothEngines("conversions", launchOf(1, 64), args());
  EXPECT_EQ(runs.compiled.events.find("ub "), std::string::npos);
  EXPECT_GT(runs.compiled.stats.compiledThreadInstrs, runs.compiled.stats.threadInstrs / 2);
}

TEST(CompiledEngine, StacksAreAccessedInPlaceAsTheInterpreterWould) {
  std::vector<int> keys(64);
  for (int t = 0; t < 64; ++t)
    keys[t] = (t * 37) % 29;
  Outcomes runs = expectSameUnderBothEngines(
      "stacks", launchOf(1, 64), {bufferArg(keys), bufferArg(std::vector<int>(64)), scalarArg(40)});
  EXPECT_GT(runs.compiled.stats.compiledThreadInstrs, runs.compiled.stats.threadInstrs * 3 / 4);
  EXPECT_NE(runs.compiled.events.find("overrun "), std::string::npos); // key 7's read
}

TEST(CompiledEngine, BarriersAndBlocksInParallelGiveTheInterpretersEvents) {
  std::vector<int> in(16 * 128);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = int(i % 13);
  for (unsigned jobs : {1u, 2u}) {
    Outcomes runs = expectSameUnderBothEngines(
        "treeSum", launchOf(16, 128), {bufferArg(in), bufferArg(std::vector<int>(16))}, jobs);
    EXPECT_GT(runs.compiled.stats.compiledThreadInstrs, 0u);
  }
}

// Compiled code makes the stores of blocks run in parallel that claim
// nothing itself, saving what they overwrite: an undone chunk restores them,
// and each element is rescaled once.
TEST(CompiledEngine, StoresOfBlocksInParallelAreUndoneWithTheirChunk) {
  std::vector<float> y(8 * 64);
  for (size_t i = 0; i < y.size(); ++i)
    y[i] = float(i % 11);
  Outcomes runs = expectSameUnderBothEngines("rescaleThenCollide", launchOf(8, 64),
                                             {bufferArg(y), bufferArg(std::vector<int>{-1})}, 2);
  EXPECT_EQ(runs.compiled.error, "");
  std::vector<float> out = valuesOf<float>(runs.compiledArgs[0].bytes);
  for (size_t i = 0; i < y.size(); ++i)
    EXPECT_EQ(out[i], y[i] * 2.0f + 1.0f) << i;
  EXPECT_EQ(valuesOf<int>(runs.compiledArgs[1].bytes)[0], 7);
  EXPECT_GT(runs.compiled.stats.compiledThreadInstrs, runs.compiled.stats.threadInstrs / 2);
}

TEST(CompiledEngine, TheDefaultCompilesAFunctionOnceItRanLong) {
  const ir::KernelInfo *kernel = program().findKernel("triangle");
  ASSERT_NE(kernel, nullptr);
  program().compiledCode = nullptr; // fresh code: the earlier tests' is dropped
  auto compiledOf = [&](interp::Engine engine, int n) {
    std::vector<ArgumentValue> args{bufferArg(std::vector<int>(n)), scalarArg(n)};
    // No listener for accesses: the threshold is kCompileAfterWarpSteps.
    EngineRun run = interp_test::runWith(engine, program(), *kernel, launchOf(n / 256, 256), args,
                                         1, /*accesses=*/false);
    EXPECT_EQ(run.error, "");
    return run.stats.compiledThreadInstrs;
  };
  // A small launch is interpreted; a large one's first steps are too, then
  // the function has run long (kCompileAfterWarpSteps) and is compiled; and
  // from then on every launch of it runs compiled.
  EXPECT_EQ(compiledOf(interp::Engine::Auto, 256), 0u);
  EXPECT_GT(compiledOf(interp::Engine::Auto, 1 << 18), 0u);
  EXPECT_GT(compiledOf(interp::Engine::Auto, 256), 0u);
  // The interpreter alone never runs compiled code.
  EXPECT_EQ(compiledOf(interp::Engine::Interpreter, 1 << 18), 0u);
}

// A launch whose blocks so far, as many again for each block to come, pass
// the threshold is compiled once its first block ended: 95% of it runs
// compiled (divergent branches stay the interpreter's), where waiting for
// the threshold's steps gives 84%.
TEST(CompiledEngine, ALaunchThatWillRunLongIsCompiledAfterItsFirstBlock) {
  const ir::KernelInfo *kernel = program().findKernel("triangle");
  ASSERT_NE(kernel, nullptr);
  program().compiledCode = nullptr;
  const int n = 1 << 18;
  std::vector<ArgumentValue> args{bufferArg(std::vector<int>(n)), scalarArg(n)};
  EngineRun run = interp_test::runWith(interp::Engine::Auto, program(), *kernel,
                                       launchOf(n / 256, 256), args, 1, /*accesses=*/false);
  ASSERT_EQ(run.error, "");
  EXPECT_GT(run.stats.warpSteps, 4 * interp::kCompileAfterWarpSteps);
  EXPECT_GT(run.stats.compiledThreadInstrs, run.stats.threadInstrs / 100 * 90);
}

// A quiet instruction (RunOptions::quietAccesses): compiled code sends one
// event per warp, the first active lane's, standing for the warp's active
// lanes; every access is still accounted for.
TEST(CompiledEngine, AQuietInstructionSendsOneEventPerWarpForItsLanes) {
  const ir::KernelInfo *kernel = program().findKernel("triangle");
  ASSERT_NE(kernel, nullptr);
  struct Counter final : interp::ExecutionListener {
    bool wantsAccesses() const override { return true; }
    void onAccess(const interp::AccessEvent &e) override {
      ++events;
      accesses += e.count;
      firstLanes += e.count > 1 && e.lane == 0;
    }
    uint64_t events = 0, accesses = 0, firstLanes = 0;
  };
  auto run = [&](bool quiet) {
    const int n = 1000; // 31 full warps and one of 8 lanes store
    std::vector<ArgumentValue> args{bufferArg(std::vector<int>(n)), scalarArg(n)};
    Counter counter;
    interp::RunOptions options;
    options.listener = &counter;
    options.engine = interp::Engine::Compiled;
    if (quiet)
      options.quietAccesses.assign(program().instructions.size(), true);
    auto stats = interp::runKernel(program(), *kernel, launchOf(4, 256), args, options);
    EXPECT_TRUE(stats) << stats.error().message;
    return counter;
  };
  Counter loud = run(false), quiet = run(true);
  EXPECT_EQ(loud.events, 1000u);
  EXPECT_EQ(loud.accesses, 1000u);
  EXPECT_EQ(quiet.events, 32u);
  EXPECT_EQ(quiet.accesses, 1000u);
  EXPECT_EQ(quiet.firstLanes, 32u); // each the warp's lane 0
}

// A listener that wants no access of a variable (wantsAccessesTo) hears
// none of it from either engine, and every other access as before.
TEST(CompiledEngine, AVariableTheListenerDoesNotWantSendsNoAccess) {
  const ir::KernelInfo *kernel = program().findKernel("treeSum");
  ASSERT_NE(kernel, nullptr);
  struct Counter final : interp::ExecutionListener {
    bool wantsAccessesTo(interp::MemSpace space, uint32_t) const override {
      return space != interp::MemSpace::Shared;
    }
    void onAccess(const interp::AccessEvent &e) override {
      (e.space == interp::MemSpace::Shared ? shared : global) += e.count;
    }
    uint64_t shared = 0, global = 0;
  };
  for (interp::Engine engine : {interp::Engine::Interpreter, interp::Engine::Compiled}) {
    std::vector<ArgumentValue> args{bufferArg(std::vector<int>(512, 1)),
                                    bufferArg(std::vector<int>(4))};
    Counter counter;
    interp::RunOptions options;
    options.listener = &counter;
    options.engine = engine;
    auto stats = interp::runKernel(program(), *kernel, launchOf(4, 128), args, options);
    ASSERT_TRUE(stats) << stats.error().message;
    EXPECT_EQ(counter.shared, 0u);
    EXPECT_EQ(counter.global, 512u + 4u); // every thread's read, each block's sum
    EXPECT_EQ(valuesOf<int>(args[1].bytes), std::vector<int>(4, 128));
  }
}

TEST(CompiledEngine, CodeIsMadeOncePerProgramAndFunction) {
  const ir::KernelInfo *kernel = program().findKernel("treeSum");
  ASSERT_NE(kernel, nullptr);
  jit::CodeCache &cache = jit::codeCacheOf(program());
  const jit::CompiledFunction *first = cache.compiled(program(), kernel->function);
  ASSERT_NE(first, nullptr) << cache.failure();
  EXPECT_EQ(cache.compiled(program(), kernel->function), first);
  EXPECT_EQ(&jit::codeCacheOf(program()), &cache);
  EXPECT_TRUE(first->entersAt(0));
}

} // namespace
