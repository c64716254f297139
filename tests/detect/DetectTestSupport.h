// Test helper for the detectors: run a synthetic event sequence through a
// model, collect its findings, and look at their keys.
#pragma once

#include "../memmodel/SyntheticRun.h"
#include "detect/FindingCollector.h"
#include "memmodel/MemoryModel.h"

#include <set>
#include <vector>

namespace simulee::testing {

inline std::set<detect::FindingKey> keysOf(const std::vector<detect::Finding> &findings) {
  std::set<detect::FindingKey> keys;
  for (const detect::Finding &finding : findings)
    keys.insert(detect::keyOf(finding));
  return keys;
}

inline size_t countKind(const std::vector<detect::Finding> &findings, detect::FindingKind kind) {
  size_t count = 0;
  for (const detect::Finding &finding : findings)
    count += finding.kind == kind;
  return count;
}

inline detect::FindingKey raceKey(uint32_t a, uint32_t b,
                                  interp::MemSpace space = interp::MemSpace::Global) {
  return {detect::FindingKind::DataRace, space, a < b ? a : b, a < b ? b : a};
}

} // namespace simulee::testing
