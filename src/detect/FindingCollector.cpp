#include "detect/FindingCollector.h"

#include "detect/AtomicityViolationDetector.h"
#include "detect/BarrierDivergenceDetector.h"
#include "detect/DataRaceDetector.h"
#include "detect/OutOfBoundsDetector.h"
#include "detect/UninitializedReadDetector.h"
#include "detect/UndefinedBehaviorDetector.h"

#include <algorithm>
#include <tuple>

namespace simulee::detect {

FindingCollector::FindingCollector(std::vector<uint32_t> barrierInstructions,
                                   std::vector<uint32_t> requiredBarrierInstructions)
    : judgesBarriers_(!barrierInstructions.empty()),
      barriers_(std::move(barrierInstructions), std::move(requiredBarrierInstructions)) {}

void FindingCollector::add(Finding finding) {
  auto [known, added] = byKey_.try_emplace(keyOf(finding), finding);
  if (added)
    return;
  Finding &kept = known->second;
  uint64_t occurrences = kept.occurrences + finding.occurrences;
  // The most convincing example stays (see exampleStrength).
  if (finding.kind == FindingKind::DataRace && exampleStrength(finding) > exampleStrength(kept))
    kept = std::move(finding);
  kept.occurrences = occurrences;
}

void FindingCollector::addLaunch(const memmodel::MemoryModel &model, const LaunchRecord &launch) {
  for (std::vector<Finding> found :
       {findDataRaces(model, launch), findBarrierDivergences(model, launch),
        findOutOfBounds(model, launch), findUninitializedReads(model, launch),
        findUndefinedBehavior(model, launch), findAtomicityViolations(model, launch)})
    for (Finding &finding : found)
      add(std::move(finding));
  if (judgesBarriers_)
    barriers_.addLaunch(model, launch);
}

void FindingCollector::addPartialLaunch(const memmodel::MemoryModel &model,
                                        const LaunchRecord &launch) {
  for (std::vector<Finding> found :
       {findDataRaces(model, launch), findOutOfBounds(model, launch),
        findUndefinedBehavior(model, launch), findAtomicityViolations(model, launch)})
    for (Finding &finding : found)
      add(std::move(finding));
}

void FindingCollector::merge(const FindingCollector &other) {
  for (const auto &[key, finding] : other.byKey_)
    add(finding);
  barriers_.merge(other.barriers_);
}

std::vector<Finding>
FindingCollector::findings(const std::vector<std::vector<uint32_t>> &barrierGroups) const {
  std::vector<Finding> all;
  for (const auto &[key, finding] : byKey_)
    all.push_back(finding);
  for (Finding &finding : barriers_.findings(barrierGroups))
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
