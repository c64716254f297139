// Compiler-style diagnostics: "file:line:col: warning: ... [kind]", the source
// line with a caret, notes on the launch that exposed the finding, and a
// closing summary line.
#pragma once

#include "report/Report.h"

#include <ostream>

namespace simulee::report {

void writeTextReport(std::ostream &out, const ReportInput &input,
                     const ReportOptions &options = {});

} // namespace simulee::report
