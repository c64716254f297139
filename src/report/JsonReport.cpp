#include "report/JsonReport.h"

#include "report/FindingRules.h"
#include "report/FindingText.h"
#include "report/Summary.h"

namespace simulee::report {

using detect::Finding;
using detect::Site;
using Json = nlohmann::ordered_json;

namespace {

Json dim3Json(const interp::Dim3 &dim) { return Json::array({dim.x, dim.y, dim.z}); }

Json siteJson(const ir::Program &program, const Finding &finding, const Site &site) {
  Json json;
  const ir::SourceLocation *location = nullptr;
  if (site.instruction < program.instructions.size())
    location = &program.instructions[site.instruction].location;
  if (location && location->known()) {
    json["file"] = location->file;
    json["directory"] = location->directory;
    json["line"] = location->line;
    json["column"] = location->column;
  } else {
    json["file"] = nullptr;
    json["line"] = nullptr;
    json["column"] = nullptr;
  }
  json["function"] = program.functionName(site.instruction);
  json["action"] = siteAction(program, site);
  json["thread"] = dim3Json(threadCoordinates(finding, site));
  json["block"] = dim3Json(blockCoordinates(finding, site));
  json["instruction"] = program.instructionText(site.instruction);
  return json;
}

Json originJson(const detect::LaunchOrigin &origin) {
  return Json{{"file", origin.file}, {"line", origin.line}};
}

Json launchJson(const detect::LaunchRecord &launch) {
  Json arguments = Json::object();
  for (const auto &[name, value] : launch.args)
    arguments[name] = value;
  Json json{{"grid", dim3Json(launch.grid)},
            {"block", dim3Json(launch.block)},
            {"sharedBytes", launch.dynamicSharedBytes},
            {"arguments", arguments},
            {"seed", launch.seed}};
  // The call site whose launch this is; null when the search was free.
  json["origin"] = launch.origin ? originJson(*launch.origin) : Json();
  json["provenance"] = detect::provenanceName(launch.provenance);
  if (launch.ordinal) // `simulee exec`: the how-manieth launch of the kernel
    json["ordinal"] = launch.ordinal;
  return json;
}

Json findingJson(const ir::Program &program, const std::string &kernel, const Finding &finding) {
  Json json;
  json["kind"] = ruleId(finding.kind);
  // Atomicity violations: the pattern ("check-then-act"); null otherwise.
  json["subkind"] = finding.subkind.empty() ? Json() : Json(finding.subkind);
  json["severity"] = severityName(severityOf(finding));
  const char *benign = detect::benignName(finding.benign);
  json["benign"] = benign ? Json(benign) : Json();
  json["occurrences"] = finding.occurrences;
  json["kernel"] = kernel;
  json["space"] = interp::memSpaceName(finding.space);
  json["variable"] = finding.variable;
  if (isAboutMemory(finding.kind))
    json["address"] = {{"variable", finding.variable},
                       {"offset", static_cast<int64_t>(finding.exampleOffset)}};
  Json accesses = Json::array();
  for (const Site &site : finding.sites)
    accesses.push_back(siteJson(program, finding, site));
  json["accesses"] = accesses;
  if (!finding.groupBarriers.empty()) {
    // Redundant barriers of which only one can go: the others.
    Json group = Json::array();
    for (uint32_t barrier : finding.groupBarriers)
      group.push_back(siteJson(program, finding,
                               Site{barrier, interp::AccessKind::Read, false, 0, 0}));
    json["onlyOneOf"] = group;
  }
  json["message"] = findingMessage(program, finding);
  json["detail"] = finding.detail;
  json["launch"] = launchJson(finding.launch);
  // --repair: the proven repairs, each with the launches that proved it.
  Json fixes = Json::array();
  for (const detect::Repair &repair : finding.repairs) {
    Json replaced = Json::array();
    for (const ir::SourceLocation &location : repair.replaced)
      replaced.push_back(location.line);
    Json launches = Json::array();
    for (const detect::LaunchRecord &launch : repair.launches)
      launches.push_back(launchJson(launch));
    fixes.push_back({{"kind", repair.kind},
                     {"description", repair.description},
                     {"file", repair.at.file},
                     {"line", repair.at.line},
                     {"inserted", repair.inserted.empty() ? Json() : Json(repair.inserted)},
                     {"replacedLines", replaced},
                     {"launches", launches}});
  }
  json["fixes"] = fixes;
  return json;
}

Json summaryJson(const Summary &summary) {
  Json byKind = Json::object();
  for (const FindingRule &rule : findingRules())
    byKind[ruleId(rule.kind)] = summary.perKind[ruleIndex(rule.kind)];
  return Json{{"findings", summary.total()},
              {"warnings", summary.warnings},
              {"notes", summary.notes},
              {"byKind", byKind}};
}

// The file all kernels come from, or null when they come from several.
Json commonFile(const ReportInput &input) {
  if (input.kernels.empty())
    return nullptr;
  const std::string &path = input.kernels.front().path();
  for (const KernelFindings &kernel : input.kernels)
    if (kernel.path() != path)
      return nullptr;
  return path;
}

Json callSitesJson(const std::vector<detect::LaunchOrigin> &sites) {
  Json json = Json::array();
  for (const detect::LaunchOrigin &site : sites)
    json.push_back(originJson(site));
  return json;
}

Json launchCountsJson(const detect::LaunchCounts &counts) {
  return Json{{"judged", counts.judged},
              {"outOfBounds", counts.outOfBounds},
              {"tooCostly", counts.tooCostly},
              {"cutShort", counts.cutShort},
              {"nonTerminating", counts.nonTerminating},
              {"failed", counts.failed},
              {"unconventional", counts.unconventional},
              {"lightlyChecked", counts.lightlyChecked},
              {"blocks", counts.blocks},
              {"blocksModelled", counts.blocksModelled},
              {"threadInstrs", counts.threadInstrs},
              {"compiledThreadInstrs", counts.compiledThreadInstrs}};
}

} // namespace

Json jsonReport(const ReportInput &input) {
  Json kernels = Json::array();
  Json findings = Json::array();
  for (const KernelFindings &kernel : input.kernels) {
    detect::Verdict verdict = kernel.finalVerdict();
    kernels.push_back({{"file", kernel.path()},
                       {"kernel", kernel.kernel.empty() ? Json() : Json(kernel.kernel)},
                       {"verdict", detect::verdictName(verdict)},
                       {"launches", launchCountsJson(kernel.launches)},
                       {"cause", kernel.cause.empty() ? Json() : Json(kernel.cause)},
                       {"callSites", callSitesJson(kernel.callSites)},
                       {"provenance", kernel.provenance
                                          ? Json(detect::provenanceName(*kernel.provenance))
                                          : Json()},
                       {"notes", kernel.notes},
                       {"findings", kernel.findings.size()}});
    if (!kernel.parameters.empty())
      kernels.back()["parameters"] = kernel.parameters;
    if (!kernel.program)
      continue;
    for (const Finding &finding : kernel.findings)
      findings.push_back(findingJson(*kernel.program, kernel.kernel, finding));
  }
  Json document;
  document["tool"] = kToolName;
  document["version"] = kToolVersion;
  document["file"] = commonFile(input);
  document["kernel"] = input.kernels.size() == 1 ? Json(input.kernels.front().kernel) : Json();
  document["verdict"] = detect::verdictName(overallVerdict(input));
  document["kernels"] = kernels;
  document["findings"] = findings;
  document["summary"] = summaryJson(summarize(input));
  return document;
}

void writeJsonReport(std::ostream &out, const ReportInput &input) {
  // Paths and names are bytes, not necessarily UTF-8: invalid sequences are
  // replaced (U+FFFD) instead of failing the whole report.
  out << jsonReport(input).dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

} // namespace simulee::report
