#include "report/Report.h"

#include "report/JsonReport.h"
#include "report/SarifReport.h"
#include "report/TextReport.h"

namespace simulee::report {

std::optional<Format> parseFormat(std::string_view name) {
  if (name == "text")
    return Format::Text;
  if (name == "json")
    return Format::Json;
  if (name == "sarif")
    return Format::Sarif;
  return std::nullopt;
}

detect::Verdict KernelFindings::finalVerdict() const {
  if (verdict)
    return *verdict;
  for (const detect::Finding &finding : findings)
    if (detect::isBug(finding))
      return detect::Verdict::Findings;
  return detect::Verdict::Clean;
}

detect::Verdict overallVerdict(const ReportInput &input) {
  using detect::Verdict;
  bool anyFindings = false, allErrors = !input.kernels.empty(), anyUnjudged = false;
  bool allNotLaunched = !input.kernels.empty();
  for (const KernelFindings &kernel : input.kernels) {
    Verdict verdict = kernel.finalVerdict();
    anyFindings |= verdict == Verdict::Findings;
    allErrors &= verdict == Verdict::Error;
    allNotLaunched &= verdict == Verdict::NotLaunched;
    anyUnjudged |= verdict == Verdict::Error || verdict == Verdict::Inconclusive;
  }
  if (anyFindings)
    return Verdict::Findings;
  if (allErrors)
    return Verdict::Error;
  if (allNotLaunched)
    return Verdict::NotLaunched;
  return anyUnjudged ? Verdict::Inconclusive : Verdict::Clean;
}

void writeReport(std::ostream &out, Format format, const ReportInput &input,
                 const ReportOptions &options) {
  switch (format) {
  case Format::Text:
    writeTextReport(out, input, options);
    return;
  case Format::Json:
    writeJsonReport(out, input);
    return;
  case Format::Sarif:
    writeSarifReport(out, input, options);
    return;
  }
}

} // namespace simulee::report
