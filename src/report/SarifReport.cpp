#include "report/SarifReport.h"

#include "report/FindingRules.h"
#include "report/FindingText.h"
#include "report/SourceFile.h"
#include "report/Summary.h"

#include <optional>
#include <cctype>
#include <cstdio>

namespace simulee::report {

using detect::Finding;
using detect::Site;
using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

// RFC 3986: keep unreserved characters and the path separator.
std::string percentEncode(const std::string &text) {
  std::string encoded;
  for (unsigned char c : text) {
    bool keep = std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      encoded += char(c);
      continue;
    }
    char escape[4];
    std::snprintf(escape, sizeof(escape), "%%%02X", c);
    encoded += escape;
  }
  return encoded;
}

fs::path absoluteNormal(const fs::path &path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  return (error ? path : absolute).lexically_normal();
}

std::string fileUri(const fs::path &absolute) {
  std::string path = absolute.generic_string();
  if (!path.empty() && path.front() != '/')
    path = "/" + path; // a Windows drive letter
  return "file://" + percentEncode(path);
}

fs::path rootOf(const ReportOptions &options) {
  if (!options.sourceRoot.empty())
    return absoluteNormal(options.sourceRoot);
  std::error_code error;
  return absoluteNormal(fs::current_path(error));
}

// FNV-1a: small, stable across platforms and releases, unlike std::hash.
uint64_t fnv1a(const std::string &text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(value));
  return text;
}

Json message(const std::string &text) { return Json{{"text", text}}; }

Json ruleJson(const FindingRule &rule) {
  bool isWarning = severityOf(rule.kind) == Severity::Warning;
  return Json{
      {"id", ruleId(rule.kind)},
      {"shortDescription", message(rule.shortDescription)},
      {"fullDescription", message(rule.fullDescription)},
      {"help", message(rule.help)},
      {"defaultConfiguration", {{"level", severityName(severityOf(rule.kind))}}},
      {"properties",
       {{"tags", Json::array({"cuda", "concurrency", rule.category})},
        {"precision", "high"},
        {"problem.severity", isWarning ? "warning" : "recommendation"}}},
  };
}

class SarifWriter {
public:
  explicit SarifWriter(const ReportOptions &options) : root_(rootOf(options)) {}

  Json run(const ReportInput &input) const {
    Json rules = Json::array();
    for (const FindingRule &rule : findingRules())
      rules.push_back(ruleJson(rule));
    Json results = Json::array();
    for (const KernelFindings &kernel : input.kernels) {
      if (!kernel.program)
        continue;
      for (const Finding &finding : kernel.findings)
        results.push_back(result(*kernel.program, kernel.kernel, finding));
    }
    // No informationUri: the project has no public home page yet.
    Json driver = {{"name", kToolName},
                   {"version", kToolVersion},
                   {"semanticVersion", kToolVersion},
                   {"rules", rules}};
    std::string rootUri = fileUri(root_);
    if (rootUri.back() != '/')
      rootUri += "/";
    return Json{{"tool", {{"driver", driver}}},
                {"invocations", Json::array({invocation(input)})},
                {"originalUriBaseIds", {{kSrcRootBaseId, {{"uri", rootUri}}}}},
                {"results", results}};
  }

private:
  // Kernels that could not be analysed (error), judged (inconclusive) or
  // were not searched because nothing launches them (not launched) are tool
  // execution notifications: a SARIF consumer must not read their absence of
  // results as clean.
  Json invocation(const ReportInput &input) const {
    Json notifications = Json::array();
    bool anyError = false;
    for (const KernelFindings &kernel : input.kernels) {
      detect::Verdict verdict = kernel.finalVerdict();
      if (verdict != detect::Verdict::Error && verdict != detect::Verdict::Inconclusive &&
          verdict != detect::Verdict::NotLaunched)
        continue;
      anyError |= verdict == detect::Verdict::Error;
      const char *level = verdict == detect::Verdict::Error          ? "error"
                          : verdict == detect::Verdict::Inconclusive ? "warning"
                                                                     : "note";
      Json notification = {
          {"level", level},
          {"message", message(verdictLine(kernel))},
          {"descriptor", {{"id", detect::verdictName(verdict)}}},
          {"locations",
           Json::array({{{"physicalLocation",
                          {{"artifactLocation", artifactLocation(kernel.path())}}}}})}};
      if (!kernel.kernel.empty())
        notification["properties"] = {{"kernel", kernel.kernel}};
      notifications.push_back(notification);
    }
    return Json{{"executionSuccessful", !anyError},
                {"toolExecutionNotifications", notifications}};
  }

  Json artifactLocation(const fs::path &path) const {
    ArtifactUri artifact = artifactUri(path, root_);
    Json json = {{"uri", artifact.uri}};
    if (artifact.relativeToRoot)
      json["uriBaseId"] = kSrcRootBaseId;
    return json;
  }

  // The file a location names as an artifact URI, for locations and fingerprints.
  std::string sourceUri(const ir::SourceLocation &location) const {
    fs::path found = findSourceFile(location);
    return artifactUri(found.empty() ? intendedSourcePath(location) : found, root_).uri;
  }

  Json location(const ir::Program &program, uint32_t instruction) const {
    const ir::SourceLocation *source = nullptr;
    if (instruction < program.instructions.size())
      source = &program.instructions[instruction].location;
    Json json = Json::object();
    if (source && source->known()) {
      fs::path found = findSourceFile(*source);
      Json region = {{"startLine", source->line}};
      if (source->column)
        region["startColumn"] = source->column;
      json["physicalLocation"] = {
          {"artifactLocation",
           artifactLocation(found.empty() ? intendedSourcePath(*source) : found)},
          {"region", region}};
      return json;
    }
    // Without debug info, point at the analysed file and name the function.
    if (!program.path.empty())
      json["physicalLocation"] = {{"artifactLocation", artifactLocation(program.path)}};
    json["logicalLocations"] =
        Json::array({{{"name", program.functionName(instruction)}, {"kind", "function"}}});
    return json;
  }

  Json relatedLocations(const ir::Program &program, const Finding &finding) const {
    Json related = Json::array();
    for (size_t i = 1; i < finding.sites.size(); ++i) {
      const Site &site = finding.sites[i];
      Json json = {{"id", i},
                   {"message", message(siteAction(program, site) + " by " +
                                       threadAndBlockText(finding, site))}};
      json.update(location(program, site.instruction));
      related.push_back(json);
    }
    return related;
  }

  // Stable while the code around the finding is edited elsewhere: kind,
  // variable, and the file and line of every site (or, without debug info,
  // the function and instruction text).
  std::string fingerprint(const ir::Program &program, const Finding &finding) const {
    std::string key = std::string(ruleId(finding.kind)) + "|" + finding.variable;
    for (size_t i = 0; i < detect::identifyingSites(finding); ++i) {
      const Site &site = finding.sites[i];
      const ir::SourceLocation *source = nullptr;
      if (site.instruction < program.instructions.size())
        source = &program.instructions[site.instruction].location;
      key += '|';
      if (source && source->known())
        key += sourceUri(*source) + ":" + std::to_string(source->line);
      else
        key += program.functionName(site.instruction) + ":" +
               program.instructionText(site.instruction);
    }
    return hex(fnv1a(key));
  }

  Json result(const ir::Program &program, const std::string &kernel, const Finding &finding) const {
    std::string text = findingMessage(program, finding);
    if (needsDetailNote(finding))
      text += "; " + finding.detail;
    if (hasLaunchNote(finding))
      text += "; " + launchNoteText(finding);
    Json json = {{"ruleId", ruleId(finding.kind)},
                 {"ruleIndex", ruleIndex(finding.kind)},
                 {"level", severityName(severityOf(finding))},
                 {"message", message(text)}};
    Json locations = Json::array();
    if (!finding.sites.empty())
      locations.push_back(location(program, finding.sites.front().instruction));
    else if (!program.path.empty())
      locations.push_back(
          {{"physicalLocation", {{"artifactLocation", artifactLocation(program.path)}}}});
    json["locations"] = locations;
    Json related = relatedLocations(program, finding);
    if (!related.empty())
      json["relatedLocations"] = related;
    json["partialFingerprints"] = {{"simuleeFindingHash/v1", fingerprint(program, finding)}};
    json["properties"] = {{"kernel", kernel},
                          {"space", interp::memSpaceName(finding.space)},
                          {"variable", finding.variable},
                          {"exampleOffset", static_cast<int64_t>(finding.exampleOffset)},
                          {"launch", launchText(finding.launch)},
                          {"provenance", detect::provenanceName(finding.launch.provenance)},
                          {"occurrences", finding.occurrences}};
    if (const char *benign = detect::benignName(finding.benign))
      json["properties"]["benign"] = benign;
    if (!finding.subkind.empty())
      json["properties"]["subkind"] = finding.subkind;
    Json fixes = Json::array();
    for (const detect::Repair &repair : finding.repairs)
      if (std::optional<Json> fix = sarifFix(repair))
        fixes.push_back(*fix);
    if (!fixes.empty())
      json["fixes"] = fixes;
    return json;
  }

  // A repair as a SARIF fix, where its text is exact: a statement inserted
  // at the start of a line, or a line deleted. Repairs that rewrite an
  // expression (an atomic) are described in the message and JSON only.
  std::optional<Json> sarifFix(const detect::Repair &repair) const {
    Json replacement;
    if (!repair.inserted.empty() && repair.replaced.empty()) {
      replacement = {{"deletedRegion",
                      {{"startLine", repair.at.line}, {"startColumn", 1}, {"endLine", repair.at.line},
                       {"endColumn", 1}}},
                     {"insertedContent", {{"text", repair.inserted + "\n"}}}};
    } else if (repair.inserted.empty() && repair.kind == "remove-barrier") {
      replacement = {{"deletedRegion",
                      {{"startLine", repair.at.line}, {"startColumn", 1},
                       {"endLine", repair.at.line + 1}, {"endColumn", 1}}}};
    } else {
      return std::nullopt;
    }
    return Json{{"description", message(repair.description)},
                {"artifactChanges",
                 Json::array({{{"artifactLocation", {{"uri", sourceUri(repair.at)}}},
                               {"replacements", Json::array({replacement})}}})}};
  }

  fs::path root_;
};

} // namespace

ArtifactUri artifactUri(const fs::path &path, const fs::path &root) {
  fs::path absolute = absoluteNormal(path);
  fs::path relative = absolute.lexically_relative(absoluteNormal(root));
  bool underRoot = !relative.empty() && *relative.begin() != "..";
  if (underRoot)
    return {percentEncode(relative.generic_string()), true};
  return {fileUri(absolute), false};
}

Json sarifReport(const ReportInput &input, const ReportOptions &options) {
  return Json{{"$schema", kSarifSchema},
              {"version", "2.1.0"},
              {"runs", Json::array({SarifWriter(options).run(input)})}};
}

void writeSarifReport(std::ostream &out, const ReportInput &input, const ReportOptions &options) {
  // Invalid UTF-8 in paths and names is replaced (U+FFFD), never an exception.
  out << sarifReport(input, options).dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

} // namespace simulee::report
