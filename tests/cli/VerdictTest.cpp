// Issue 7 end to end: every kernel gets a verdict (clean with launches
// judged, findings, inconclusive, error) in text (also under --quiet), JSON,
// SARIF and the scan table, and the exit status follows it; options work
// wherever they stand; --lockstep and --strict change what they promise.
#include "CliSupport.h"

namespace simulee::cli_test {
namespace {

// tile_past_end breaks its static tile in every launch: nothing is judged.
std::vector<std::string> unjudgeable(std::vector<std::string> extra = {}) {
  std::vector<std::string> args{corpus("tile_past_end.cu"), "--quiet", "--jobs", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(CliVerdict, KernelWithNoJudgedLaunchIsInconclusiveNotClean) {
  Outcome o = simulee(unjudgeable());
  EXPECT_EQ(o.status, 3) << o;
  // --quiet hides progress and notes, never the verdict.
  EXPECT_TRUE(contains(o.out, "kernel 'tile_past_end': inconclusive: no launch could be judged"))
      << o;
  EXPECT_TRUE(contains(o.out, "out of bounds")) << o;
  EXPECT_FALSE(contains(o.out, "clean")) << o;
}

TEST(CliVerdict, JsonCarriesVerdictAndLaunchCounts) {
  Outcome o = simulee(unjudgeable({"--format", "json"}));
  EXPECT_EQ(o.status, 3) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o;
  EXPECT_EQ(report["verdict"], "inconclusive");
  ASSERT_EQ(report["kernels"].size(), 1u) << o;
  const nlohmann::json &kernel = report["kernels"][0];
  EXPECT_EQ(kernel["verdict"], "inconclusive");
  EXPECT_EQ(kernel["launches"]["judged"], 0);
  EXPECT_GT(kernel["launches"]["outOfBounds"].get<int>(), 0);
  EXPECT_TRUE(report["findings"].empty()) << o;
}

TEST(CliVerdict, SarifReportsUnjudgedKernelsAsNotifications) {
  Outcome o = simulee(unjudgeable({"--format", "sarif"}));
  EXPECT_EQ(o.status, 3) << o;
  nlohmann::json sarif = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(sarif.is_discarded()) << o;
  const nlohmann::json &invocation = sarif["runs"][0]["invocations"][0];
  ASSERT_EQ(invocation["toolExecutionNotifications"].size(), 1u) << o;
  const nlohmann::json &notification = invocation["toolExecutionNotifications"][0];
  EXPECT_EQ(notification["descriptor"]["id"], "inconclusive");
  EXPECT_TRUE(contains(notification["message"]["text"].get<std::string>(), "tile_past_end"));
}

TEST(CliVerdict, CleanKernelSaysHowManyLaunchesWereJudged) {
  Outcome o = simulee({corpus("reverse_shared.cu"), "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'reverse_shared': clean (")) << o;
  EXPECT_TRUE(contains(o.out, "launches judged")) << o;
}

TEST(CliVerdict, FileThatDoesNotCompileIsAnErrorInJsonToo) {
  std::string path = input("syntax_error.cu");
  Outcome o = simulee({path, "--format", "json", "--quiet"});
  EXPECT_TRUE(isOneLineError(o, {path}));
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o;
  EXPECT_EQ(report["verdict"], "error");
  ASSERT_EQ(report["kernels"].size(), 1u) << o;
  EXPECT_EQ(report["kernels"][0]["verdict"], "error");
  EXPECT_FALSE(report["kernels"][0]["cause"].get<std::string>().empty()) << o;
}

TEST(CliScan, BrokenFileIsListedWithItsCauseAndTheExitIsNotClean) {
  TempDir dir;
  fs::copy_file(corpus("reverse_shared.cu"), dir.file("reverse_shared.cu"));
  fs::copy_file(input("syntax_error.cu"), dir.file("syntax_error.cu"));
  Outcome o = simulee({"scan", dir.path(), "--format", "json", "--quiet"});
  // One clean kernel, one file in error, nothing found: exit 3.
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.err, "syntax_error.cu")) << o;
  EXPECT_TRUE(contains(o.err, "error: ")) << o;
  EXPECT_TRUE(contains(o.err, "clean (")) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o;
  std::map<std::string, std::string> verdicts;
  for (const nlohmann::json &kernel : report["kernels"])
    verdicts[fs::path(kernel["file"].get<std::string>()).filename().string()] = kernel["verdict"];
  EXPECT_EQ(verdicts["reverse_shared.cu"], "clean") << o;
  EXPECT_EQ(verdicts["syntax_error.cu"], "error") << o;
}

TEST(CliScan, EveryFileBrokenIsAnError) {
  TempDir dir;
  fs::copy_file(input("syntax_error.cu"), dir.file("syntax_error.cu"));
  fs::copy_file(input("garbage.ll"), dir.file("garbage.ll"));
  Outcome o = simulee({"scan", dir.path(), "--quiet"});
  EXPECT_EQ(o.status, 2) << o;
  EXPECT_TRUE(contains(o.out, "error")) << o;
}

TEST(CliScan, IncludedCudaFileIsAnalysedOnceWithItsIncluder) {
  TempDir dir;
  for (const char *name : {"includes_helper.cu", "included_helper.cu"})
    fs::copy_file(input(name), dir.file(name));
  Outcome o = simulee({"scan", dir.path(), "--format", "json", "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o;
  size_t helpers = 0;
  for (const nlohmann::json &kernel : report["kernels"]) {
    EXPECT_TRUE(contains(kernel["file"].get<std::string>(), "includes_helper.cu")) << kernel;
    helpers += kernel["kernel"] == "helper";
  }
  EXPECT_EQ(helpers, 1u) << o;
}

// -I and -D before or after the command and the file.
TEST(CliOptions, IncludeAndDefineWorkAnywhere) {
  std::string file = input("needs_include.cu");
  std::string dir = input("include");
  std::vector<std::vector<std::string>> orders = {
      {"-I", dir, "-D", "SCALE=2", file, "--quiet"},
      {file, "-I", dir, "-D", "SCALE=2", "--quiet"},
      {"run", "-I", dir, file, "-D", "SCALE=2"},
      {"-I", dir, "-D", "SCALE=2", "run", file},
      {"list", "-D", "SCALE=2", "-I", dir, file},
  };
  for (const std::vector<std::string> &args : orders) {
    Outcome o = simulee(args);
    EXPECT_EQ(o.status, 0) << o;
    EXPECT_TRUE(contains(o.out, "scaled")) << o;
  }
  // Without them the file does not compile: the options were really used.
  EXPECT_EQ(simulee({"list", file}).status, 2);
}

TEST(CliSemantics, WarpSynchronousRaceIsReportedByDefaultAndNotUnderLockstep) {
  std::vector<std::string> launch{"run",  corpus("warp_sync_reduce.cu"), "--grid", "2",
                                  "--block", "128", "--arg", "n=256"};
  Outcome byDefault = simulee(launch);
  EXPECT_EQ(byDefault.status, 1) << byDefault;
  EXPECT_TRUE(contains(byDefault.out, "warp-synchronous: safe only on pre-Volta lockstep warps"))
      << byDefault;
  // The unrolled tail's six steps race pairwise: one warning, for the
  // sequence, not twenty.
  EXPECT_TRUE(contains(byDefault.out, "20 pairs of lines race so, within lines 18-23 of "))
      << byDefault;
  EXPECT_TRUE(contains(byDefault.out, "\n1 warning (1 data-race)")) << byDefault;
  launch.push_back("--lockstep");
  Outcome lockstep = simulee(launch);
  EXPECT_EQ(lockstep.status, 0) << lockstep;
  // The old flag is accepted and means the default.
  launch.back() = "--independent-threads";
  EXPECT_EQ(simulee(launch).status, 1);
}

TEST(CliSemantics, SameValueRaceIsANoteUnlessStrict) {
  std::vector<std::string> launch{"run",  corpus("same_value_flag.cu"), "--grid", "2",
                                  "--block", "128", "--arg", "n=256", "--format", "json"};
  Outcome lenient = simulee(launch);
  EXPECT_EQ(lenient.status, 0) << lenient;
  nlohmann::json report = nlohmann::json::parse(lenient.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << lenient;
  ASSERT_EQ(report["findings"].size(), 1u) << lenient;
  EXPECT_EQ(report["findings"][0]["benign"], "same-value");
  EXPECT_EQ(report["findings"][0]["severity"], "note");
  EXPECT_EQ(report["verdict"], "clean");
  launch.push_back("--strict");
  Outcome strict = simulee(launch);
  EXPECT_EQ(strict.status, 1) << strict;
}

// NaN sums computed in either order are one value on a GPU (the canonical
// NaN): lanes storing them to one word make a same-value race, not a warning.
TEST(CliSemantics, LanesStoringNanSumsOfEitherOrderWriteTheSameValue) {
  Outcome o = simulee({"run", std::string(SIMULEE_SOURCE_DIR) + "/tests/interp/kernels/nan_results.cu",
                       "--kernel", "nanSums", "--grid", "1", "--block", "32", "--format", "json"});
  EXPECT_EQ(o.status, 0) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o;
  ASSERT_EQ(report["findings"].size(), 1u) << o;
  EXPECT_EQ(report["findings"][0]["benign"], "same-value");
  EXPECT_EQ(report["verdict"], "clean");
}

} // namespace
} // namespace simulee::cli_test
