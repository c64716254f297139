// Repair proposals proven by re-simulation (session/Repair.h), on corpus
// kernels at their labeled launches: the proven repair of each finding, and
// none where no proposal removes the finding without a new one.
#include "CorpusSupport.h"
#include "ir/ProgramEdit.h"
#include "session/Repair.h"
#include "session/SiteSearch.h"

#include <gtest/gtest.h>

#include <fstream>
#include <tuple>

using namespace simulee;
using namespace simulee::corpus_test;

namespace {

struct Repaired {
  const ir::Program *program = nullptr;
  std::vector<detect::Finding> findings;
};

Repaired repairedLabeledLaunch(const std::string &name) {
  std::ifstream in(corpusDir() / (name + ".json"));
  nlohmann::json json = nlohmann::json::parse(in);
  std::string file = json.value("file", name.substr(0, name.find('.')) + ".cu");
  const ir::Program &program = programFor((corpusDir() / file).string());
  const ir::KernelInfo *kernel = program.findKernel(json["kernel"].get<std::string>());
  EXPECT_NE(kernel, nullptr) << name;
  if (!kernel)
    return {};
  session::LaunchSpec spec = labeledLaunchOf(json);
  session::AnalysisOptions options;
  options.independentThreads = !json.value("lockstep", false);
  Result<session::KernelAnalysis> analysis = session::analyzeLaunch(program, *kernel, spec, options);
  EXPECT_TRUE(analysis.ok()) << name;
  if (!analysis)
    return {};
  session::proveRepairs(program, *kernel, *analysis, options);
  return {&program, analysis->findings};
}

// The kinds of the proven repairs of the findings of `kind`.
std::vector<std::string> repairKinds(const Repaired &repaired, detect::FindingKind kind) {
  std::vector<std::string> kinds;
  for (const detect::Finding &finding : repaired.findings)
    if (finding.kind == kind)
      for (const detect::Repair &repair : finding.repairs) {
        kinds.push_back(repair.kind);
        EXPECT_FALSE(repair.launches.empty()) << repair.description;
      }
  return kinds;
}

TEST(Repair, AMissingLoopBarrierIsInsertedAtTheLoopEnd) {
  Repaired repaired = repairedLabeledLaunch("reduce_missing_loop_barrier");
  std::vector<std::string> kinds = repairKinds(repaired, detect::FindingKind::DataRace);
  ASSERT_FALSE(kinds.empty());
  for (const std::string &kind : kinds)
    EXPECT_EQ(kind, "insert-barrier-in-loop");
}

TEST(Repair, ANonAtomicIncrementBecomesOneAtomicAdd) {
  Repaired repaired = repairedLabeledLaunch("histogram_nonatomic");
  std::vector<std::string> kinds = repairKinds(repaired, detect::FindingKind::DataRace);
  ASSERT_FALSE(kinds.empty());
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "fuse-read-modify-write"), kinds.end());
  for (const detect::Finding &finding : repaired.findings) {
    for (const detect::Repair &repair : finding.repairs) {
      if (repair.kind == "fuse-read-modify-write") {
        EXPECT_NE(repair.description.find("atomicAdd"), std::string::npos) << repair.description;
      }
    }
  }
}

TEST(Repair, ALostUpdateBecomesOneAtomicAdd) {
  Repaired repaired = repairedLabeledLaunch("atomicity_lost_update");
  EXPECT_EQ(repairKinds(repaired, detect::FindingKind::AtomicityViolation),
            std::vector<std::string>{"fuse-read-modify-write"});
}

TEST(Repair, ARedundantBarrierIsRemoved) {
  Repaired repaired = repairedLabeledLaunch("redundant_trailing_barrier");
  EXPECT_EQ(repairKinds(repaired, detect::FindingKind::RedundantBarrier),
            std::vector<std::string>{"remove-barrier"});
}

TEST(Repair, ACheckThenActBecomesACompareAndSwapLoop) {
  Repaired repaired = repairedLabeledLaunch("atomicity_check_then_act");
  EXPECT_EQ(repairKinds(repaired, detect::FindingKind::AtomicityViolation),
            std::vector<std::string>{"compare-and-swap-loop"});
  for (const detect::Finding &finding : repaired.findings)
    for (const detect::Repair &repair : finding.repairs) {
      // Both lines of the pair are rewritten.
      ASSERT_EQ(repair.replaced.size(), 2u);
      EXPECT_EQ(repair.replaced[0].line, 10u);
      EXPECT_EQ(repair.replaced[1].line, 11u);
    }
}

TEST(Repair, ARacingRunningMaximumBecomesACompareAndSwapLoop) {
  // A plain read, a comparison and a plain write: no single atomic does it
  // for floats, and a barrier leaves the writes racing.
  Repaired repaired = repairedLabeledLaunch("race_running_max");
  std::vector<std::string> kinds = repairKinds(repaired, detect::FindingKind::DataRace);
  ASSERT_EQ(kinds.size(), 2u);
  for (const std::string &kind : kinds)
    EXPECT_EQ(kind, "compare-and-swap-loop");
}

TEST(Repair, NoneIsShownWhereNoEditRemovesTheFinding) {
  // Checked, then read again; and a sentinel put back from what was taken:
  // each needs the code to keep a value, which no edit of one access does.
  for (const char *name : {"atomicity_reread", "atomicity_exposed_sentinel"}) {
    Repaired repaired = repairedLabeledLaunch(name);
    ASSERT_FALSE(repaired.findings.empty()) << name;
    EXPECT_TRUE(repairKinds(repaired, detect::FindingKind::AtomicityViolation).empty()) << name;
  }
}

TEST(Repair, AnEditThatBreaksTheKernelIsRefutedByTheRerun) {
  // A barrier inside the branch only some threads take diverges: inserting
  // __syncthreads() just before the guarded access is never proven.
  Repaired repaired = repairedLabeledLaunch("reduce_missing_loop_barrier");
  for (const detect::Finding &finding : repaired.findings)
    for (const detect::Repair &repair : finding.repairs)
      EXPECT_NE(repair.kind, "insert-barrier") << repair.description;
}

// Each proposal kind on a kernel of its own, as `simulee FILE --repair`
// searches it, for five seeds: the finding the search reports has the
// repair, proven on the launches the search found.
struct SearchedRepair {
  const char *source;
  const char *kernel;
  detect::FindingKind kind;
  const char *repair;
};

class RepairAfterSearch
    : public ::testing::TestWithParam<std::tuple<SearchedRepair, uint64_t>> {};

TEST_P(RepairAfterSearch, TheSearchedFindingHasItsProvenRepair) {
  auto [expected, seed] = GetParam();
  std::string source = (corpusDir() / expected.source).string();
  const ir::Program &program = programFor(source);
  const ir::KernelInfo *kernel = program.findKernel(expected.kernel);
  ASSERT_NE(kernel, nullptr);
  session::SearchSettings settings;
  settings.search.seed = seed;
  settings.search.jobs = 2;
  session::AnalysisOptions options;
  Result<session::KernelAnalysis> analysis = session::analyzeKernel(
      program, *kernel, session::launchSourceOf(program, *kernel, hostCodeFor(source)), {},
      settings, options);
  ASSERT_TRUE(analysis.ok()) << analysis.error().message;
  session::proveRepairs(program, *kernel, *analysis, options);
  Repaired repaired{&program, analysis->findings};
  std::vector<std::string> kinds = repairKinds(repaired, expected.kind);
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), expected.repair), kinds.end())
      << expected.kernel << " seed " << seed << ": " << kinds.size() << " repairs";
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, RepairAfterSearch,
    ::testing::Combine(
        ::testing::Values(
            SearchedRepair{"stencil1d_nosync.cu", "stencil1d_nosync", detect::FindingKind::DataRace,
                           "insert-barrier"},
            SearchedRepair{"reduce_missing_loop_barrier.cu", "reduce_missing_loop_barrier",
                           detect::FindingKind::DataRace, "insert-barrier-in-loop"},
            SearchedRepair{"histogram_nonatomic.cu", "histogram_nonatomic",
                           detect::FindingKind::DataRace, "fuse-read-modify-write"},
            SearchedRepair{"atomic_mixed_plain.cu", "atomic_mixed_plain",
                           detect::FindingKind::DataRace, "make-atomic"},
            SearchedRepair{"atomicity_lost_update.cu", "total_read_then_write",
                           detect::FindingKind::AtomicityViolation, "fuse-read-modify-write"},
            SearchedRepair{"atomicity_check_then_act.cu", "grant_checked",
                           detect::FindingKind::AtomicityViolation, "compare-and-swap-loop"},
            SearchedRepair{"race_running_max.cu", "largest_plain", detect::FindingKind::DataRace,
                           "compare-and-swap-loop"},
            SearchedRepair{"redundant_trailing_barrier.cu", "redundant_trailing_barrier",
                           detect::FindingKind::RedundantBarrier, "remove-barrier"}),
        ::testing::Values(1, 2, 3, 4, 5)),
    [](const ::testing::TestParamInfo<std::tuple<SearchedRepair, uint64_t>> &info) {
      return std::string(std::get<0>(info.param).kernel) + "_seed" +
             std::to_string(std::get<1>(info.param));
    });

TEST(Repair, TheEditedCopyLeavesTheProgramAsItWas) {
  const ir::Program &program = programFor((corpusDir() / "atomicity_lost_update.cu").string());
  size_t before = program.instructions.size();
  const ir::KernelInfo *kernel = program.findKernel("total_read_then_write");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(kernel->atomicUnits.size(), 1u);
  ir::ProgramEdit edit{ir::EditKind::FuseReadModifyWrite, kernel->atomicUnits[0].first,
                       kernel->atomicUnits[0].second};
  Result<ir::Program> edited = ir::applyEdit(program, edit);
  ASSERT_TRUE(edited.ok()) << edited.error().message;
  EXPECT_TRUE(edited->findKernel("total_read_then_write")->atomicUnits.empty());
  EXPECT_EQ(program.instructions.size(), before);
  EXPECT_EQ(kernel->atomicUnits.size(), 1u);
  // An edit of the wrong shape does not apply.
  EXPECT_FALSE(ir::applyEdit(program, {ir::EditKind::RemoveBarrier, kernel->atomicUnits[0].first}).ok());
}

} // namespace
