// The per-kernel verdict the Python API reports: "clean", "findings",
// "inconclusive" or "error" (DESIGN.md, Verdicts), as the session layer
// decided it.
#pragma once

#include "detect/Verdict.h"
#include "session/Analysis.h"

namespace simulee::python {

// Launches of `analysis` whose findings were judged.
inline uint64_t judgedLaunches(const session::KernelAnalysis &analysis) {
  return analysis.counts.judged;
}

// "error" is never returned here: a kernel whose analysis failed has no
// KernelAnalysis (the caller says "error" then).
inline const char *verdictOf(const session::KernelAnalysis &analysis) {
  return detect::verdictName(analysis.verdict);
}

} // namespace simulee::python
