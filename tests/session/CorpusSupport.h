// Reading corpus/ manifests and comparing findings with them, shared by the
// labeled-launch test and the search test.
#pragma once

#include "ir/Loader.h"
#include "session/Analysis.h"
#include "session/SiteSearch.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace simulee::corpus_test {

inline std::filesystem::path corpusDir() {
  return std::filesystem::path(SIMULEE_SOURCE_DIR) / "corpus";
}

struct Manifest {
  std::string name; // manifest file name without .json
  std::string source;             // the .cu (or .ll) path
  std::vector<std::string> links; // "link": files linked into the source (--link)
  nlohmann::json json;
};

inline std::vector<Manifest> loadManifests() {
  std::vector<Manifest> manifests;
  for (const auto &entry : std::filesystem::directory_iterator(corpusDir())) {
    if (entry.path().extension() != ".json")
      continue;
    Manifest m;
    m.name = entry.path().stem().string();
    std::ifstream in(entry.path());
    m.json = nlohmann::json::parse(in);
    std::string file = m.json.value("file", m.name.substr(0, m.name.find('.')) + ".cu");
    m.source = (corpusDir() / file).string();
    for (const std::string &linked : m.json.value("link", std::vector<std::string>{}))
      m.links.push_back((corpusDir() / linked).string());
    manifests.push_back(std::move(m));
  }
  std::sort(manifests.begin(), manifests.end(),
            [](const Manifest &a, const Manifest &b) { return a.name < b.name; });
  return manifests;
}

// Programs are compiled once per source file (and the files linked into it)
// for the whole test binary.
inline const ir::Program &programFor(const std::string &source,
                                     const std::vector<std::string> &links = {}) {
  static std::map<std::vector<std::string>, std::unique_ptr<ir::Program>> cache;
  std::vector<std::string> key = links;
  key.insert(key.begin(), source);
  auto it = cache.find(key);
  if (it != cache.end())
    return *it->second;
  ir::LoadOptions options;
  options.linkFiles = links;
  Result<ir::Program> program = ir::loadProgram(source, options);
  if (!program)
    throw std::runtime_error(program.error().message);
  return *cache.emplace(key, std::make_unique<ir::Program>(std::move(*program))).first->second;
}

// The call sites of a source's host code, read once per source file.
inline const host::HostCode &hostCodeFor(const std::string &source) {
  static std::map<std::string, host::HostCode> cache;
  auto it = cache.find(source);
  if (it != cache.end())
    return it->second;
  Result<host::HostCode> host = session::readHostCode(source, {});
  if (!host)
    throw std::runtime_error(host.error().message);
  if (!host->firstError.empty())
    throw std::runtime_error(source + ": host code: " + host->firstError);
  return cache.emplace(source, std::move(*host)).first->second;
}

inline const std::vector<host::CallSite> &callSitesFor(const std::string &source) {
  return hostCodeFor(source).sites;
}

// A finding as the manifests label it: kind plus source lines.
using Label = std::pair<std::string, std::vector<uint32_t>>;

inline std::set<Label> expectedLabels(const nlohmann::json &manifest) {
  std::set<Label> labels;
  for (const nlohmann::json &e : manifest["expected"]) {
    std::vector<uint32_t> lines;
    if (e.contains("lines"))
      lines = e["lines"].get<std::vector<uint32_t>>();
    else
      lines = {e["line"].get<uint32_t>()};
    std::string kind = e["kind"].get<std::string>();
    if (e.contains("pattern")) // atomicity violations: "atomicity-violation:check-then-act"
      kind += ":" + e["pattern"].get<std::string>();
    labels.insert({kind, lines});
  }
  return labels;
}

// Bugs by their kind; same-value races (notes) as "same-value-race", and
// findings seen only outside CUDA's conventions (notes) as
// "unconventional-<kind>"; other notes (unreached barriers) are not labeled.
inline std::string labelKind(const detect::Finding &finding) {
  if (finding.benign == detect::Benign::SameValue)
    return "same-value-race";
  if (finding.benign == detect::Benign::Unconventional)
    return std::string("unconventional-") + detect::findingKindName(finding.kind);
  if (!finding.subkind.empty())
    return std::string(detect::findingKindName(finding.kind)) + ":" + finding.subkind;
  return detect::findingKindName(finding.kind);
}

inline std::set<Label> actualLabels(const ir::Program &program,
                                    const std::vector<detect::Finding> &findings) {
  std::set<Label> labels;
  for (const detect::Finding &finding : findings) {
    bool labeled = detect::isBug(finding) || finding.benign != detect::Benign::No;
    if (!labeled || finding.sites.empty())
      continue;
    auto line = [&](const detect::Site &site) {
      return program.instructions[site.instruction].location.line;
    };
    std::vector<uint32_t> lines;
    if (finding.kind == detect::FindingKind::DataRace && finding.sites.size() == 2) {
      lines = {line(finding.sites[0]), line(finding.sites[1])};
      std::sort(lines.begin(), lines.end());
    } else if (finding.kind == detect::FindingKind::AtomicityViolation &&
               finding.sites.size() >= 2) {
      lines = {line(finding.sites[0]), line(finding.sites[1])}; // the pair, in order
    } else {
      lines = {line(finding.sites[0])};
    }
    labels.insert({labelKind(finding), lines});
  }
  return labels;
}

// Whether the manifest labels a bug (a same-value race is a note).
inline bool expectsBugs(const nlohmann::json &manifest) {
  for (const nlohmann::json &e : manifest["expected"])
    if (e["kind"] != "same-value-race")
      return true;
  return false;
}

// The verdict a manifest expects of `section` (the manifest itself for the
// labeled launch, or its "search"): given, else findings when it labels a
// bug, else clean.
inline std::string expectedVerdict(const nlohmann::json &manifest, const nlohmann::json &section) {
  if (section.contains("verdict"))
    return section["verdict"].get<std::string>();
  return expectsBugs(manifest) ? "findings" : "clean";
}

inline std::string describe(const std::set<Label> &labels) {
  std::string text;
  for (const Label &label : labels) {
    text += "  " + label.first + " [";
    for (size_t i = 0; i < label.second.size(); ++i)
      text += (i ? "," : "") + std::to_string(label.second[i]);
    text += "]\n";
  }
  return text.empty() ? "  (none)\n" : text;
}

inline interp::Dim3 dimsOf(const nlohmann::json &d) {
  return interp::Dim3{d[0].get<uint32_t>(), d[1].get<uint32_t>(), d[2].get<uint32_t>()};
}

inline std::vector<session::ArgumentSpec> argsOf(const nlohmann::json &launch) {
  std::vector<session::ArgumentSpec> args;
  if (launch.contains("args"))
    for (auto &[name, value] : launch["args"].items())
      args.push_back({name, value.get<std::string>()});
  return args;
}

// A manifest's labeled launch, as `simulee run` takes it.
inline session::LaunchSpec labeledLaunchOf(const nlohmann::json &manifest) {
  session::LaunchSpec spec;
  const nlohmann::json &launch = manifest["launch"];
  spec.config.grid = dimsOf(launch["grid"]);
  spec.config.block = dimsOf(launch["block"]);
  spec.config.dynamicSharedBytes = launch.value("sharedBytes", 0u);
  spec.args = argsOf(launch);
  return spec;
}

} // namespace simulee::corpus_test
