#include "detect/Verdict.h"

#include <algorithm>

namespace simulee::detect {

const char *verdictName(Verdict verdict) {
  switch (verdict) {
  case Verdict::Clean: return "clean";
  case Verdict::Findings: return "findings";
  case Verdict::Inconclusive: return "inconclusive";
  case Verdict::Error: return "error";
  case Verdict::NotLaunched: return "not launched";
  }
  return "?";
}

std::string skippedReasons(const LaunchCounts &counts) {
  std::string text;
  auto add = [&](uint64_t count, const char *reason) {
    if (count)
      text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + reason;
  };
  add(counts.outOfBounds, "out of bounds");
  add(counts.tooCostly - counts.cutShort, "too costly");
  add(counts.nonTerminating, "non-terminating");
  add(counts.failed, "failed");
  return text;
}

Verdict verdictOf(const std::vector<Finding> &findings, const LaunchCounts &counts) {
  if (std::any_of(findings.begin(), findings.end(), [](const Finding &f) { return isBug(f); }))
    return Verdict::Findings;
  return counts.judged > counts.unconventional ? Verdict::Clean : Verdict::Inconclusive;
}

} // namespace simulee::detect
