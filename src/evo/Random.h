// The search's only source of randomness. The distributions are written here
// rather than taken from <random>, whose algorithms differ between standard
// libraries: a seed must give the same search everywhere.
#pragma once

#include <cstdint>
#include <random>

namespace simulee::evo {

class Random {
public:
  explicit Random(uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1).
  double uniform();
  // Uniform integer in [low, high] (inclusive); requires low <= high.
  int64_t uniformInt(int64_t low, int64_t high);
  // True with probability `probability`.
  bool chance(double probability) { return uniform() < probability; }
  // Standard normal (mean 0, deviation 1), by Box-Muller.
  double normal();
  // Standard Cauchy (location 0, scale 1): heavy tails for long jumps.
  double cauchy();
  // -1, 0 or +1 with equal probability: the paper's step for dims.
  int ternaryStep() { return int(uniformInt(-1, 1)); }

private:
  // mt19937_64's output sequence is fixed by the standard.
  std::mt19937_64 engine_;
};

} // namespace simulee::evo
