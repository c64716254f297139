// Finding counts per severity and kind: the closing line of a text report and
// the "summary" object of JSON.
#pragma once

#include "report/FindingRules.h"
#include "report/Report.h"

#include <array>
#include <string>

namespace simulee::report {

struct Summary {
  uint32_t warnings = 0;
  uint32_t notes = 0;
  std::array<uint32_t, kFindingRuleCount> perKind = {}; // indexed by ruleIndex
  uint32_t total() const { return warnings + notes; }
};

Summary summarize(const ReportInput &input);

// "2 warnings (1 data-race, 1 redundant-barrier)", "1 warning, 1 note (...)",
// or "no findings".
std::string summaryLine(const Summary &summary);

} // namespace simulee::report
