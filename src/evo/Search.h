// The evolutionary input search (the Simulee paper's Algorithms 1 and 2):
// proposes launches, asks the caller for each one's fitness, and keeps the
// best. It never runs a kernel itself; the Evaluate callback does, and
// collects its findings there.
#pragma once

#include "evo/Fitness.h"
#include "evo/SearchSpace.h"
#include "evo/Solution.h"
#include "support/Result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace simulee::evo {

struct SearchOptions {
  uint32_t population = 10;
  uint32_t generations = 10; // generations of children after the initial population
  double accept = 0.3;       // stop once the best ratio is below this
  uint64_t seed = 0;
  unsigned jobs = 1; // evaluations in parallel; 0 = one per hardware thread
  // A launch to search around (one a program made): the initial population
  // is it and mutants of it instead of the typical and random launches.
  std::optional<Solution> start;
  // Asked after each generation (on the calling thread): true ends the
  // search there, as when the caller knows the rest could not be judged.
  std::function<bool()> hopeless;
};

// Simulates one launch and measures it. Called from up to `jobs` threads at
// once (so it must be thread-safe then), never twice for an equal solution.
using Evaluate = std::function<Fitness(const Solution &)>;

struct Progress {
  uint32_t generation = 0; // 0 = the initial population
  uint32_t generations = 0;
  Fitness best;
  uint64_t evaluations = 0;
};
// Called on the calling thread after each generation, for a progress line.
using OnProgress = std::function<void(const Progress &)>;

struct EvaluatedSolution {
  Solution solution;
  Fitness fitness;
  uint32_t generation = 0;
};

struct SearchOutcome {
  Solution best;
  Fitness bestFitness;
  uint64_t evaluations = 0;
  uint32_t generationsRun = 0; // generations of children produced
  bool accepted = false;
  // Every solution evaluated, in evaluation order (deterministic per seed).
  std::vector<EvaluatedSolution> evaluated;
};

// Fails only when the space or options admit no search (the error says
// why). The same space, options and seed give the same evaluated sequence
// and outcome whatever `jobs` is.
Result<SearchOutcome> search(const SearchSpace &space, const SearchOptions &options,
                             const Evaluate &evaluate, const OnProgress &onProgress = {});

} // namespace simulee::evo
