// Issue 4: the default evolutionary search, given no launch settings (except
// those a manifest lists as fixed), finds every labeled bug of the corpus
// kernels marked for search, for five seeds each; and reports nothing at all
// for the race-free ones. Issue 8: as the CLI does, a kernel whose file
// launches it from host code is searched at its call sites.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

using namespace simulee;
using namespace simulee::corpus_test;

namespace {

struct SearchCase {
  Manifest manifest;
  uint64_t seed;
};

std::vector<SearchCase> searchCases() {
  std::vector<SearchCase> cases;
  for (const Manifest &m : loadManifests()) {
    if (!m.json.contains("search") || !m.json["search"].value("expectFound", false))
      continue;
    for (uint64_t seed = 1; seed <= 5; ++seed)
      cases.push_back({m, seed});
  }
  return cases;
}

// What a user would give on the command line: the manifest's "fixed"
// settings, and the dynamic shared bytes of a kernel no call site sizes (a
// site states them, computed from its block where it searches that).
session::FixedSettings fixedSettings(const nlohmann::json &manifest, bool launchedBySites) {
  session::FixedSettings fixed;
  const nlohmann::json &launch = manifest["launch"];
  if (!launchedBySites)
    fixed.dynamicSharedBytes = launch.value("sharedBytes", 0u);
  std::vector<session::ArgumentSpec> args = argsOf(launch);
  for (const nlohmann::json &name : manifest["search"].value("fixed", nlohmann::json::array())) {
    std::string fixedName = name.get<std::string>();
    if (fixedName == "grid")
      fixed.grid = dimsOf(launch["grid"]);
    else if (fixedName == "block")
      fixed.block = dimsOf(launch["block"]);
    for (const session::ArgumentSpec &arg : args)
      if (arg.name == fixedName)
        fixed.args.push_back(arg);
  }
  return fixed;
}

void PrintTo(const SearchCase &c, std::ostream *os) {
  *os << c.manifest.name << " seed " << c.seed;
}

class CorpusSearch : public ::testing::TestWithParam<SearchCase> {};

TEST_P(CorpusSearch, DefaultSearchFindsTheLabeledBugsAndNothingElse) {
  const SearchCase &c = GetParam();
  const nlohmann::json &json = c.manifest.json;
  const ir::Program &program = programFor(c.manifest.source, c.manifest.links);
  const ir::KernelInfo *kernel = program.findKernel(json["kernel"].get<std::string>());
  ASSERT_NE(kernel, nullptr);

  session::SearchSettings settings;
  settings.search.seed = c.seed;
  settings.search.jobs = 2;
  session::AnalysisOptions options;
  options.independentThreads = !json.value("lockstep", false);
  // Launched as the CLI launches it: from the file's host code.
  session::LaunchSource source =
      session::launchSourceOf(program, *kernel, hostCodeFor(c.manifest.source));
  const std::vector<const host::CallSite *> &sites = source.sites;
  Result<session::KernelAnalysis> analysis =
      session::analyzeKernel(program, *kernel, source, fixedSettings(json, !sites.empty()),
                             settings, options);
  ASSERT_TRUE(analysis.ok()) << analysis.error().message;
  // Every launch says where it came from: the manifest's provenance, else a
  // site's when the file launches the kernel, else free.
  std::string provenance =
      json["search"].value("provenance", sites.empty() ? std::string("free") : std::string(""));
  for (const detect::Finding &finding : analysis->findings) {
    if (!provenance.empty()) {
      EXPECT_EQ(detect::provenanceName(finding.launch.provenance), provenance) << c.manifest.name;
    } else {
      EXPECT_NE(finding.launch.provenance, detect::Provenance::Free) << c.manifest.name;
    }
    EXPECT_EQ(finding.launch.provenance, analysis->provenance) << c.manifest.name;
  }
  if (!provenance.empty() && analysis->counts.simulated()) {
    EXPECT_EQ(detect::provenanceName(analysis->provenance), provenance) << c.manifest.name;
  }

  std::set<Label> expected = expectedLabels(json);
  std::set<Label> actual = actualLabels(program, analysis->findings);
  // Notes the manifest says launches outside the conventions may show
  // ("unconventional-data-race"): conditions the caller guarantees, no bug.
  std::set<std::string> notes;
  for (const nlohmann::json &kind : json["search"].value("notes", nlohmann::json::array()))
    notes.insert(kind.get<std::string>());
  std::erase_if(actual, [&](const Label &label) {
    return notes.count(label.first) && label.first.starts_with("unconventional-");
  });
  std::string verdict = expectedVerdict(json, json["search"]);
  // Every finding of a site's search names that site.
  for (const detect::Finding &finding : analysis->findings)
    EXPECT_EQ(finding.launch.origin.has_value(), !sites.empty()) << c.manifest.name;
  EXPECT_EQ(verdict, detect::verdictName(analysis->verdict))
      << c.manifest.name << " seed " << c.seed << ": " << analysis->counts.judged
      << " launches judged, skipped: " << detect::skippedReasons(analysis->counts);
  if (verdict == "inconclusive" || verdict == "not launched") {
    // Nothing judged, so nothing may be said.
    EXPECT_TRUE(analysis->findings.empty()) << describe(actual);
    return;
  }
  if (expected.empty()) {
    EXPECT_TRUE(actual.empty()) << c.manifest.name << " seed " << c.seed
                                << ": false alarm on a race-free kernel:\n"
                                << describe(actual);
    return;
  }
  // Every labeled bug must be found. A redundant-barrier verdict depends on
  // the launches simulated (a barrier needed only for large blocks), so only
  // the bug kinds that a single launch proves are required here.
  for (const Label &label : expected) {
    if (label.first == "redundant-barrier")
      continue;
    EXPECT_TRUE(actual.count(label)) << c.manifest.name << " seed " << c.seed << ": missed "
                                     << describe({label}) << "found:\n"
                                     << describe(actual);
  }
  // And no finding of a kind the labeled launch does not have, except the
  // kinds the manifest says other launches show too ("alsoFinds").
  std::set<std::string> alsoFinds;
  for (const nlohmann::json &kind : json["search"].value("alsoFinds", nlohmann::json::array()))
    alsoFinds.insert(kind.get<std::string>());
  for (const Label &label : actual) {
    bool kindExpected = alsoFinds.count(label.first) ||
                        std::any_of(expected.begin(), expected.end(),
                                    [&](const Label &e) { return e.first == label.first; });
    EXPECT_TRUE(kindExpected || label.first == "redundant-barrier")
        << c.manifest.name << " seed " << c.seed << ": unexpected " << describe({label});
  }
}

std::string caseName(const ::testing::TestParamInfo<SearchCase> &info) {
  std::string name = info.param.manifest.name;
  for (char &ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return name + "_seed" + std::to_string(info.param.seed);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusSearch, ::testing::ValuesIn(searchCases()), caseName);

TEST(CorpusSearchCoverage, AtLeastTenSettingDependentBugsAndAllRaceFreeKernels) {
  size_t racy = 0, clean = 0;
  for (const Manifest &m : loadManifests()) {
    if (!m.json.contains("search") || !m.json["search"].value("expectFound", false))
      continue;
    (expectsBugs(m.json) ? racy : clean)++;
  }
  EXPECT_GE(racy, 10u);
  EXPECT_GE(clean, 20u);
}

TEST(CorpusSearchCoverage, EveryRaceFreeKernelIsSearched) {
  for (const Manifest &m : loadManifests()) {
    if (expectsBugs(m.json))
      continue;
    EXPECT_TRUE(m.json.contains("search") && m.json["search"].value("expectFound", false))
        << m.name << ": a race-free kernel must stay clean under the search";
  }
}

} // namespace
