// Every corpus kernel's labeled launch must produce exactly its expected
// findings, with the full tuple log and with the compact summary, and with
// every access kept (--all-blocks) as without: a missed finding and a false
// alarm both fail.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

using namespace simulee;
using namespace simulee::corpus_test;

namespace {

struct Case {
  Manifest manifest;
  memmodel::Representation representation;
  bool allBlocks = false;
};

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (const Manifest &m : loadManifests()) {
    for (auto r : {memmodel::Representation::Full, memmodel::Representation::Summary})
      cases.push_back({m, r});
    cases.push_back({m, memmodel::Representation::Summary, /*allBlocks=*/true});
  }
  return cases;
}

void PrintTo(const Case &c, std::ostream *os) { *os << c.manifest.name; }

class CorpusLaunch : public ::testing::TestWithParam<Case> {};

TEST_P(CorpusLaunch, FindsExactlyTheLabeledFindings) {
  const Case &c = GetParam();
  const nlohmann::json &json = c.manifest.json;
  const ir::Program &program = programFor(c.manifest.source, c.manifest.links);
  const ir::KernelInfo *kernel = program.findKernel(json["kernel"].get<std::string>());
  ASSERT_NE(kernel, nullptr) << "no kernel " << json["kernel"];

  session::LaunchSpec spec = labeledLaunchOf(json);
  session::AnalysisOptions options;
  options.representation = c.representation;
  options.allBlocks = c.allBlocks;
  options.independentThreads = !json.value("lockstep", false);

  Result<session::KernelAnalysis> analysis = session::analyzeLaunch(program, *kernel, spec, options);
  ASSERT_TRUE(analysis.ok()) << analysis.error().message;
  std::set<Label> expected = expectedLabels(json);
  std::set<Label> actual = actualLabels(program, analysis->findings);
  EXPECT_EQ(expectedVerdict(json, json), detect::verdictName(analysis->verdict))
      << c.manifest.name << ": " << analysis->firstLaunchError;
  EXPECT_EQ(expected, actual) << c.manifest.name << " (" << json.value("description", "")
                              << ")\nexpected:\n"
                              << describe(expected) << "actual:\n"
                              << describe(actual);
  // "notes": what the analysis must say it assumed (each a part of one note).
  for (const std::string &part : json.value("notes", std::vector<std::string>{})) {
    bool found = false;
    for (const std::string &note : kernel->notes)
      found = found || note.find(part) != std::string::npos;
    EXPECT_TRUE(found) << c.manifest.name << ": no note with '" << part << "'";
  }
}

std::string caseName(const ::testing::TestParamInfo<Case> &info) {
  std::string name = info.param.manifest.name;
  for (char &ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return name + (info.param.representation == memmodel::Representation::Full ? "_full"
                                                                               : "_summary") +
         (info.param.allBlocks ? "_all_blocks" : "");
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusLaunch, ::testing::ValuesIn(allCases()), caseName);

TEST(Corpus, HasAtLeastFortyKernelsAndAsManyRaceFreeAsRacy) {
  size_t racy = 0, clean = 0;
  for (const Manifest &m : loadManifests())
    (expectsBugs(m.json) ? racy : clean)++;
  EXPECT_GE(racy + clean, 40u);
  EXPECT_GE(clean, racy);
}

} // namespace
