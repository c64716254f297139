#include "evo/Fitness.h"

#include <cmath>

namespace simulee::evo {

Fitness Fitness::fromCounts(uint64_t distinctAddresses, uint64_t threadAddressPairs,
                            uint64_t lowestAddress, uint64_t endAddress) {
  Fitness fitness;
  fitness.valid = true;
  if (threadAddressPairs == 0)
    return fitness;
  fitness.ratio = double(distinctAddresses) / double(threadAddressPairs);
  fitness.range = endAddress > lowestAddress ? double(endAddress - lowestAddress) : 0.0;
  return fitness;
}

static bool isRankable(const Fitness &fitness) {
  return fitness.valid && !std::isnan(fitness.ratio) && !std::isnan(fitness.range);
}

bool isBetter(const Fitness &candidate, const Fitness &incumbent) {
  if (isRankable(candidate) != isRankable(incumbent))
    return isRankable(candidate);
  if (!isRankable(candidate))
    return false;
  if (candidate.ratio != incumbent.ratio)
    return candidate.ratio < incumbent.ratio;
  return candidate.range > incumbent.range;
}

bool isAcceptable(const Fitness &fitness, double accept) {
  return isRankable(fitness) && fitness.ratio < accept;
}

} // namespace simulee::evo
