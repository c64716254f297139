#include "evo/Search.h"

#include "Spaces.h"
#include "support/Assert.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>

namespace simulee::evo {
namespace {

using testing::oneDimSpace;

// A stand-in for a kernel like `if (n > threshold && blockDim.x >= minBlock)
// shared[0] = ...` whose accesses otherwise spread over n * blockDim.x words:
// the ratio drops only past both thresholds; below them only the range, which
// grows with n and the block, guides the search.
Evaluate thresholdKernel(double threshold, uint32_t minBlock) {
  return [=](const Solution &solution) {
    double n = solution.genes[0];
    if (n > threshold && solution.block.x >= minBlock)
      return Fitness{true, 0.1, 4.0};
    return Fitness{true, 1.0, 4.0 * std::max(n, 0.0) * solution.block.x};
  };
}

SearchOutcome runSearch(const SearchSpace &space, const SearchOptions &options,
                        const Evaluate &evaluate) {
  Result<SearchOutcome> outcome = search(space, options, evaluate);
  SIMULEE_ASSERT(outcome.ok(), "test search failed to start");
  return std::move(outcome.value());
}

std::vector<std::string> evaluatedSequence(const SearchSpace &space, const SearchOutcome &outcome) {
  std::vector<std::string> lines;
  for (const EvaluatedSolution &entry : outcome.evaluated) {
    std::string line = std::to_string(entry.generation);
    for (const std::string &part : describe(space, entry.solution))
      line += " " + part;
    lines.push_back(line + " F=" + std::to_string(entry.fitness.ratio));
  }
  return lines;
}

TEST(Search, FindsArgumentAndBlockThresholdsForFiveSeeds) {
  SearchSpace space = oneDimSpace();
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    SearchOptions options;
    options.seed = seed;
    SearchOutcome outcome = runSearch(space, options, thresholdKernel(100, 64));
    EXPECT_TRUE(outcome.accepted) << "seed " << seed;
    EXPECT_GT(outcome.best.genes[0], 100) << "seed " << seed;
    EXPECT_GE(outcome.best.block.x, 64u) << "seed " << seed;
  }
}

// Far beyond the initial ranges (n starts within 2 * block size <= 512), so
// only climbing the range and Cauchy jumps get there.
TEST(Search, ClimbsToFarThresholdsForFiveSeeds) {
  SearchSpace space = oneDimSpace();
  int solvedAfterInitial = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    SearchOptions options;
    options.seed = seed;
    SearchOutcome outcome = runSearch(space, options, thresholdKernel(3000, 128));
    EXPECT_TRUE(outcome.accepted) << "seed " << seed;
    solvedAfterInitial += outcome.generationsRun > 0;
  }
  EXPECT_EQ(solvedAfterInitial, 5);
}

TEST(Search, SameSeedGivesSameEvaluatedSequence) {
  SearchSpace space = oneDimSpace();
  SearchOptions options;
  options.seed = 17;
  Evaluate evaluate = thresholdKernel(1e9, 1); // never accepted: full budget
  SearchOutcome first = runSearch(space, options, evaluate);
  SearchOutcome second = runSearch(space, options, evaluate);
  EXPECT_EQ(evaluatedSequence(space, first), evaluatedSequence(space, second));
  EXPECT_EQ(first.generationsRun, 10u);
  options.seed = 18;
  SearchOutcome other = runSearch(space, options, evaluate);
  EXPECT_NE(evaluatedSequence(space, first), evaluatedSequence(space, other));
}

TEST(Search, ResultDoesNotDependOnJobs) {
  SearchSpace space = oneDimSpace();
  space.block.rank = 2;
  SearchOptions options;
  options.seed = 5;
  Evaluate evaluate = thresholdKernel(1e9, 1);
  options.jobs = 1;
  SearchOutcome serial = runSearch(space, options, evaluate);
  options.jobs = 4;
  SearchOutcome parallel = runSearch(space, options, evaluate);
  EXPECT_EQ(evaluatedSequence(space, serial), evaluatedSequence(space, parallel));
  EXPECT_EQ(serial.best, parallel.best);
}

TEST(Search, JobsEvaluateConcurrently) {
  std::atomic<int> inFlight{0}, mostInFlight{0};
  SearchOptions options;
  options.generations = 1;
  options.jobs = 4;
  runSearch(oneDimSpace(), options, [&](const Solution &) {
    int now = ++inFlight;
    for (int seen = mostInFlight; now > seen && !mostInFlight.compare_exchange_weak(seen, now);)
      ;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --inFlight;
    return Fitness{true, 1.0, 0};
  });
  EXPECT_GT(mostInFlight.load(), 1);
  EXPECT_LE(mostInFlight.load(), 4);
}

TEST(Search, InvalidLaunchesRankLast) {
  SearchSpace space = oneDimSpace();
  SearchOptions options;
  options.seed = 2;
  options.generations = 3;
  // Launches with an odd block fail; the valid ones all share F = 1, so an
  // invalid launch claiming F = 0 must still lose.
  auto evaluate = [](const Solution &solution) {
    if (solution.block.x % 2)
      return Fitness{false, 0.0, 1e12};
    return Fitness{true, 1.0, double(solution.block.x)};
  };
  SearchOutcome outcome = runSearch(space, options, evaluate);
  EXPECT_TRUE(outcome.bestFitness.valid);
  EXPECT_EQ(outcome.best.block.x % 2, 0u);
  EXPECT_FALSE(outcome.accepted);
}

TEST(Search, AllInvalidIsNeverAccepted) {
  SearchOptions options;
  options.generations = 2;
  SearchOutcome outcome = runSearch(oneDimSpace(), options, [](const Solution &) {
    return Fitness{false, 0, 0};
  });
  EXPECT_FALSE(outcome.accepted);
  EXPECT_FALSE(outcome.bestFitness.valid);
  EXPECT_EQ(outcome.generationsRun, 2u);
}

TEST(Search, AHopelessSearchEndsAfterTheGenerationThatShowsIt) {
  // The caller gives up once it has seen 15 evaluations: after the first
  // generation of children, not before the initial population is done.
  std::atomic<int> calls{0};
  SearchOptions options;
  options.generations = 5;
  options.hopeless = [&] { return calls.load() >= 15; };
  SearchOutcome outcome = runSearch(oneDimSpace(), options, [&](const Solution &) {
    ++calls;
    return Fitness{false, 0, 0};
  });
  EXPECT_EQ(outcome.generationsRun, 1u);
  EXPECT_EQ(outcome.evaluations, uint64_t(calls.load()));
}

TEST(Search, AcceptableInitialPopulationStopsAtOnce) {
  std::atomic<int> calls{0};
  SearchOptions options;
  SearchOutcome outcome = runSearch(oneDimSpace(), options, [&](const Solution &) {
    ++calls;
    return Fitness{true, 0.1, 0};
  });
  EXPECT_TRUE(outcome.accepted);
  EXPECT_EQ(outcome.generationsRun, 0u);
  EXPECT_LE(calls.load(), 10);
  EXPECT_EQ(outcome.evaluations, uint64_t(calls.load()));
}

TEST(Search, StopsInTheGenerationThatReachesAcceptance) {
  SearchOptions options;
  options.seed = 4;
  // Accept anything with a block of more than 300 threads: out of the initial
  // ranges, reachable in a few doublings.
  SearchOutcome outcome = runSearch(oneDimSpace(), options, [](const Solution &solution) {
    return Fitness{true, solution.block.x > 300 ? 0.2 : 1.0, double(solution.block.x)};
  });
  ASSERT_TRUE(outcome.accepted);
  EXPECT_GT(outcome.generationsRun, 0u);
  EXPECT_EQ(outcome.evaluated.back().generation, outcome.generationsRun);
  EXPECT_LT(outcome.generationsRun, options.generations);
}

TEST(Search, EqualSolutionsAreEvaluatedOnce) {
  // Few distinct launches exist (n in 0..3, one block size), so children
  // repeat parents and each other all the time.
  SearchSpace space;
  space.grid.fixed = Dims{1, 1, 1};
  space.block.fixed = Dims{32, 1, 1};
  Gene n = Gene::integer("n", 32, true);
  n.lower = 0;
  n.upper = 3;
  space.scalars = {n};
  std::atomic<int> calls{0};
  SearchOptions options;
  options.seed = 9;
  SearchOutcome outcome = runSearch(space, options, [&](const Solution &solution) {
    ++calls;
    return Fitness{true, 1.0, solution.genes[0]};
  });
  EXPECT_EQ(size_t(calls.load()), outcome.evaluated.size());
  EXPECT_LE(calls.load(), 4);
  std::set<std::vector<std::string>> distinct;
  for (const EvaluatedSolution &entry : outcome.evaluated)
    distinct.insert(describe(space, entry.solution));
  EXPECT_EQ(distinct.size(), outcome.evaluated.size());
  EXPECT_EQ(outcome.best.genes[0], 3); // the largest range
}

TEST(Search, FullyFixedSpaceEvaluatesOneLaunch) {
  SearchSpace space;
  space.grid.fixed = Dims{2, 1, 1};
  space.block.fixed = Dims{32, 1, 1};
  Gene n = Gene::integer("n", 32, true);
  n.fixed = 5;
  space.scalars = {n};
  int calls = 0;
  SearchOutcome outcome = runSearch(space, SearchOptions{}, [&](const Solution &) {
    ++calls;
    return Fitness{true, 1.0, 0};
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(outcome.evaluations, 1u);
  EXPECT_EQ(outcome.best.genes[0], 5);
}

TEST(Search, ProgressReportsEveryGenerationWithBestNeverWorse) {
  std::vector<Progress> reports;
  SearchOptions options;
  options.seed = 3;
  options.generations = 6;
  Result<SearchOutcome> outcome =
      search(oneDimSpace(), options, thresholdKernel(1e9, 1),
             [&](const Progress &progress) { reports.push_back(progress); });
  ASSERT_TRUE(outcome.ok());
  ASSERT_EQ(reports.size(), 7u);
  for (size_t i = 0; i < reports.size(); ++i) {
    EXPECT_EQ(reports[i].generation, i);
    EXPECT_EQ(reports[i].generations, 6u);
    if (i == 0)
      continue;
    EXPECT_GE(reports[i].evaluations, reports[i - 1].evaluations);
    EXPECT_FALSE(isBetter(reports[i - 1].best, reports[i].best)) << "generation " << i;
  }
  EXPECT_EQ(reports.back().evaluations, outcome->evaluations);
  EXPECT_EQ(reports.back().best.range, outcome->bestFitness.range);
}

TEST(Search, UnusableSpaceOrOptionsAreErrors) {
  auto evaluate = [](const Solution &) { return Fitness{true, 1.0, 0}; };
  SearchOptions options;
  options.population = 0;
  EXPECT_FALSE(search(oneDimSpace(), options, evaluate).ok());
  SearchSpace space = oneDimSpace();
  space.block.fixed = Dims{2048, 1, 1};
  Result<SearchOutcome> outcome = search(space, SearchOptions{}, evaluate);
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().message.find("2048"), std::string::npos);
}

} // namespace
} // namespace simulee::evo
