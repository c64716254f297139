// Runs the kernels of tests/interp/kernels at -O0 and -O3 and compares every
// output buffer with a reference computed here on the host.
#include "TestSupport.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace simulee::interp_test {
namespace {

using interp::ArgumentValue;
using interp::Dim3;

class KernelOutput : public ::testing::TestWithParam<int> {
protected:
  int optLevel() const { return GetParam(); }
  ::testing::AssertionResult run(const std::string &file, const std::string &kernel, Dim3 grid,
                                 Dim3 block, std::vector<ArgumentValue> &args,
                                 uint32_t dynamicSharedBytes = 0) {
    return launch(file, optLevel(), kernel, grid, block, args, dynamicSharedBytes);
  }
};

std::vector<int> randomInts(size_t count, int low, int high, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_int_distribution<int> distribution(low, high);
  std::vector<int> values(count);
  for (int &value : values)
    value = distribution(engine);
  return values;
}

std::vector<float> randomFloats(size_t count, float low, float high, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> distribution(low, high);
  std::vector<float> values(count);
  for (float &value : values)
    value = distribution(engine);
  return values;
}

// Small integers stored as floats: sums and products stay exact.
std::vector<float> smallIntegerFloats(size_t count, unsigned seed) {
  std::vector<int> ints = randomInts(count, -3, 3, seed);
  return std::vector<float>(ints.begin(), ints.end());
}

TEST_P(KernelOutput, VectorAddSumsElementwiseWithinBounds) {
  const int n = 1000;
  std::vector<float> a = randomFloats(n, -10, 10, 1), b = randomFloats(n, -10, 10, 2);
  std::vector<float> c(1024, -7.0f); // the tail beyond n must stay untouched
  std::vector<ArgumentValue> args = {bufferArg(a), bufferArg(b), bufferArg(c), scalarArg(n)};
  ASSERT_TRUE(run("vector_add.cu", "vectorAdd", {4, 1, 1}, {256, 1, 1}, args));
  std::vector<float> expected = c;
  for (int i = 0; i < n; ++i)
    expected[i] = a[i] + b[i];
  EXPECT_TRUE(matches(expected, valuesOf<float>(args[2].bytes)));
}

TEST_P(KernelOutput, SaxpyGridStrideLoopCoversEveryElement) {
  const int n = 5000;
  const float a = 2.5f;
  std::vector<float> x = randomFloats(n, -1, 1, 3), y = randomFloats(n, -1, 1, 4);
  std::vector<ArgumentValue> args = {scalarArg(n), scalarArg(a), bufferArg(x), bufferArg(y)};
  ASSERT_TRUE(run("saxpy.cu", "saxpy", {8, 1, 1}, {128, 1, 1}, args));
  std::vector<float> expected(n);
  for (int i = 0; i < n; ++i)
    expected[i] = a * x[i] + y[i];
  EXPECT_TRUE(matches(expected, valuesOf<float>(args[3].bytes), 1e-5));
}

TEST_P(KernelOutput, SharedTreeReductionGivesBlockSums) {
  const int n = 2000, blocks = 8, blockSize = 256;
  std::vector<int> in = randomInts(n, -100, 100, 5);
  std::vector<int> sums(blocks, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(sums), scalarArg(n)};
  ASSERT_TRUE(run("reduce_shared.cu", "reduceSum", {blocks, 1, 1}, {blockSize, 1, 1}, args));
  std::vector<int> expected(blocks, 0);
  for (int i = 0; i < n; ++i)
    expected[i / blockSize] += in[i];
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[1].bytes)));
}

TEST_P(KernelOutput, WarpShuffleDownReductionGivesWarpSums) {
  const int threads = 256;
  std::vector<int> in = randomInts(threads, -1000, 1000, 6);
  std::vector<int> sums(threads / 32, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(sums)};
  ASSERT_TRUE(run("warp_reduce.cu", "warpReduce", {2, 1, 1}, {128, 1, 1}, args));
  std::vector<int> expected(threads / 32, 0);
  for (int i = 0; i < threads; ++i)
    expected[i / 32] += in[i];
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[1].bytes)));
}

TEST_P(KernelOutput, WarpButterflyReductionOfDoublesReachesEveryLane) {
  const int threads = 64;
  std::vector<double> in(threads);
  for (int i = 0; i < threads; ++i)
    in[i] = 0.5 * i - 7.0; // exact in binary, so the sum order does not matter
  std::vector<double> out(threads, 0.0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(run("warp_reduce.cu", "warpAllReduceDouble", {1, 1, 1}, {64, 1, 1}, args));
  std::vector<double> expected(threads);
  for (int i = 0; i < threads; ++i)
    expected[i] = std::accumulate(in.begin() + i / 32 * 32, in.begin() + i / 32 * 32 + 32, 0.0);
  EXPECT_TRUE(matches(expected, valuesOf<double>(args[1].bytes)));
}

TEST_P(KernelOutput, HillisSteeleScanGivesInclusivePrefixSums) {
  const int n = 512;
  std::vector<int> in = randomInts(n, -50, 50, 7);
  std::vector<int> out(n, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(run("scan_hillis_steele.cu", "inclusiveScan", {1, 1, 1}, {n, 1, 1}, args));
  std::vector<int> expected(n);
  std::inclusive_scan(in.begin(), in.end(), expected.begin());
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[1].bytes)));
}

TEST_P(KernelOutput, TiledMatrixMultiplyMatchesHostProduct) {
  const int n = 64;
  std::vector<float> A = smallIntegerFloats(n * n, 8), B = smallIntegerFloats(n * n, 9);
  std::vector<float> C(n * n, 0.0f);
  std::vector<ArgumentValue> args = {bufferArg(A), bufferArg(B), bufferArg(C), scalarArg(n)};
  ASSERT_TRUE(run("matmul_tiled.cu", "matmulTiled", {4, 4, 1}, {16, 16, 1}, args));
  std::vector<float> expected(n * n, 0.0f);
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col)
      for (int k = 0; k < n; ++k)
        expected[row * n + col] += A[row * n + k] * B[k * n + col];
  EXPECT_TRUE(matches(expected, valuesOf<float>(args[2].bytes), 1e-6));
}

TEST_P(KernelOutput, PaddedSharedTransposeSwapsRowsAndColumns) {
  const int width = 96, height = 64;
  std::vector<float> in = randomFloats(width * height, -5, 5, 10);
  std::vector<float> out(width * height, 0.0f);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out), scalarArg(width),
                                     scalarArg(height)};
  ASSERT_TRUE(run("transpose_shared.cu", "transposeTiled", {3, 2, 1}, {32, 8, 1}, args));
  std::vector<float> expected(width * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      expected[x * height + y] = in[y * width + x];
  EXPECT_TRUE(matches(expected, valuesOf<float>(args[1].bytes)));
}

TEST_P(KernelOutput, AtomicHistogramCountsEveryByte) {
  const int n = 10000, bins = 64;
  std::vector<int> random = randomInts(n, 0, 255, 11);
  std::vector<uint8_t> data(random.begin(), random.end());
  std::vector<unsigned> histogram(bins, 0);
  std::vector<ArgumentValue> args = {bufferArg(data), bufferArg(histogram), scalarArg(n)};
  ASSERT_TRUE(run("histogram_atomic.cu", "histogram", {4, 1, 1}, {128, 1, 1}, args));
  std::vector<unsigned> expected(bins, 0);
  for (uint8_t byte : data)
    ++expected[byte % bins];
  EXPECT_TRUE(matches(expected, valuesOf<unsigned>(args[1].bytes)));
}

TEST_P(KernelOutput, BitonicSortInSharedMemorySortsAscending) {
  const int n = 256;
  std::vector<int> data = randomInts(n, -10000, 10000, 12);
  std::vector<ArgumentValue> args = {bufferArg(data)};
  ASSERT_TRUE(run("bitonic_sort.cu", "bitonicSort", {1, 1, 1}, {n, 1, 1}, args));
  std::vector<int> expected = data;
  std::sort(expected.begin(), expected.end());
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[0].bytes)));
}

TEST_P(KernelOutput, FivePointStencilOnTwoDimensionalGrid) {
  const int width = 40, height = 24;
  std::vector<float> in = randomFloats(width * height, 0, 1, 13);
  std::vector<float> out(width * height, -1.0f);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out), scalarArg(width),
                                     scalarArg(height)};
  ASSERT_TRUE(run("stencil2d.cu", "stencil5", {3, 3, 1}, {16, 8, 1}, args));
  std::vector<float> expected(width * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int i = y * width + x;
      bool boundary = x == 0 || y == 0 || x == width - 1 || y == height - 1;
      expected[i] =
          boundary ? in[i] : 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
    }
  }
  EXPECT_TRUE(matches(expected, valuesOf<float>(args[1].bytes), 1e-5));
}

int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
int fibonacci(int n) { return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2); }

TEST_P(KernelOutput, NonInlinedAndRecursiveDeviceFunctionsReturnTheirValues) {
  const int threads = 64;
  std::vector<int> in(threads);
  std::iota(in.begin(), in.end(), 0);
  std::vector<int> out(threads, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(run("device_functions.cu", "deviceCalls", {2, 1, 1}, {32, 1, 1}, args));
  std::vector<int> expected(threads);
  for (int i = 0; i < threads; ++i)
    expected[i] = factorial(in[i] % 8) + fibonacci(in[i] % 10);
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[1].bytes)));
}

struct Particle {
  double position;
  double velocity;
  int id;
  int steps;
};
struct Force {
  double gravity;
  double drag;
};

TEST_P(KernelOutput, StructsOfDoublesAreReadAndWrittenWhole) {
  const int n = 100;
  std::vector<Particle> particles(128);
  for (int i = 0; i < 128; ++i)
    particles[i] = {0.25 * i, 1.0 - 0.01 * i, i, i % 3};
  const Force force{-9.81, 0.1};
  const double dt = 0.01;
  std::vector<ArgumentValue> args = {bufferArg(particles), bufferArg(std::vector<Force>{force}),
                                     scalarArg(dt), scalarArg(n)};
  ASSERT_TRUE(run("struct_double.cu", "integrate", {2, 1, 1}, {64, 1, 1}, args));
  std::vector<Particle> actual = valuesOf<Particle>(args[0].bytes);
  ASSERT_EQ(actual.size(), particles.size());
  for (int i = 0; i < 128; ++i) {
    Particle want = particles[i];
    if (i < n) {
      want.velocity += (force.gravity - force.drag * want.velocity) * dt;
      want.position += want.velocity * dt;
      want.steps += 1;
    }
    EXPECT_NEAR(actual[i].position, want.position, 1e-12) << "particle " << i;
    EXPECT_NEAR(actual[i].velocity, want.velocity, 1e-12) << "particle " << i;
    EXPECT_EQ(actual[i].id, want.id) << "particle " << i;
    EXPECT_EQ(actual[i].steps, want.steps) << "particle " << i;
  }
}

// Runs a one-argument divergence kernel over 64 threads (two warps).
std::vector<int> runDivergenceKernel(KernelOutput &test, const std::string &kernel,
                                     ::testing::AssertionResult &status) {
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(64, 0))};
  status = launch("divergence.cu", test.GetParam(), kernel, {1, 1, 1}, {64, 1, 1}, args);
  return valuesOf<int>(args[0].bytes);
}

TEST_P(KernelOutput, NestedDivergentIfsPickEachThreadsBranch) {
  ::testing::AssertionResult status = ::testing::AssertionSuccess();
  std::vector<int> actual = runDivergenceKernel(*this, "nestedIfs", status);
  ASSERT_TRUE(status);
  std::vector<int> expected(64);
  for (int t = 0; t < 64; ++t)
    expected[t] = t % 2 == 0 ? (t % 4 == 0 ? 1 : 2) : (t < 16 ? 3 : (t < 48 ? 4 : 5));
  EXPECT_TRUE(matches(expected, actual));
}

TEST_P(KernelOutput, LoopWithPerThreadTripCountExitsDivergently) {
  ::testing::AssertionResult status = ::testing::AssertionSuccess();
  std::vector<int> actual = runDivergenceKernel(*this, "divergentLoop", status);
  ASSERT_TRUE(status);
  std::vector<int> expected(64, 0);
  for (int t = 0; t < 64; ++t)
    for (int i = 0; i < t % 7; ++i)
      expected[t] += i * t;
  EXPECT_TRUE(matches(expected, actual));
}

TEST_P(KernelOutput, BreakAndContinueDivergeInsideLoop) {
  ::testing::AssertionResult status = ::testing::AssertionSuccess();
  std::vector<int> actual = runDivergenceKernel(*this, "breakContinue", status);
  ASSERT_TRUE(status);
  std::vector<int> expected(64, 0);
  for (int t = 0; t < 64; ++t) {
    for (int i = 0; i < 32; ++i) {
      if (i % 3 == t % 3)
        continue;
      if (i > t)
        break;
      expected[t] += i;
    }
  }
  EXPECT_TRUE(matches(expected, actual));
}

TEST_P(KernelOutput, EarlyReturnLeavesLaterStoresUndone) {
  const int limit = 100;
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(128, 0)), scalarArg(limit)};
  ASSERT_TRUE(run("divergence.cu", "earlyReturn", {2, 1, 1}, {64, 1, 1}, args));
  std::vector<int> expected(128);
  for (int t = 0; t < 128; ++t)
    expected[t] = t >= limit ? -1 : (t % 5 == 0 ? 50 : t);
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[0].bytes)));
}

TEST_P(KernelOutput, SwitchOnThreadIndexTakesEveryCase) {
  ::testing::AssertionResult status = ::testing::AssertionSuccess();
  std::vector<int> actual = runDivergenceKernel(*this, "switchOnThread", status);
  ASSERT_TRUE(status);
  std::vector<int> expected(64);
  for (int t = 0; t < 64; ++t) {
    switch (t % 6) {
    case 0:
      expected[t] = 10;
      break;
    case 1:
    case 2:
      expected[t] = 20 + t;
      break;
    case 3:
    case 4:
      expected[t] = 40 + t % 6;
      break;
    default:
      expected[t] = -t;
    }
  }
  EXPECT_TRUE(matches(expected, actual));
}

TEST_P(KernelOutput, AtomicCasLoopFindsFloatMaximum) {
  const int n = 3000;
  std::vector<float> in = randomFloats(n, 0, 1000, 14);
  std::vector<float> result = {0.0f};
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(result), scalarArg(n)};
  ASSERT_TRUE(run("cas_max.cu", "floatMaxCas", {12, 1, 1}, {256, 1, 1}, args));
  std::vector<float> expected = {*std::max_element(in.begin(), in.end())};
  EXPECT_TRUE(matches(expected, valuesOf<float>(args[1].bytes)));
}

TEST_P(KernelOutput, SyncthreadsCountAndOrReduceBlockPredicates) {
  const int blocks = 3, blockSize = 128;
  std::vector<int> in(blocks * blockSize);
  for (int t = 0; t < blockSize; ++t) {
    in[t] = 1 + t;                                       // all positive
    in[blockSize + t] = t % 4 == 0 ? -t : t % 50;        // some not positive, none > 100
    in[2 * blockSize + t] = t == 77 ? 500 : (t % 2) - 1; // one > 100, the rest <= 0
  }
  std::vector<int> out(blocks * 3, -1);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(run("sync_count.cu", "syncPredicates", {blocks, 1, 1}, {blockSize, 1, 1}, args));
  std::vector<int> expected;
  for (int b = 0; b < blocks; ++b) {
    auto first = in.begin() + b * blockSize, last = first + blockSize;
    int positive = (int)std::count_if(first, last, [](int v) { return v > 0; });
    bool large = std::any_of(first, last, [](int v) { return v > 100; });
    expected.push_back(positive);
    expected.push_back(positive == blockSize ? 1 : 0);
    expected.push_back(large ? 1 : 0);
  }
  // __syncthreads_and/or return any non-zero value for true.
  std::vector<int> actual = valuesOf<int>(args[1].bytes);
  for (size_t i = 0; i < actual.size(); ++i)
    if (i % 3 != 0)
      actual[i] = actual[i] != 0;
  EXPECT_TRUE(matches(expected, actual));
}

TEST_P(KernelOutput, BallotAnyAllVoteAcrossEachWarp) {
  const int threads = 128, warps = threads / 32;
  std::vector<int> in = randomInts(threads, 0, 95, 15);
  in[40] = -1; // warp 1: not all non-negative
  std::vector<unsigned> ballots(warps, 0);
  std::vector<int> votes(warps * 2, -1);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(ballots), bufferArg(votes)};
  ASSERT_TRUE(run("ballot.cu", "ballotVotes", {1, 1, 1}, {threads, 1, 1}, args));
  std::vector<unsigned> expectedBallots(warps, 0);
  std::vector<int> expectedVotes(warps * 2, 0);
  for (int w = 0; w < warps; ++w) {
    bool any = false, all = true;
    for (int lane = 0; lane < 32; ++lane) {
      int value = in[w * 32 + lane];
      if (value & 1)
        expectedBallots[w] |= 1u << lane;
      any = any || value > 90;
      all = all && value >= 0;
    }
    expectedVotes[w * 2] = any;
    expectedVotes[w * 2 + 1] = all;
  }
  EXPECT_TRUE(matches(expectedBallots, valuesOf<unsigned>(args[1].bytes)));
  std::vector<int> votesActual = valuesOf<int>(args[2].bytes);
  for (int &vote : votesActual)
    vote = vote != 0;
  EXPECT_TRUE(matches(expectedVotes, votesActual));
}

TEST_P(KernelOutput, WarpReductionsCombineTheLanesOfTheirMask) {
  const int threads = 64;
  std::vector<int> in = randomInts(threads, -1000, 1000, 21);
  std::vector<int> out(threads * 9, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(run("warp_redux.cu", "warpReductions", {1, 1, 1}, {threads, 1, 1}, args));
  std::vector<int> expected(threads * 9);
  for (int t = 0; t < threads; ++t) {
    int warp = t / 32 * 32, sum = 0, min = INT32_MAX, max = INT32_MIN;
    unsigned umin = ~0u, umax = 0, all = ~0u, any = 0, odd = 0;
    int halfSum = 0;
    for (int lane = 0; lane < 32; ++lane) {
      int value = in[warp + lane];
      sum += value, min = std::min(min, value), max = std::max(max, value);
      umin = std::min(umin, unsigned(value)), umax = std::max(umax, unsigned(value));
      if (lane % 2 == t % 2)
        all &= unsigned(value), any |= unsigned(value), odd ^= unsigned(value), halfSum += value;
    }
    int row[9] = {sum, min, max, int(umin), int(umax), int(all), int(any), int(odd), halfSum};
    std::copy(row, row + 9, expected.begin() + t * 9);
  }
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[1].bytes)));
}

TEST_P(KernelOutput, SharedWindowAddressesNameTheirSharedVariable) {
  const int threads = 64;
  std::vector<int> in = randomInts(threads, -1000, 1000, 22);
  std::vector<int> out(threads * 4, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(out)};
  ASSERT_TRUE(run("shared_windows.cu", "sharedWindows", {1, 1, 1}, {threads, 1, 1}, args));
  std::vector<int> expected(threads * 4);
  for (int t = 0; t < threads; ++t) {
    int neighbour = in[(t + 1) % threads];
    expected[4 * t] = expected[4 * t + 1] = expected[4 * t + 2] = neighbour;
    expected[4 * t + 3] = 1;
  }
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[1].bytes)));
}

TEST_P(KernelOutput, CooperativeGroupTilesShuffleAndSync) {
  const int blocks = 2, blockSize = 256, tile = 16, threads = blocks * blockSize;
  std::vector<int> in = randomInts(threads, -100, 100, 16);
  std::vector<int> tileSums(threads / tile, 0);
  std::vector<int> exchanged(threads, 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(tileSums), bufferArg(exchanged)};
  ASSERT_TRUE(run("cg_tile.cu", "tileReduce", {blocks, 1, 1}, {blockSize, 1, 1}, args));
  std::vector<int> expectedSums(threads / tile, 0);
  for (int i = 0; i < threads; ++i)
    expectedSums[i / tile] += in[i];
  std::vector<int> expectedExchanged(threads);
  for (int i = 0; i < threads; ++i) {
    int partner = i ^ 16; // same block: blocks are multiples of 32 threads
    expectedExchanged[i] = expectedSums[partner / tile] + partner % tile;
  }
  EXPECT_TRUE(matches(expectedSums, valuesOf<int>(args[1].bytes)));
  EXPECT_TRUE(matches(expectedExchanged, valuesOf<int>(args[2].bytes)));
}

TEST_P(KernelOutput, DynamicSharedMemoryReversesEachBlock) {
  const int blocks = 3, blockSize = 128;
  std::vector<int> data(blocks * blockSize);
  std::iota(data.begin(), data.end(), 1000);
  std::vector<ArgumentValue> args = {bufferArg(data)};
  ASSERT_TRUE(run("dynamic_shared.cu", "reverseDynamic", {blocks, 1, 1}, {blockSize, 1, 1}, args,
                  blockSize * sizeof(int)));
  std::vector<int> expected(data.size());
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < blockSize; ++t)
      expected[b * blockSize + t] = data[b * blockSize + blockSize - 1 - t];
  EXPECT_TRUE(matches(expected, valuesOf<int>(args[0].bytes)));
}

INSTANTIATE_TEST_SUITE_P(OptLevels, KernelOutput, ::testing::Values(0, 3),
                         [](const ::testing::TestParamInfo<int> &info) {
                           std::string name(1, 'O');
                           name += std::to_string(info.param);
                           return name;
                         });

} // namespace
} // namespace simulee::interp_test
