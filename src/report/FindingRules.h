// What each finding kind means to a reader: its rule id, severity and the
// descriptions that SARIF rules, summaries and help texts show.
#pragma once

#include "detect/Finding.h"

#include <array>

namespace simulee::report {

enum class Severity : uint8_t { Warning, Note };

struct FindingRule {
  detect::FindingKind kind;
  const char *category;         // SARIF tag: "correctness", "performance", "coverage"
  const char *shortDescription; // one sentence
  const char *fullDescription;  // what the rule decides, in DESIGN.md's terms
  const char *help;             // how to fix it
};

// Every kind, in FindingKind order (the index is the SARIF ruleIndex).
constexpr size_t kFindingRuleCount = 6;
const std::array<FindingRule, kFindingRuleCount> &findingRules();
const FindingRule &ruleFor(detect::FindingKind kind);
uint32_t ruleIndex(detect::FindingKind kind);
// detect::findingKindName: the tag in text, the SARIF ruleId.
const char *ruleId(detect::FindingKind kind);
// Bugs are warnings; the rest (unreached barriers) are notes.
Severity severityOf(detect::FindingKind kind);
const char *severityName(Severity severity); // "warning" / "note"

} // namespace simulee::report
