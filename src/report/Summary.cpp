#include "report/Summary.h"

namespace simulee::report {

Summary summarize(const ReportInput &input) {
  Summary summary;
  for (const KernelFindings &kernel : input.kernels) {
    for (const detect::Finding &finding : kernel.findings) {
      if (severityOf(finding.kind) == Severity::Warning)
        ++summary.warnings;
      else
        ++summary.notes;
      ++summary.perKind[ruleIndex(finding.kind)];
    }
  }
  return summary;
}

namespace {

std::string counted(uint32_t count, const char *noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

} // namespace

std::string summaryLine(const Summary &summary) {
  if (summary.total() == 0)
    return "no findings";
  std::string line;
  if (summary.warnings)
    line = counted(summary.warnings, "warning");
  if (summary.notes)
    line += (line.empty() ? "" : ", ") + counted(summary.notes, "note");
  std::string kinds;
  for (const FindingRule &rule : findingRules()) {
    uint32_t count = summary.perKind[ruleIndex(rule.kind)];
    if (count)
      kinds += (kinds.empty() ? "" : ", ") + std::to_string(count) + " " + ruleId(rule.kind);
  }
  return line + " (" + kinds + ")";
}

} // namespace simulee::report
