#include "detect/FindingCollector.h"

#include "detect/BarrierDivergenceDetector.h"
#include "detect/DataRaceDetector.h"
#include "detect/OutOfBoundsDetector.h"
#include "detect/UndefinedBehaviorDetector.h"

#include <algorithm>
#include <tuple>

namespace simulee::detect {

FindingCollector::FindingCollector(std::vector<uint32_t> barrierInstructions,
                                   std::vector<uint32_t> valueBarrierInstructions)
    : barriers_(std::move(barrierInstructions), std::move(valueBarrierInstructions)) {}

void FindingCollector::keepFirst(std::vector<Finding> findings) {
  for (Finding &finding : findings)
    byKey_.try_emplace(keyOf(finding), std::move(finding));
}

void FindingCollector::addLaunch(const memmodel::MemoryModel &model, const LaunchRecord &launch) {
  keepFirst(findDataRaces(model, launch));
  keepFirst(findBarrierDivergences(model, launch));
  keepFirst(findOutOfBounds(model, launch));
  keepFirst(findUndefinedBehavior(model, launch));
  barriers_.addLaunch(model, launch);
}

void FindingCollector::merge(const FindingCollector &other) {
  for (const auto &[key, finding] : other.byKey_)
    byKey_.try_emplace(key, finding);
  barriers_.merge(other.barriers_);
}

std::vector<Finding> FindingCollector::findings() const {
  std::vector<Finding> all;
  for (const auto &[key, finding] : byKey_)
    all.push_back(finding);
  for (Finding &finding : barriers_.findings())
    all.push_back(std::move(finding));
  auto order = [](const Finding &f) {
    FindingKey key = keyOf(f);
    return std::make_tuple(key.kind, key.first, key.second, key.space);
  };
  std::stable_sort(all.begin(), all.end(),
                   [&](const Finding &a, const Finding &b) { return order(a) < order(b); });
  return all;
}

} // namespace simulee::detect
