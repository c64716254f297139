// How good a launch is at provoking conflicts, as the caller measured it from
// the Memory-Access Model, and the order the search ranks launches in.
#pragma once

#include <cstdint>

namespace simulee::evo {

struct Fitness {
  bool valid = false; // false: the launch failed; it ranks below every valid one
  // Primary: distinct addresses / (threads accessing each address, summed).
  // 1 = no address shared by two threads; lower = more sharing.
  double ratio = 1.0;
  // Secondary: accessed address range `end - start` in bytes.
  double range = 0.0;

  static Fitness invalid() { return Fitness{}; }
  // From the model's counts; no access at all gives ratio 1 and range 0.
  static Fitness fromCounts(uint64_t distinctAddresses, uint64_t threadAddressPairs,
                            uint64_t lowestAddress, uint64_t endAddress);
};

// The search's ranking. Valid before invalid; then the lower ratio; at equal
// ratios (in practice the all-1 plateau of a kernel whose threads share
// nothing yet) the larger range. A larger range means the launch reached
// further into its buffers, and the paper uses the range to spread accesses:
// arguments and dims that grow the footprint tend to be the ones that
// eventually make threads overlap (a bound reached, an index that wraps).
// Ratios that are not numbers count as invalid.
bool isBetter(const Fitness &candidate, const Fitness &incumbent);

// Whether `fitness` is good enough to stop the search (F < accept).
bool isAcceptable(const Fitness &fitness, double accept);

} // namespace simulee::evo
