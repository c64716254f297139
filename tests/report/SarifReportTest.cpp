#include "ReportFixture.h"

#include "report/FindingRules.h"
#include "report/SarifReport.h"

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

namespace simulee::report::testing {
namespace {

using Json = nlohmann::json;

bool isValidLevel(const Json &level) {
  return level == "none" || level == "note" || level == "warning" || level == "error";
}

// The parts of SARIF 2.1.0 that GitHub code scanning requires of a physical
// location: an artifact URI and, when there is a region, lines from 1.
void expectValidLocation(const Json &location) {
  ASSERT_TRUE(location.contains("physicalLocation")) << location;
  const Json &physical = location["physicalLocation"];
  ASSERT_TRUE(physical["artifactLocation"]["uri"].is_string()) << location;
  EXPECT_FALSE(physical["artifactLocation"]["uri"].get<std::string>().empty());
  if (physical.contains("region")) {
    EXPECT_GE(physical["region"]["startLine"].get<int>(), 1) << location;
    if (physical["region"].contains("startColumn")) {
      EXPECT_GE(physical["region"]["startColumn"].get<int>(), 1) << location;
    }
  }
}

class SarifReport : public ReportFixture {
protected:
  Json sarifOf(const ReportInput &input) const {
    std::ostringstream out;
    ReportOptions options;
    options.sourceRoot = directory;
    writeReport(out, Format::Sarif, input, options);
    return Json::parse(out.str());
  }

  std::vector<detect::Finding> everyKind() const {
    return {race(), barrierFinding(detect::FindingKind::RedundantBarrier), divergence(),
            outOfBounds(), barrierFinding(detect::FindingKind::UnreachedBarrier)};
  }
};

TEST_F(SarifReport, HasTheRequiredTopLevelStructure) {
  Json log = sarifOf(input({race()}));
  EXPECT_EQ(log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  EXPECT_EQ(log["version"], "2.1.0");
  ASSERT_EQ(log["runs"].size(), 1u);
  const Json &driver = log["runs"][0]["tool"]["driver"];
  EXPECT_EQ(driver["name"], "simulee");
  EXPECT_FALSE(driver.contains("informationUri")); // optional; no public home page yet
  EXPECT_TRUE(driver["version"].is_string());
  EXPECT_TRUE(log["runs"][0]["results"].is_array());
}

TEST_F(SarifReport, HasOneRuleWithDescriptionsPerKind) {
  Json rules = sarifOf(input({}))["runs"][0]["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), findingRules().size());
  std::set<std::string> ids;
  for (const Json &rule : rules) {
    ids.insert(rule["id"].get<std::string>());
    EXPECT_FALSE(rule["shortDescription"]["text"].get<std::string>().empty());
    EXPECT_FALSE(rule["fullDescription"]["text"].get<std::string>().empty());
    EXPECT_FALSE(rule["help"]["text"].get<std::string>().empty());
    EXPECT_TRUE(isValidLevel(rule["defaultConfiguration"]["level"])) << rule;
    EXPECT_TRUE(rule["properties"]["tags"].is_array());
  }
  EXPECT_EQ(ids, (std::set<std::string>{"data-race", "redundant-barrier", "barrier-divergence",
                                        "out-of-bounds", "unreached-barrier",
                                        "uninitialized-read", "undefined-behavior",
                                        "assertion-failed", "atomicity-violation"}));
}

TEST_F(SarifReport, ResultsReferToTheirRuleAndHaveValidLocations) {
  Json run = sarifOf(input(everyKind()))["runs"][0];
  const Json &rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(run["results"].size(), 5u);
  for (const Json &result : run["results"]) {
    size_t index = result["ruleIndex"];
    ASSERT_LT(index, rules.size());
    EXPECT_EQ(rules[index]["id"], result["ruleId"]);
    EXPECT_TRUE(isValidLevel(result["level"]));
    EXPECT_EQ(result["level"], rules[index]["defaultConfiguration"]["level"]);
    EXPECT_FALSE(result["message"]["text"].get<std::string>().empty());
    ASSERT_EQ(result["locations"].size(), 1u);
    expectValidLocation(result["locations"][0]);
    EXPECT_FALSE(result["partialFingerprints"].empty());
  }
  EXPECT_EQ(run["results"][4]["level"], "note");
}

TEST_F(SarifReport, PrimaryLocationIsRelativeToTheSourceRoot) {
  Json result = sarifOf(input({race()}))["runs"][0]["results"][0];
  const Json &physical = result["locations"][0]["physicalLocation"];
  EXPECT_EQ(physical["artifactLocation"]["uri"], "kernel.cu");
  EXPECT_EQ(physical["artifactLocation"]["uriBaseId"], "%SRCROOT%");
  EXPECT_EQ(physical["region"]["startLine"], 14);
  EXPECT_EQ(physical["region"]["startColumn"], 23);
}

TEST_F(SarifReport, OtherAccessIsARelatedLocationWithIdAndMessage) {
  Json result = sarifOf(input({race()}))["runs"][0]["results"][0];
  ASSERT_EQ(result["relatedLocations"].size(), 1u);
  const Json &related = result["relatedLocations"][0];
  EXPECT_EQ(related["id"], 1);
  EXPECT_EQ(related["message"]["text"], "read by thread (69,0,0) block (0,0,0)");
  expectValidLocation(related);
  EXPECT_EQ(related["physicalLocation"]["region"]["startColumn"], 20);
}

TEST_F(SarifReport, FingerprintIsStableAndDependsOnKindAndLines) {
  auto fingerprintOf = [&](const detect::Finding &finding) {
    return sarifOf(input({finding}))["runs"][0]["results"][0]["partialFingerprints"];
  };
  EXPECT_EQ(fingerprintOf(race()), fingerprintOf(race()));
  detect::Finding otherThreads = race();
  otherThreads.sites[1].thread = 100;
  EXPECT_EQ(fingerprintOf(race()), fingerprintOf(otherThreads));
  EXPECT_NE(fingerprintOf(barrierFinding(detect::FindingKind::RedundantBarrier)),
            fingerprintOf(barrierFinding(detect::FindingKind::UnreachedBarrier)));
  Json before = fingerprintOf(race());
  program.instructions[kLoad].location.line = 15;
  EXPECT_NE(before, fingerprintOf(race()));
}

TEST_F(SarifReport, FileOutsideTheRootGetsAnAbsoluteFileUri) {
  program.instructions[kStore].location = {"/elsewhere/k.cu", "", 3, 1};
  Json location = sarifOf(input({race()}))["runs"][0]["results"][0]["locations"][0];
  const Json &artifact = location["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(artifact["uri"], "file:///elsewhere/k.cu");
  EXPECT_FALSE(artifact.contains("uriBaseId"));
}

TEST_F(SarifReport, WithoutDebugInfoPointsAtTheProgramAndNamesTheFunction) {
  program.instructions[kStore].location = {};
  Json location = sarifOf(input({race()}))["runs"][0]["results"][0]["locations"][0];
  expectValidLocation(location);
  EXPECT_EQ(location["physicalLocation"]["artifactLocation"]["uri"], "kernel.cu");
  EXPECT_FALSE(location["physicalLocation"].contains("region"));
  EXPECT_EQ(location["logicalLocations"][0]["name"], "reduce");
  EXPECT_EQ(location["logicalLocations"][0]["kind"], "function");
}

TEST(SarifArtifactUri, EncodesCharactersOutsideTheUnreservedSet) {
  ArtifactUri artifact = artifactUri("/src/my kernels/a#b.cu", "/src");
  EXPECT_EQ(artifact.uri, "my%20kernels/a%23b.cu");
  EXPECT_TRUE(artifact.relativeToRoot);
  EXPECT_FALSE(artifactUri("/other/a.cu", "/src").relativeToRoot);
}

} // namespace
} // namespace simulee::report::testing
