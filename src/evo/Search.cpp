#include "evo/Search.h"

#include "evo/InitialPopulation.h"
#include "evo/Mutation.h"
#include "evo/ParallelFor.h"
#include "evo/Random.h"
#include "evo/Selection.h"

#include <bit>
#include <map>

namespace simulee::evo {

namespace {

// A solution's identity for memoization: dims, then the exact gene bits
// (genes are canonical, so equal launches have equal bits).
using SolutionKey = std::vector<uint64_t>;

SolutionKey keyOf(const Solution &solution) {
  SolutionKey key = {solution.grid.x,  solution.grid.y,  solution.grid.z,
                     solution.block.x, solution.block.y, solution.block.z};
  for (double gene : solution.genes)
    key.push_back(std::bit_cast<uint64_t>(gene));
  return key;
}

class Searcher {
public:
  Searcher(const SearchSpace &space, const SearchOptions &options, const Evaluate &evaluate,
           const OnProgress &onProgress)
      : space_(space), options_(options), evaluate_(evaluate), onProgress_(onProgress),
        random_(options.seed) {}

  SearchOutcome run();

private:
  // Indices into evaluated_, one per candidate, evaluating the new ones.
  std::vector<size_t> evaluateAll(const std::vector<Solution> &candidates, uint32_t generation);
  std::vector<Solution> makeChildren();
  // The best `population` distinct members of `pool`, best first.
  std::vector<size_t> selectSurvivors(std::vector<size_t> pool) const;
  const Fitness &bestFitness() const { return evaluated_[population_.front()].fitness; }
  void reportProgress(uint32_t generation) const;

  const SearchSpace &space_;
  const SearchOptions &options_;
  const Evaluate &evaluate_;
  const OnProgress &onProgress_;
  Random random_;
  std::vector<EvaluatedSolution> evaluated_;
  std::map<SolutionKey, size_t> indexByKey_;
  std::vector<size_t> population_; // indices into evaluated_, best first
};

std::vector<size_t> Searcher::evaluateAll(const std::vector<Solution> &candidates,
                                          uint32_t generation) {
  std::vector<size_t> indices;
  size_t firstNew = evaluated_.size();
  for (const Solution &candidate : candidates) {
    auto [position, inserted] = indexByKey_.try_emplace(keyOf(candidate), evaluated_.size());
    if (inserted)
      evaluated_.push_back({candidate, Fitness::invalid(), generation});
    indices.push_back(position->second);
  }
  parallelFor(evaluated_.size() - firstNew, options_.jobs, [&](size_t offset) {
    EvaluatedSolution &entry = evaluated_[firstNew + offset];
    entry.fitness = evaluate_(entry.solution);
  });
  return indices;
}

std::vector<Solution> Searcher::makeChildren() {
  std::vector<Solution> children;
  children.reserve(2 * population_.size());
  for (size_t parent : population_) {
    const Solution &solution = evaluated_[parent].solution;
    children.push_back(mutate(space_, solution, StepDistribution::Normal, random_));
    children.push_back(mutate(space_, solution, StepDistribution::Cauchy, random_));
  }
  return children;
}

std::vector<size_t> Searcher::selectSurvivors(std::vector<size_t> pool) const {
  return evo::selectSurvivors(
      std::move(pool), [&](size_t id) -> const Fitness & { return evaluated_[id].fitness; },
      options_.population);
}

void Searcher::reportProgress(uint32_t generation) const {
  if (onProgress_)
    onProgress_({generation, options_.generations, bestFitness(), evaluated_.size()});
}

SearchOutcome Searcher::run() {
  population_ = selectSurvivors(
      evaluateAll(initialPopulation(space_, options_.population, random_, options_.start),
                  /*generation=*/0));
  reportProgress(0);
  uint32_t generation = 0;
  auto hopeless = [&] { return options_.hopeless && options_.hopeless(); };
  while (generation < options_.generations && !isAcceptable(bestFitness(), options_.accept) &&
         !hopeless()) {
    ++generation;
    std::vector<size_t> pool = population_;
    std::vector<size_t> children = evaluateAll(makeChildren(), generation);
    pool.insert(pool.end(), children.begin(), children.end());
    population_ = selectSurvivors(std::move(pool));
    reportProgress(generation);
  }
  SearchOutcome outcome;
  outcome.best = evaluated_[population_.front()].solution;
  outcome.bestFitness = bestFitness();
  outcome.evaluations = evaluated_.size();
  outcome.generationsRun = generation;
  outcome.accepted = isAcceptable(outcome.bestFitness, options_.accept);
  outcome.evaluated = std::move(evaluated_);
  return outcome;
}

} // namespace

Result<SearchOutcome> search(const SearchSpace &space, const SearchOptions &options,
                             const Evaluate &evaluate, const OnProgress &onProgress) {
  if (Status status = space.validate(); !status)
    return status.error();
  if (options.population == 0)
    return makeError("the population size must be at least 1");
  if (!evaluate)
    return makeError("no fitness evaluation was given");
  return Searcher(space, options, evaluate, onProgress).run();
}

} // namespace simulee::evo
