// simulee exec's report: the kernels' findings in the usual text, JSON or
// SARIF (report/), plus the host-side API findings (copies past an
// allocation, uses after cudaFree, double frees), which belong to no kernel.
#pragma once

#include "report/Report.h"
#include "runtime/Runtime.h"

#include <string>
#include <vector>

namespace simulee::runtime {

std::string execReport(report::Format format, const std::vector<report::KernelFindings> &kernels,
                       const std::vector<HostFinding> &hostFindings, bool color);

} // namespace simulee::runtime
