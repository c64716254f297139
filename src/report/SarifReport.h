// SARIF 2.1.0 for GitHub code scanning and other static-analysis viewers: one
// run, a rule per finding kind, a result per finding with its other sites as
// related locations and a stable fingerprint.
#pragma once

#include "report/Report.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <ostream>
#include <string>

namespace simulee::report {

inline constexpr const char *kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
inline constexpr const char *kSrcRootBaseId = "%SRCROOT%";

nlohmann::ordered_json sarifReport(const ReportInput &input, const ReportOptions &options = {});
void writeSarifReport(std::ostream &out, const ReportInput &input,
                      const ReportOptions &options = {});

// Where an artifact lives for SARIF: a URI relative to `root` (to be resolved
// against %SRCROOT%) when `path` lies under it, else an absolute file:// URI.
struct ArtifactUri {
  std::string uri;
  bool relativeToRoot = false;
};
ArtifactUri artifactUri(const std::filesystem::path &path, const std::filesystem::path &root);

} // namespace simulee::report
