// End-to-end tests of the front-end features that change what a file means:
// several files linked (`simulee A.cu B.cu`, --link), calls of functions with
// no body (a note with the verdict), old-dialect IR, and calls through
// pointers that are no function.
#include "CliSupport.h"

namespace simulee::cli_test {
namespace {

std::vector<std::string> linkedRun(std::vector<std::string> files) {
  std::vector<std::string> args = {"run"};
  args.insert(args.end(), files.begin(), files.end());
  args.insert(args.end(), {"--kernel", "linkedReduce", "--block", "128", "--arg", "in=random:128",
                           "--arg", "out=zeros:1"});
  return args;
}

TEST(CliLink, SecondFileOnTheCommandLineIsLinkedIn) {
  Outcome o = simulee(linkedRun({corpus("linked_helper_main.cu"), corpus("linked_helper_lib.cu")}));
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "[data-race]")) << o;
  EXPECT_FALSE(contains(o.out, "call to undefined")) << o;
}

TEST(CliLink, LinkOptionIsTheSame) {
  std::vector<std::string> args = linkedRun({corpus("linked_helper_main.cu")});
  args.insert(args.end(), {"--link", corpus("linked_helper_lib.cu")});
  Outcome o = simulee(args);
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_FALSE(contains(o.out, "call to undefined")) << o;
}

TEST(CliLink, WithoutTheOtherFileTheCallsAreNoted) {
  Outcome o = simulee(linkedRun({corpus("linked_helper_main.cu")}));
  EXPECT_NE(o.status, 2) << o;
  EXPECT_TRUE(contains(o.out, "note: call to undefined 'publish(int*, int, int)' at ")) << o;
  EXPECT_TRUE(contains(o.out, "linked_helper_main.cu:10 did nothing")) << o;
  EXPECT_TRUE(contains(o.out, "note: call to undefined 'combine(int, int)' at ")) << o;
}

TEST(CliLink, ConflictingDefinitionsAreAnError) {
  std::string main = corpus("linked_helper_main.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", main, "--link", main}), {main, "cannot link"}));
}

TEST(CliNotes, UnresolvedCallNoteIsInTheJsonAndTheRaceIsFound) {
  Outcome o = simulee({corpus("unresolved_device_call.cu"), "--kernel", "weightedShift", "--format",
                       "json", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "\"notes\": [")) << o;
  EXPECT_TRUE(contains(o.out, "'weightOf(int)' at ")) << o;
  EXPECT_TRUE(contains(o.out, "\"kind\": \"data-race\"")) << o;
}

TEST(CliOldIr, Clang32DialectReductionRaceIsFoundAtItsSourceLine) {
  Outcome o = simulee({"run", corpus("old_reduce_nvptx.ll"), "--kernel", "reduceRacy", "--block",
                       "128", "--arg", "in=random:128", "--arg", "out=zeros:1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "old_reduce.cu:10:21: warning: data race on shared 'sdata'")) << o;
}

TEST(CliIndirectCalls, CallThroughDataIsAnError) {
  std::string path = std::string(SIMULEE_SOURCE_DIR) + "/tests/interp/kernels/function_pointers.cu";
  Outcome o =
      simulee({"run", path, "--kernel", "callsData", "--block", "32", "--arg", "bits=zeros:32"});
  EXPECT_TRUE(
      isOneLineError(o, {"kernel 'callsData'", "not a function (0x0)", "function_pointers.cu:56"}))
      << o;
}

} // namespace
} // namespace simulee::cli_test
