// One JSON document for machines: every finding with its kind, memory space,
// variable, example address, the involved sites with source locations and
// threads, and the launch that exposed it; then a summary.
#pragma once

#include "report/Report.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace simulee::report {

// The document, keys in a stable, readable order.
nlohmann::ordered_json jsonReport(const ReportInput &input);
void writeJsonReport(std::ostream &out, const ReportInput &input);

} // namespace simulee::report
