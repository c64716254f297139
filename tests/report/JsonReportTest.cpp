#include "ReportFixture.h"

#include "report/JsonReport.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace simulee::report::testing {
namespace {

using Json = nlohmann::json;

Json jsonOf(const ReportInput &input) {
  std::ostringstream out;
  writeReport(out, Format::Json, input);
  return Json::parse(out.str()); // must be one valid document
}

using JsonReport = ReportFixture;

TEST_F(JsonReport, DocumentNamesToolFileAndKernel) {
  Json document = jsonOf(input({race()}));
  EXPECT_EQ(document["tool"], "simulee");
  EXPECT_EQ(document["version"], kToolVersion);
  EXPECT_EQ(document["file"], program.path);
  EXPECT_EQ(document["kernel"], "reduce");
  EXPECT_EQ(document["findings"].size(), 1u);
}

TEST_F(JsonReport, RaceCarriesKindSpaceVariableAndAddress) {
  Json finding = jsonOf(input({race()}))["findings"][0];
  EXPECT_EQ(finding["kind"], "data-race");
  EXPECT_EQ(finding["severity"], "warning");
  EXPECT_EQ(finding["space"], "shared");
  EXPECT_EQ(finding["variable"], "partial");
  EXPECT_EQ(finding["address"], (Json{{"variable", "partial"}, {"offset", 20}}));
  EXPECT_EQ(finding["kernel"], "reduce");
}

TEST_F(JsonReport, AccessesCarrySourceLocationActionThreadAndBlock) {
  detect::Finding race3d = race();
  race3d.launch.block = {16, 16, 1};
  race3d.sites[1].thread = 17;
  Json accesses = jsonOf(input({race3d}))["findings"][0]["accesses"];
  ASSERT_EQ(accesses.size(), 2u);
  EXPECT_EQ(accesses[0]["file"], "kernel.cu");
  EXPECT_EQ(accesses[0]["line"], 14);
  EXPECT_EQ(accesses[0]["column"], 23);
  EXPECT_EQ(accesses[0]["action"], "write");
  EXPECT_EQ(accesses[0]["thread"], (Json{5, 0, 0}));
  EXPECT_EQ(accesses[0]["block"], (Json{0, 0, 0}));
  EXPECT_EQ(accesses[0]["function"], "reduce");
  EXPECT_TRUE(accesses[0]["instruction"].is_string());
  EXPECT_EQ(accesses[1]["column"], 20);
  EXPECT_EQ(accesses[1]["action"], "read");
  EXPECT_EQ(accesses[1]["thread"], (Json{1, 1, 0}));
}

TEST_F(JsonReport, LaunchCarriesGridBlockSharedBytesAndArguments) {
  Json launch = jsonOf(input({race()}))["findings"][0]["launch"];
  EXPECT_EQ(launch["grid"], (Json{1, 1, 1}));
  EXPECT_EQ(launch["block"], (Json{256, 1, 1}));
  EXPECT_EQ(launch["sharedBytes"], 0);
  EXPECT_EQ(launch["arguments"], (Json{{"n", "1000"}, {"in", "random:1000"}}));
}

TEST_F(JsonReport, BarrierAndExitSitesAreNamedByWhatTheyAre) {
  Json finding = jsonOf(input({divergence()}))["findings"][0];
  EXPECT_EQ(finding["kind"], "barrier-divergence");
  EXPECT_FALSE(finding.contains("address"));
  EXPECT_EQ(finding["accesses"][0]["action"], "barrier");
  EXPECT_EQ(finding["accesses"][0]["line"], 16);
  EXPECT_EQ(finding["accesses"][1]["action"], "exit");
  EXPECT_EQ(finding["accesses"][1]["thread"], (Json{40, 0, 0}));
}

TEST_F(JsonReport, EveryKindHasItsName) {
  Json findings = jsonOf(
      input({race(), barrierFinding(detect::FindingKind::RedundantBarrier), divergence(),
             outOfBounds(), barrierFinding(detect::FindingKind::UnreachedBarrier)}))["findings"];
  std::vector<std::string> kinds;
  for (const Json &finding : findings)
    kinds.push_back(finding["kind"]);
  EXPECT_EQ(kinds, (std::vector<std::string>{"data-race", "redundant-barrier", "barrier-divergence",
                                             "out-of-bounds", "unreached-barrier"}));
  EXPECT_EQ(findings[4]["severity"], "note");
}

TEST_F(JsonReport, UnknownLocationHasNullLineAndKeepsFunction) {
  program.instructions[kStore].location = {};
  Json access = jsonOf(input({race()}))["findings"][0]["accesses"][0];
  EXPECT_TRUE(access["file"].is_null());
  EXPECT_TRUE(access["line"].is_null());
  EXPECT_EQ(access["function"], "reduce");
}

TEST_F(JsonReport, SummaryCountsPerKind) {
  Json summary = jsonOf(
      input({race(), race(), barrierFinding(detect::FindingKind::UnreachedBarrier)}))["summary"];
  EXPECT_EQ(summary["findings"], 3);
  EXPECT_EQ(summary["warnings"], 2);
  EXPECT_EQ(summary["notes"], 1);
  EXPECT_EQ(summary["byKind"]["data-race"], 2);
  EXPECT_EQ(summary["byKind"]["unreached-barrier"], 1);
  EXPECT_EQ(summary["byKind"]["out-of-bounds"], 0);
}

TEST_F(JsonReport, SeveralKernelsAreListedAndEachFindingNamesItsKernel) {
  ReportInput both = input({race()});
  both.kernels.push_back(KernelFindings{&program, "scan", {outOfBounds()}});
  Json document = jsonOf(both);
  EXPECT_TRUE(document["kernel"].is_null());
  EXPECT_EQ(document["file"], program.path);
  ASSERT_EQ(document["kernels"].size(), 2u);
  EXPECT_EQ(document["kernels"][1]["kernel"], "scan");
  EXPECT_EQ(document["kernels"][1]["findings"], 1);
  EXPECT_EQ(document["findings"][1]["kernel"], "scan");
}

TEST_F(JsonReport, NoFindingsIsAnEmptyListAndZeroSummary) {
  Json document = jsonOf(input({}));
  EXPECT_TRUE(document["findings"].is_array());
  EXPECT_TRUE(document["findings"].empty());
  EXPECT_EQ(document["summary"]["findings"], 0);
}

} // namespace
} // namespace simulee::report::testing
