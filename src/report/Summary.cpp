#include "report/Summary.h"

namespace simulee::report {

Summary summarize(const ReportInput &input) {
  Summary summary;
  for (const KernelFindings &kernel : input.kernels) {
    for (const detect::Finding &finding : kernel.findings) {
      if (severityOf(finding) == Severity::Warning)
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

// "97%": the share of the thread-instructions compiled code ran (--engine).
std::string compiledShare(const detect::LaunchCounts &counts) {
  uint64_t percent =
      counts.threadInstrs ? counts.compiledThreadInstrs * 100 / counts.threadInstrs : 100;
  return std::to_string(percent) + "%";
}

} // namespace

std::string verdictText(const KernelFindings &kernel) {
  using detect::Verdict;
  const detect::LaunchCounts &counts = kernel.launches;
  Verdict verdict = kernel.finalVerdict();
  std::string text = detect::verdictName(verdict);
  switch (verdict) {
  case Verdict::Error:
    return text + ": " + kernel.cause;
  case Verdict::NotLaunched:
    return text + ": " + kernel.cause + " (--explore searches it)";
  case Verdict::Inconclusive:
    if (counts.judged) // all of them outside the conventions
      text += ": only launches with a size of 0 or less could be judged (" +
              std::to_string(counts.judged) + ")";
    else
      text += ": no launch could be judged";
    if (counts.skipped())
      text += " (" + detect::skippedReasons(counts) + ")";
    return kernel.cause.empty() ? text : text + "; first failure: " + kernel.cause;
  case Verdict::Clean:
  case Verdict::Findings:
    if (counts.simulated() == 0)
      return text;
    text += " (";
    if (counts.judged || !counts.cutShort)
      text += std::to_string(counts.judged) + (counts.judged == 1 ? " launch" : " launches") +
              " judged" + (counts.cutShort ? "; " : "");
    if (counts.cutShort)
      text += std::to_string(counts.cutShort) + (counts.judged ? " more" : "") +
              (counts.cutShort == 1 ? " launch" : " launches") +
              " judged for the blocks it ran before its time budget cut it short "
              "(--launch-seconds)";
    if (counts.lightlyChecked)
      text += "; " + std::to_string(counts.lightlyChecked) +
              " more checked only for out-of-bounds accesses, undefined behaviour and barrier "
              "divergence: see --check-all";
    if (counts.blocksModelled < counts.blocks)
      text += "; shared memory modelled in " + std::to_string(counts.blocksModelled) + " of " +
              std::to_string(counts.blocks) +
              " blocks, the others repeating one of them exactly: see --all-blocks";
    if (counts.compiledThreadInstrs)
      text += "; " + compiledShare(counts) + " of the instructions ran as compiled code";
    if (counts.skipped())
      text += "; " + std::to_string(counts.skipped()) + " skipped: " +
              detect::skippedReasons(counts);
    return text + ")";
  }
  return text;
}

std::string verdictLine(const KernelFindings &kernel) {
  std::string line = kernel.path() + ": ";
  if (!kernel.kernel.empty())
    line += "kernel '" + kernel.kernel + kernel.parameters + "': ";
  line += verdictText(kernel);
  if (!kernel.callSites.empty()) {
    line += kernel.callSites.size() == 1 ? " at its call site " : " at its call sites ";
    for (size_t i = 0; i < kernel.callSites.size(); ++i)
      line += (i ? ", " : "") + kernel.callSites[i].file + ":" +
              std::to_string(kernel.callSites[i].line);
  }
  return line;
}

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
