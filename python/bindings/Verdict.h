// The per-kernel verdict the Python API reports: "clean", "findings",
// "inconclusive" or "error" (DESIGN.md, Verdicts). One function, so that it
// can follow session::KernelAnalysis when the session layer decides the
// verdict itself.
#pragma once

#include "detect/Finding.h"
#include "session/Analysis.h"

#include <algorithm>

namespace simulee::python {

// Launches of `analysis` whose findings were judged.
inline uint64_t judgedLaunches(const session::KernelAnalysis &analysis) {
  uint64_t skipped =
      analysis.failedLaunches + analysis.tooCostlyLaunches + analysis.outOfBoundsLaunches;
  return analysis.launches > skipped ? analysis.launches - skipped : 0;
}

// "error" is never returned here: a kernel whose analysis failed has no
// KernelAnalysis (the caller says "error" then).
inline const char *verdictOf(const session::KernelAnalysis &analysis) {
  if (std::any_of(analysis.findings.begin(), analysis.findings.end(),
                  [](const detect::Finding &finding) { return detect::isBug(finding.kind); }))
    return "findings";
  if (judgedLaunches(analysis) == 0)
    return "inconclusive"; // nothing unanalysed may look clean
  return "clean";
}

} // namespace simulee::python
