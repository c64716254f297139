// Reading launches from host code (inputs/launches.cu): constants folded
// through macros, constexpr, const locals and dim3 variables; formulas over
// the launch's own integer arguments; unknowns where the program decides at
// run time; template arguments and device symbols.
#include "host/CallSiteReader.h"
#include "../support/TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>

using namespace simulee;
using namespace simulee::host;

namespace {

const std::string kInput = std::string(SIMULEE_SOURCE_DIR) + "/tests/host/inputs/launches.cu";

const std::vector<CallSite> &sites() {
  static std::vector<CallSite> read = [] {
    Result<HostCode> host = readCallSites(kInput, {});
    if (!host)
      throw std::runtime_error(host.error().message);
    if (!host->firstError.empty())
      throw std::runtime_error(host->firstError);
    return host->sites;
  }();
  return read;
}

std::optional<int64_t> withN(const SiteValue &value, int64_t n, uint32_t nIndex = 1) {
  if (value.isConstant())
    return value.integer;
  if (!value.isFormula())
    return std::nullopt;
  return evaluate(value.formula, [&](uint32_t index) -> std::optional<int64_t> {
    if (index == nIndex)
      return n;
    return std::nullopt;
  });
}

// The names of the site's searched variables (CallSite::Variable) `value`
// is computed from, in formula order; empty when it is no such formula or
// reads anything else.
std::vector<std::string> variablesOf(const CallSite &site, const SiteValue &value) {
  std::vector<std::string> names;
  if (!value.isFormula())
    return names;
  for (uint32_t index : value.formula.arguments()) {
    auto variable = std::find_if(site.variables.begin(), site.variables.end(),
                                 [&](const CallSite::Variable &v) { return v.index == index; });
    if (variable == site.variables.end())
      return {};
    names.push_back(variable->name);
  }
  return names;
}

TEST(CallSiteReader, FindsEveryLaunchInSourceOrder) {
  ASSERT_EQ(sites().size(), 5u);
  EXPECT_EQ(sites()[0].line, 16u);
  EXPECT_EQ(sites()[1].line, 19u);
  EXPECT_EQ(sites()[2].line, 22u);
  EXPECT_EQ(sites()[3].line, 24u);
  EXPECT_EQ(sites()[4].line, 25u);
  EXPECT_EQ(sites()[0].file, kInput);
  EXPECT_EQ(sites()[0].form, LaunchForm::TripleChevron);
  EXPECT_EQ(sites()[3].form, LaunchForm::LaunchCooperativeKernel);
}

TEST(CallSiteReader, GridFollowsTheSizeArgument) {
  const CallSite &site = sites()[0];
  EXPECT_EQ(site.kernel, "scale");
  EXPECT_EQ(site.mangledName, "_Z5scalePfif");
  ASSERT_TRUE(site.grid[0].isFormula());
  EXPECT_EQ(site.grid[0].text, "(n + THREADS - 1) / THREADS");
  EXPECT_EQ(withN(site.grid[0], 1000), 8);
  EXPECT_EQ(withN(site.grid[0], 128), 1);
  EXPECT_EQ(site.grid[1].integer, 1);
  ASSERT_TRUE(site.block[0].isConstant());
  EXPECT_EQ(site.block[0].integer, 128);
  ASSERT_EQ(site.arguments.size(), 3u);
  EXPECT_TRUE(site.arguments[0].isUnknown()); // a buffer
  EXPECT_TRUE(site.arguments[1].isUnknown()); // n: searched, the grid follows it
  EXPECT_EQ(site.arguments[1].text, "n");
  ASSERT_TRUE(site.arguments[2].isConstant());
  EXPECT_TRUE(site.arguments[2].isFloat);
  EXPECT_DOUBLE_EQ(site.arguments[2].real, 2.5);
}

TEST(CallSiteReader, Dim3VariablesTemplateArgumentsAndDerivedArguments) {
  const CallSite &site = sites()[1];
  EXPECT_EQ(site.kernel, "fill");
  EXPECT_EQ(site.templateArguments, (std::vector<std::string>{"64", "float"}));
  EXPECT_EQ(site.mangledName, "_Z4fillILi64EfEvPT0_ii");
  // dim3 block(kWarp, rows / 2): constexpr and a const local.
  EXPECT_EQ(site.block[0].integer, 32);
  EXPECT_EQ(site.block[1].integer, 4);
  EXPECT_EQ(site.block[2].integer, 1);
  // dim3 grid(n / kWarp, 3).
  EXPECT_EQ(withN(site.grid[0], 320), 10);
  EXPECT_EQ(site.grid[1].integer, 3);
  // Shared bytes n * sizeof(float), and the argument n / 2.
  EXPECT_EQ(withN(site.sharedBytes, 100), 400);
  ASSERT_TRUE(site.arguments[2].isFormula());
  EXPECT_EQ(withN(site.arguments[2], 100), 50);
}

TEST(CallSiteReader, ChangedVariablesHaveWhatTheirChangesMakeOfThem) {
  const CallSite &site = sites()[2];
  // `int changed = 4; changed += n;`: its initializer alone says nothing;
  // it is 4 + n, n searched, and the grid it is passed as follows n too.
  ASSERT_EQ(variablesOf(site, site.arguments[1]), std::vector<std::string>{"n"});
  uint32_t n = site.arguments[1].formula.arguments()[0];
  EXPECT_EQ(withN(site.arguments[1], 73, n), 77);
  ASSERT_TRUE(site.grid[0].isFormula());
  EXPECT_EQ(withN(site.grid[0], 73, n), 77);
  EXPECT_EQ(site.block[0].integer, 32);
}

TEST(CallSiteReader, CudaLaunchKernelReadsTheArgumentArray) {
  const CallSite &site = sites()[3];
  EXPECT_EQ(site.kernel, "cooperative");
  EXPECT_EQ(site.mangledName, "_Z11cooperativePii");
  EXPECT_EQ(site.grid[0].integer, 2);
  EXPECT_EQ(site.block[0].integer, 64);
  ASSERT_EQ(site.arguments.size(), 2u);
  EXPECT_EQ(site.arguments[1].text, "n");
  EXPECT_TRUE(site.sharedBytes.isConstant());
}

TEST(CallSiteReader, MinAndMaxAreFollowed) {
  const CallSite &site = sites()[4];
  ASSERT_TRUE(site.grid[0].isFormula());
  EXPECT_EQ(withN(site.grid[0], 320), 10);
  EXPECT_EQ(withN(site.grid[0], 1 << 20), 64);
  EXPECT_EQ(withN(site.grid[0], 3), 1);
}

TEST(CallSiteReader, DeviceOnlyFilesNeedNoParse) {
  EXPECT_TRUE(mayLaunchKernels(kInput));
  EXPECT_FALSE(mayLaunchKernels(std::string(SIMULEE_SOURCE_DIR) + "/corpus/vector_add.cu"));
}

TEST(CallSiteReader, HostCodeUsingCubThrustAndHalfParsesWithNvidiasHeaders) {
  std::string input =
      std::string(SIMULEE_SOURCE_DIR) + "/tests/host/inputs/launches_with_nvidia_headers.cu";
  Result<HostCode> host = readCallSites(input, {});
  ASSERT_TRUE(host.ok()) << host.error().message;
  EXPECT_EQ(host->firstError, "");
  ASSERT_EQ(host->sites.size(), 1u);
  const CallSite &site = host->sites[0];
  EXPECT_EQ(site.kernel, "blockSums");
  ASSERT_TRUE(site.grid[0].isConstant());
  EXPECT_EQ(site.grid[0].integer, 4);
  ASSERT_TRUE(site.block[0].isConstant());
  EXPECT_EQ(site.block[0].integer, 128);
}

} // namespace

namespace {

HostCode readInput(const std::string &name) {
  Result<HostCode> host =
      readCallSites(std::string(SIMULEE_SOURCE_DIR) + "/tests/host/inputs/" + name, {});
  if (!host)
    throw std::runtime_error(host.error().message);
  if (!host->firstError.empty())
    throw std::runtime_error(host->firstError);
  return std::move(*host);
}

} // namespace

TEST(CallSiteReader, AllocationsSizeThePointersPassedToALaunch) {
  HostCode host = readInput("allocations.cu");
  ASSERT_EQ(host.sites.size(), 4u);
  const CallSite &first = host.sites[0];
  ASSERT_EQ(first.allocationBytes.size(), 3u);
  // cudaMalloc(&in, n * sizeof(float)) with n passed as argument 2.
  ASSERT_TRUE(first.allocationBytes[0].isFormula());
  EXPECT_EQ(withN(first.allocationBytes[0], 100, 2), 400);
  EXPECT_EQ(first.allocations[0].substr(0, 13), "cudaMalloc at");
  EXPECT_NE(first.allocations[0].find("allocations.cu:12"), std::string::npos);
  // cudaMalloc((void **)&out, fixed * sizeof(float)): a constant.
  ASSERT_TRUE(first.allocationBytes[1].isConstant());
  EXPECT_EQ(first.allocationBytes[1].integer, 256);
  EXPECT_TRUE(first.allocationBytes[2].isUnknown()); // an integer, not a buffer
  // `swapped` is reassigned after its allocation: its size is not known.
  const CallSite &second = host.sites[1];
  EXPECT_EQ(second.allocationBytes[0].integer, 256);
  EXPECT_TRUE(second.allocationBytes[1].isUnknown());
  // table[0]<<<...>>>: the kernel of the table.
  EXPECT_EQ(host.sites[2].kernel, "tabled");
  // cudaMalloc(reinterpret_cast<void **>(&cast), ...), passed through a
  // reinterpret_cast too.
  const CallSite &cast = host.sites[3];
  ASSERT_TRUE(cast.allocationBytes[0].isConstant());
  EXPECT_EQ(cast.allocationBytes[0].integer, 2 * 64 * 4);
  EXPECT_NE(cast.allocations[0].find("allocations.cu:21"), std::string::npos);
}

TEST(CallSiteReader, AllocationsMadeByTheProgramsHelpersSizeThePointers) {
  HostCode host = readInput("allocation_helpers.cu");
  ASSERT_EQ(host.sites.size(), 1u);
  const CallSite &site = host.sites[0];
  ASSERT_EQ(site.allocationBytes.size(), 3u);
  // allocBytes(counts, n * sizeof(int)): a reference the helper allocates.
  ASSERT_TRUE(site.allocationBytes[0].isConstant()) << describe(site);
  EXPECT_EQ(site.allocationBytes[0].integer, (1 << 20) * 4);
  EXPECT_NE(site.allocations[0].find("cudaMallocManaged in allocBytes at"), std::string::npos)
      << site.allocations[0];
  // allocFloats(&weights, 2 * n * sizeof(float)): a pointer to the pointer.
  ASSERT_TRUE(site.allocationBytes[1].isConstant()) << describe(site);
  EXPECT_EQ(site.allocationBytes[1].integer, 2 * (1 << 20) * 4);
  EXPECT_NE(site.allocations[1].find("allocation_helpers.cu:18"), std::string::npos)
      << site.allocations[1];
}

TEST(CallSiteReader, PointersIntoOneAllocationAreKnownAsSuch) {
  HostCode host = readInput("shared_allocation.cu");
  ASSERT_EQ(host.sites.size(), 4u);
  using Aliases = std::vector<int32_t>;
  // combineIn(b, b, n), in source order first: the launcher's out and in
  // are one allocation.
  EXPECT_EQ(host.sites[0].allocationAliasOf, (Aliases{-1, 0, -1})) << describe(host.sites[0]);
  EXPECT_EQ(host.sites[0].allocationBytes[1].integer, 4096 * 4);
  // (a, a, n): in points into out's allocation.
  EXPECT_EQ(host.sites[1].allocationAliasOf, (Aliases{-1, 0, -1})) << describe(host.sites[1]);
  // (a, a + n): into it, n floats in.
  EXPECT_EQ(host.sites[2].allocationAliasOf, (Aliases{-1, 0, -1})) << describe(host.sites[2]);
  ASSERT_TRUE(host.sites[2].allocationOffsets[1].isConstant());
  EXPECT_EQ(host.sites[2].allocationOffsets[1].integer, 4096 * 4);
  // (b, a, n): allocations of one line, two of them.
  EXPECT_EQ(host.sites[3].allocationAliasOf, (Aliases{-1, -1, -1})) << describe(host.sites[3]);
}

TEST(CallSiteReader, AFunctionOrKernelPassedOnIsWhatTheNextFunctionCalls) {
  HostCode host = readInput("passed_on.cu");
  // bench() calls the step main hands it, then passes it on to repeat(),
  // in place; forward() passes its kernel on to launch().
  std::set<std::string> seen;
  for (const CallSite &site : host.sites) {
    ASSERT_TRUE(site.grid[0].isConstant()) << describe(site);
    std::string aliases;
    for (int32_t alias : site.allocationAliasOf)
      aliases += " " + std::to_string(alias);
    seen.insert(site.kernel + "@" + std::to_string(site.line) + " " +
                std::to_string(site.grid[0].integer) + aliases);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"halve@7 16 -1 -1 -1", "halve@7 16 -1 0 -1",
                                         "square@21 8 -1 -1"}));
}

TEST(CallSiteReader, CompoundAssignmentsChangeTheValuesTheyApplyTo) {
  HostCode host = readInput("compound_assignment.cu");
  // n = 32, then n *= 1024 (the option loop runs only with arguments),
  // steps -= 36; later n <<= 3, n += 1; then n /= 2 only sometimes. The
  // kernel template's second argument is deduced (scan<threads>(n, 2.0f, d)).
  ASSERT_EQ(host.sites.size(), 3u);
  std::vector<std::string> seen;
  for (const CallSite &site : host.sites) {
    EXPECT_EQ(site.kernel, "scan<256, float>");
    ASSERT_TRUE(site.grid[0].isConstant()) << describe(site);
    EXPECT_EQ(site.grid[0].integer, 63);
    ASSERT_EQ(site.arguments.size(), 3u) << describe(site);
    seen.push_back(site.arguments[0].isConstant() ? std::to_string(site.arguments[0].integer)
                                                  : "?");
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"262145", "32768", "?"}));
  // The allocation's bytes read n where it was made, after its *= and
  // before the changes the later launches see.
  for (const CallSite &site : host.sites) {
    ASSERT_TRUE(site.allocationBytes[2].isConstant()) << describe(site);
    EXPECT_EQ(site.allocationBytes[2].integer, 64 * 32768 * 4);
  }
}

TEST(CallSiteReader, EveryVariableOfAChainedAssignmentHoldsItsValue) {
  HostCode host = readInput("chained_assignment.cu");
  ASSERT_EQ(host.sites.size(), 1u);
  const CallSite &site = host.sites[0];
  // n = m = (k = 512): all three are 512, and so what they size.
  for (size_t argument : {2, 3, 4}) {
    ASSERT_TRUE(site.arguments[argument].isConstant()) << describe(site);
    EXPECT_EQ(site.arguments[argument].integer, 512);
  }
  ASSERT_TRUE(site.grid[0].isConstant() && site.grid[1].isConstant()) << describe(site);
  EXPECT_EQ(site.grid[0].integer, 32);
  EXPECT_EQ(site.grid[1].integer, 32);
  ASSERT_TRUE(site.allocationBytes[1].isConstant()) << describe(site);
  EXPECT_EQ(site.allocationBytes[1].integer, 512 * 512 * 4);
}

TEST(CallSiteReader, ALauncherCalledFromTheProgramsOtherFileTakesThatCallsValues) {
  std::string inputs = std::string(SIMULEE_SOURCE_DIR) + "/tests/host/inputs/";
  // Alone, the launcher's parameters are what the search chooses.
  Result<HostCode> alone = readCallSites(inputs + "split_kernels.cu", {});
  ASSERT_TRUE(alone) << alone.error().message;
  ASSERT_EQ(alone->sites.size(), 1u);
  EXPECT_FALSE(alone->sites[0].arguments[1].isConstant());
  // With the file holding main: its calls runScale(data, 4096, 3),
  // runScale(data, elements, 2) with a float of 1024 and, through a function
  // pointer, run(data, 2048, 5).
  Result<HostCode> program =
      readCallSites(inputs + "split_kernels.cu", {}, "", {inputs + "split_main.cu"});
  ASSERT_TRUE(program) << program.error().message;
  std::set<std::tuple<int64_t, int64_t, int64_t>> read; // n, factor, grid
  for (const CallSite &site : program->sites) {
    ASSERT_TRUE(site.arguments[1].isConstant() && site.arguments[2].isConstant() &&
                site.grid[0].isConstant())
        << describe(site);
    read.emplace(site.arguments[1].integer, site.arguments[2].integer, site.grid[0].integer);
  }
  EXPECT_EQ(read, (std::set<std::tuple<int64_t, int64_t, int64_t>>{
                      {4096, 3, 16}, {2048, 5, 8}, {1024, 2, 4}}));
}

TEST(CallSiteReader, LaunchesTheProgramsOtherFilesMakeOfTheFilesKernelsAreItsSites) {
  std::string inputs = std::string(SIMULEE_SOURCE_DIR) + "/tests/host/inputs/";
  // Alone, the kernels have no site.
  Result<HostCode> alone = readCallSites(inputs + "split_direct_kernels.cu", {});
  ASSERT_TRUE(alone) << alone.error().message;
  EXPECT_TRUE(alone->sites.empty());
  // With main's file, given or found beside it: main's launch of addOne.
  for (bool given : {true, false}) {
    std::vector<std::string> main = {inputs + "split_direct_main.cu"};
    Result<HostCode> program = readCallSites(inputs + "split_direct_kernels.cu", {}, "",
                                             given ? main : std::vector<std::string>{},
                                             given ? std::vector<std::string>{} : main);
    ASSERT_TRUE(program) << program.error().message;
    ASSERT_EQ(program->sites.size(), 1u) << given;
    const CallSite &site = program->sites[0];
    EXPECT_EQ(site.kernel, "addOne");
    EXPECT_EQ(site.file, main[0]);
    EXPECT_EQ(site.line, 10u);
    ASSERT_TRUE(site.grid[0].isConstant() && site.allocationBytes[0].isConstant());
    EXPECT_EQ(site.grid[0].integer, 4);
    EXPECT_EQ(site.allocationBytes[0].integer, 4000);
    // addTwo's launch is in a comment there.
    EXPECT_TRUE(program->launchedInText.count("addTwo")) << given;
  }
}

TEST(CallSiteReader, AKernelWhoseSharedMemoryLimitTheHostRaisesIsMarked) {
  HostCode host = readInput("shared_opt_in.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  EXPECT_EQ(host.sites[0].kernel, "wide");
  EXPECT_TRUE(host.sites[0].sharedOptIn);
  EXPECT_EQ(host.sites[0].sharedBytes.integer, 96 * 1024);
  EXPECT_EQ(host.sites[1].kernel, "narrow");
  EXPECT_FALSE(host.sites[1].sharedOptIn); // another attribute
}

TEST(CallSiteReader, APointerMovedByALoopVariableIsReadAtTheLastIteration) {
  HostCode host = readInput("loop_offsets.cu");
  ASSERT_EQ(host.sites.size(), 8u);
  // s < 4 and no argument passes s: the site is s = 3, the pointer 3 * 1024
  // floats into the allocation.
  const CallSite &streams = host.sites[0];
  ASSERT_TRUE(streams.allocationBytes[0].isConstant());
  EXPECT_EQ(streams.allocationBytes[0].integer, 4 * 1024 * 4);
  ASSERT_TRUE(streams.allocationOffsets[0].isConstant());
  EXPECT_EQ(streams.allocationOffsets[0].integer, 3 * 1024 * 4);
  EXPECT_TRUE(streams.constraints.empty());
  EXPECT_EQ(streams.lastIteration, "s = 3");
  // s from 2 by 3 while 9 >= s: 8.
  const CallSite &stepped = host.sites[1];
  ASSERT_TRUE(stepped.allocationOffsets[0].isConstant());
  EXPECT_EQ(stepped.allocationOffsets[0].integer, 8 * 4);
  EXPECT_EQ(stepped.lastIteration, "s = 8");
  // s also changed in the body: its last value is not known, nor the size.
  EXPECT_TRUE(host.sites[2].allocationBytes[0].isUnknown());
  // s passed as an argument, its loop's values known: the launch at each
  // of its four iterations, the pointer moved with it.
  for (int64_t s = 0; s < 4; ++s) {
    const CallSite &passed = host.sites[3 + s];
    ASSERT_TRUE(passed.arguments[2].isConstant()) << describe(passed);
    EXPECT_EQ(passed.arguments[2].integer, s);
    ASSERT_TRUE(passed.allocationOffsets[0].isConstant()) << describe(passed);
    EXPECT_EQ(passed.allocationOffsets[0].integer, s * 4);
    EXPECT_EQ(passed.iteration, "s = " + std::to_string(s));
    EXPECT_TRUE(passed.lastIteration.empty());
  }
  // A loop that never runs has no last iteration.
  EXPECT_TRUE(host.sites[7].allocationBytes[0].isUnknown());
}

TEST(CallSiteReader, NamedFunctionsAndLaunchesInTheTextAreRecorded) {
  HostCode host = readInput("allocations.cu");
  // A table of kernel pointers names its kernels.
  EXPECT_TRUE(host.namedFunctions.count("tabled"));
  EXPECT_TRUE(host.namedFunctions.count("shift"));
  // A launch inside #if 0 is in the text, not in the host code.
  EXPECT_FALSE(host.namedFunctions.count("unlaunched"));
  EXPECT_TRUE(host.launchedInText.count("unlaunched"));
  EXPECT_TRUE(host.launchedInText.count("shift"));
}

TEST(CallSiteReader, LaunchesInAnIncludedHeaderAreTheFilesHostCode) {
  std::string input = std::string(SIMULEE_SOURCE_DIR) + "/tests/host/inputs/harness_main.cu";
  EXPECT_TRUE(mayLaunchKernels(input));
  HostCode host = readInput("harness_main.cu");
  ASSERT_EQ(host.sites.size(), 1u);
  EXPECT_EQ(host.sites[0].kernel, "doubled");
  EXPECT_NE(host.sites[0].file.find("harness.h"), std::string::npos);
  EXPECT_EQ(host.sites[0].line, 7u);
  ASSERT_TRUE(host.sites[0].allocationBytes[0].isFormula());
}

TEST(CallSiteReader, Dim3MembersSetOneByOneAreFollowed) {
  HostCode host = readInput("member_dims.cu");
  ASSERT_EQ(host.sites.size(), 6u);
  const CallSite &tile = host.sites[0];
  ASSERT_TRUE(tile.block[0].isConstant());
  EXPECT_EQ(tile.block[0].integer, 16);
  EXPECT_EQ(tile.block[1].integer, 16);
  EXPECT_EQ(tile.block[2].integer, 1);
  // blocks.x = (n + threads.x - 1) / threads.x follows n.
  EXPECT_EQ(withN(tile.grid[0], 1000), 63);
  EXPECT_EQ(withN(tile.grid[1], 1000), 63);
  // An axis set twice by statements of its block: the later one, which runs
  // last before the launch. Set in a nested statement: not known.
  EXPECT_EQ(host.sites[1].block[0].integer, 64);
  EXPECT_TRUE(host.sites[1].block[0].isConstant());
  EXPECT_TRUE(host.sites[2].block[0].isUnknown());
}

TEST(CallSiteReader, WholeDim3AssignmentsAreFollowed) {
  // `block = dim3(512, 1);` is a call of dim3's assignment operator: the
  // last one before each launch holds, and `grid = dim3(n / block.x)` reads
  // block as it was there.
  HostCode host = readInput("member_dims.cu");
  ASSERT_EQ(host.sites.size(), 6u);
  const CallSite &first = host.sites[3];
  ASSERT_TRUE(first.block[0].isConstant());
  EXPECT_EQ(first.block[0].integer, 512);
  EXPECT_EQ(first.block[1].integer, 1);
  EXPECT_EQ(withN(first.grid[0], 1024), 2);
  const CallSite &second = host.sites[4];
  ASSERT_TRUE(second.block[0].isConstant());
  EXPECT_EQ(second.block[0].integer, 256);
  EXPECT_EQ(withN(second.grid[0], 1024), 1);
  // Assigned under an if: not known (not the default (1, 1, 1)).
  EXPECT_TRUE(host.sites[5].block[0].isUnknown());
}

TEST(CallSiteReader, IntegersAssignedAfterTheirDeclarationAreFollowed) {
  // `int threads; ... threads = 256;`: the last plain assignment before a
  // launch, a statement of the declaring block, holds there, and each value
  // is read where it was assigned.
  HostCode host = readInput("assigned_scalars.cu");
  ASSERT_EQ(host.sites.size(), 5u);
  const CallSite &first = host.sites[0];
  ASSERT_TRUE(first.block[0].isConstant());
  EXPECT_EQ(first.block[0].integer, 256);
  EXPECT_EQ(withN(first.grid[0], 1000), 4);
  // Reassigned before the second launch; blocks keeps what threads was.
  ASSERT_TRUE(host.sites[1].block[0].isConstant());
  EXPECT_EQ(host.sites[1].block[0].integer, 128);
  EXPECT_EQ(withN(host.sites[1].grid[0], 1000), 4);
  // Changed by ++, or assigned only after the launch: not known, so
  // searched as the variable it is.
  using Names = std::vector<std::string>;
  EXPECT_EQ(variablesOf(host.sites[2], host.sites[2].block[0]), Names{"stepped"});
  EXPECT_EQ(variablesOf(host.sites[4], host.sites[4].block[0]), Names{"later"});
  // Assigned under an if on n: run as the statements that set it.
  EXPECT_EQ(withN(host.sites[3].block[0], 2), 32);
  EXPECT_EQ(withN(host.sites[3].block[0], 10), 64);
}

TEST(CallSiteReader, AssignmentsInBlocksAndLoopsAroundALaunchAreFollowed) {
  HostCode host = readInput("loop_assignments.cu");
  ASSERT_EQ(host.sites.size(), 16u);
  // Reassigned only in a loop after the launch: the initializers hold.
  EXPECT_EQ(withN(host.sites[0].block[0], 0), 256);
  EXPECT_EQ(withN(host.sites[0].grid[0], 0), 4);
  EXPECT_TRUE(host.sites[0].iteration.empty());
  // Assigned in the loop's body (make_uint3), with the segment passed: each
  // iteration is a whole launch, its segment, grid and block known. Not
  // passed: one site per iteration all the same.
  const int64_t segments[] = {1024, 2048, 4096, 8192};
  for (int k = 0; k < 8; ++k) {
    const CallSite &site = host.sites[1 + k];
    int64_t segment = segments[k % 4];
    EXPECT_EQ(site.kernel, k < 4 ? "pass" : "sortTile");
    EXPECT_EQ(site.iteration, "segment = " + std::to_string(segment));
    ASSERT_TRUE(site.block[0].isConstant()) << k;
    EXPECT_EQ(site.block[0].integer, segment / 256);
    EXPECT_EQ(site.grid[0].integer, 16384 / segment);
    if (k < 4) {
      ASSERT_TRUE(site.arguments[1].isConstant()) << k;
      EXPECT_EQ(site.arguments[1].integer, segment);
    }
  }
  // An assignment after the launch in the loop around it: not known, so
  // searched as the variable it is.
  EXPECT_EQ(variablesOf(host.sites[9], host.sites[9].block[0]),
            std::vector<std::string>{"threads"});
  // A statement of the if's block around the launch.
  ASSERT_TRUE(host.sites[10].block[0].isConstant());
  EXPECT_EQ(host.sites[10].block[0].integer, 32);
  // 34 iterations: four of them, first and last included.
  const int64_t grids[] = {1, 34, 67, 100};
  for (int k = 0; k < 4; ++k) {
    const CallSite &site = host.sites[11 + k];
    ASSERT_TRUE(site.grid[0].isConstant()) << k;
    EXPECT_EQ(site.grid[0].integer, grids[k]);
    EXPECT_EQ(site.iteration, "i = " + std::to_string(grids[k] - 1));
  }
  // A copy of an allocated pointer has its allocation: 4000 bytes.
  const CallSite &copied = host.sites[15];
  ASSERT_EQ(copied.allocationBytes.size(), 1u);
  ASSERT_TRUE(copied.allocationBytes[0].isConstant());
  EXPECT_EQ(copied.allocationBytes[0].integer, 4000);
}

TEST(CallSiteReader, APitchFromCudaMallocPitchIsTheRowPaddedAsTheRuntimePadsIt) {
  // Rows padded to 256 bytes: for n = 1000 floats, 4096 bytes, 1024 floats;
  // for n = 64, 256 bytes.
  HostCode host = readInput("pitched.cu");
  ASSERT_EQ(host.sites.size(), 4u);
  EXPECT_EQ(withN(host.sites[0].arguments[3], 1000, 2), 4096);
  EXPECT_EQ(withN(host.sites[0].arguments[3], 64, 2), 256);
  EXPECT_EQ(withN(host.sites[1].arguments[3], 1000, 2), 1024);
  // A pitch changed otherwise is the host's variable, searched.
  EXPECT_EQ(variablesOf(host.sites[2], host.sites[2].arguments[3]),
            std::vector<std::string>{"changed"});
  // `inElements /= sizeof(float)` after the allocation: in elements. The
  // width is a member of the launcher's struct parameter, searched.
  const CallSite &padded = host.sites[3];
  EXPECT_EQ(variablesOf(padded, padded.arguments[3]), std::vector<std::string>{"size.width"});
  ASSERT_EQ(padded.variables.size(), 1u);
  uint32_t width = padded.variables[0].index;
  EXPECT_EQ(padded.variables[0].name, "size.width");
  EXPECT_EQ(withN(padded.arguments[3], 1000, width), 1024);
  EXPECT_EQ(withN(padded.arguments[3], 64, width), 64);
  EXPECT_EQ(withN(padded.grid[0], 1000, width), 31);
}

TEST(CallSiteReader, MembersOfALaunchersDim3ParametersAreOneSearchedValueEach) {
  // `dimsB.x / threads.x` blocks and the argument `dimsB.x` read one leaf,
  // so the grid follows the width the kernel is passed.
  HostCode host = readInput("dims_parameters.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  for (const CallSite &site : host.sites) {
    EXPECT_EQ(variablesOf(site, site.arguments[2]), std::vector<std::string>{"dimsB.x"});
    EXPECT_EQ(variablesOf(site, site.arguments[1]), std::vector<std::string>{"dimsA.x"});
    ASSERT_TRUE(site.grid[0].isFormula());
    std::vector<uint32_t> read = site.grid[0].formula.arguments();
    EXPECT_NE(std::find(read.begin(), read.end(), site.arguments[2].formula.arguments()[0]),
              read.end());
  }
  const CallSite &fixed = host.sites[1];
  EXPECT_EQ(withN(fixed.grid[0], 64, fixed.arguments[2].formula.arguments()[0]), 4);
}

TEST(CallSiteReader, OneLineHelpersOfTheProgramAreFollowed) {
  // div_up (a template), iDivUp (a conditional): a single `return` of their
  // parameters; twice, of two statements, runs as a procedure. And ceil().
  HostCode host = readInput("helpers.cu");
  ASSERT_EQ(host.sites.size(), 6u);
  EXPECT_EQ(withN(host.sites[0].grid[0], 1000), 4);
  EXPECT_EQ(withN(host.sites[0].grid[0], 1024), 4);
  EXPECT_EQ(withN(host.sites[1].grid[0], 1000), 8);
  EXPECT_EQ(withN(host.sites[1].grid[0], 1024), 8);
  EXPECT_EQ(withN(host.sites[1].grid[0], 1025), 9);
  EXPECT_EQ(withN(host.sites[2].grid[0], 100), 200);
  // ceil of a floating-point quotient by a whole divisor; not by 2.5.
  EXPECT_EQ(withN(host.sites[3].grid[0], 1000), 16);
  EXPECT_EQ(withN(host.sites[3].grid[0], 1024), 16);
  EXPECT_EQ(withN(host.sites[4].grid[0], 1000), 32);
  EXPECT_EQ(withN(host.sites[4].grid[0], 1025), 33);
  EXPECT_TRUE(host.sites[5].grid[0].isUnknown());
}

TEST(CallSiteReader, TemplateLaunchersAndKernelTablesAreFollowed) {
  HostCode host = readInput("template_launcher.cu");
  std::vector<std::string> kernels;
  for (const CallSite &site : host.sites)
    kernels.push_back(site.kernel + "@" + std::to_string(site.line) + "/" +
                      std::to_string(site.block[0].integer));
  // launchBox<16> and launchBox<32>: the launcher's launches once per
  // argument list, the kernel template named by its instantiation.
  EXPECT_EQ(kernels, (std::vector<std::string>{"box<16>@9/16", "plain@10/16", "box<32>@9/32",
                                               "plain@10/32", "up@22/64", "down@22/64"}));
  // The grid follows n with WIN = 16.
  EXPECT_EQ(withN(host.sites[0].grid[0], 100), 7);
  // The compiled code names the instantiation's symbol.
  EXPECT_EQ(host.sites[0].mangledName, "_Z3boxILi16EEvPfi");
}

namespace {

// Whether every constraint of `site` holds with argument 1 = n and
// argument 2 = stride.
bool holdsAt(const CallSite &site, int64_t n, int64_t stride) {
  for (const CallSite::Constraint &constraint : site.constraints) {
    std::optional<int64_t> value =
        evaluate(constraint.holds, [&](uint32_t index) -> std::optional<int64_t> {
          return index == 1 ? n : index == 2 ? stride : std::optional<int64_t>();
        });
    if (value && *value == 0)
      return false;
  }
  return true;
}

// The conditions guards.cu and guarded_launcher.cu put on the launch in
// their loop: the early exit (n % 32 == 0), the assert (n <= 4096), the
// loop condition, its start and its doubling.
void expectLoopGuards(const CallSite &loop) {
  EXPECT_TRUE(holdsAt(loop, 1024, 256));
  EXPECT_FALSE(holdsAt(loop, 1000, 256));  // not a multiple of 32
  EXPECT_FALSE(holdsAt(loop, 8192, 256));  // past the assert
  EXPECT_FALSE(holdsAt(loop, 1024, 1024)); // the loop stops below n
  EXPECT_FALSE(holdsAt(loop, 1024, 1));    // it starts at 2
  EXPECT_FALSE(holdsAt(loop, 1024, 96));   // and doubles
}

} // namespace

TEST(CallSiteReader, GuardsAssertsBranchesAndLoopsConstrainTheArguments) {
  HostCode host = readInput("guards.cu");
  ASSERT_EQ(host.sites.size(), 3u);
  expectLoopGuards(host.sites[0]);
  // The two branches of an if.
  EXPECT_TRUE(holdsAt(host.sites[1], 128, 1));
  EXPECT_FALSE(holdsAt(host.sites[1], 64, 1));
  EXPECT_TRUE(holdsAt(host.sites[2], 64, 1));
  EXPECT_FALSE(holdsAt(host.sites[2], 128, 1));
}

TEST(CallSiteReader, TheConditionsAroundALaunchersCallConstrainItsLaunch) {
  // sortAll's early exit, assert and doubling loop hold where it calls
  // runStep, whose launch passes its n and stride on as they are.
  HostCode host = readInput("guarded_launcher.cu");
  ASSERT_EQ(host.sites.size(), 1u);
  expectLoopGuards(host.sites[0]);
}

TEST(CallSiteReader, AKernelPointerVariableLaunchesEveryKernelAssignedToIt) {
  HostCode host = readInput("kernel_pointer.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  EXPECT_EQ(host.sites[0].kernel, "copy");
  EXPECT_EQ(host.sites[1].kernel, "flip");
  for (const CallSite &site : host.sites) {
    EXPECT_EQ(site.line, 13u);
    EXPECT_EQ(site.block[0].integer, 64);
    EXPECT_EQ(site.arguments[2].integer, 256);
  }
}

TEST(CallSiteReader, AKernelPointerStoredInACaseIsLaunchedWhereTheCaseHolds) {
  HostCode host = readInput("kernel_pointer_switch.cu");
  // launch(0) runs narrow, launch(1) wide; neither runs the other or unused.
  ASSERT_EQ(host.sites.size(), 4u);
  EXPECT_EQ(host.sites[0].kernel, "narrow");
  EXPECT_EQ(host.sites[0].block[0].integer, 64);
  // grids[0], stored by setup(): the global table's element.
  ASSERT_TRUE(host.sites[0].grid[0].isConstant());
  EXPECT_EQ(host.sites[0].grid[0].integer, 8);
  EXPECT_EQ(host.sites[0].grid[1].integer, 1);
  EXPECT_EQ(host.sites[1].kernel, "wide");
  EXPECT_EQ(host.sites[1].block[0].integer, 128);
  EXPECT_EQ(host.sites[1].grid[0].integer, 4);
  EXPECT_EQ(host.sites[1].grid[1].integer, 2);
  // stages[s] for s = 0, 1: the table's first two entries, each with its s.
  EXPECT_EQ(host.sites[2].kernel, "first");
  EXPECT_EQ(host.sites[2].block[0].integer, 32);
  EXPECT_EQ(host.sites[2].iteration, "s = 0");
  EXPECT_EQ(host.sites[3].kernel, "second");
  EXPECT_EQ(host.sites[3].block[0].integer, 64);
  EXPECT_EQ(host.ruledOut, (std::set<std::string>{"third", "unused"}));
}

TEST(CallSiteReader, ALauncherCallPassesTheAllocationsOfItsPointers) {
  HostCode host = readInput("launcher_buffers.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  // launch(a, n) and launch(b, 2 * n): each launch's buffer is the call's.
  EXPECT_EQ(host.sites[0].allocationBytes[0].integer, 4000);
  EXPECT_NE(host.sites[0].allocations[0].find("launcher_buffers.cu:10"), std::string::npos);
  EXPECT_EQ(host.sites[0].arguments[1].integer, 1000);
  EXPECT_EQ(host.sites[1].allocationBytes[0].integer, 8000);
  EXPECT_NE(host.sites[1].allocations[0].find("launcher_buffers.cu:11"), std::string::npos);
  EXPECT_EQ(host.sites[1].arguments[1].integer, 2000);
}

TEST(CallSiteReader, VariablesTheProgramDecidesAndDoesNotPassAreSearchedOnce) {
  HostCode host = readInput("searched_variables.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  // The launcher's threads: one variable for the block, the shared bytes
  // and the grid (with n, the argument it passes).
  const CallSite &launcher = host.sites[0];
  ASSERT_EQ(launcher.variables.size(), 1u);
  const CallSite::Variable &threads = launcher.variables[0];
  EXPECT_EQ(threads.name, "threads");
  EXPECT_EQ(threads.index, 3u); // after the kernel's three parameters
  EXPECT_EQ(threads.bits, 32u);
  EXPECT_TRUE(threads.isSigned);
  using Names = std::vector<std::string>;
  EXPECT_EQ(variablesOf(launcher, launcher.block[0]), Names{"threads"});
  EXPECT_EQ(variablesOf(launcher, launcher.sharedBytes), Names{"threads"});
  auto at = [&](const SiteValue &value, int64_t n, int64_t threadCount) {
    return evaluate(value.formula, [&](uint32_t index) -> std::optional<int64_t> {
      return index == 2 ? n : index == 3 ? std::optional<int64_t>(threadCount) : std::nullopt;
    });
  };
  ASSERT_TRUE(launcher.grid[0].isFormula());
  EXPECT_EQ(at(launcher.grid[0], 1000, 256), 4);
  EXPECT_EQ(at(launcher.sharedBytes, 0, 256), 1024);
  // main's threads sizes the block, the grid and out's allocation; in's
  // size is a variable of its own the launch does not use: unknown.
  const CallSite &site = host.sites[1];
  ASSERT_EQ(site.variables.size(), 1u);
  EXPECT_EQ(variablesOf(site, site.block[0]), Names{"threads"});
  EXPECT_EQ(variablesOf(site, site.grid[0]), Names{"threads"});
  ASSERT_EQ(site.allocationBytes.size(), 3u);
  EXPECT_EQ(variablesOf(site, site.allocationBytes[1]), Names{"threads"});
  EXPECT_TRUE(site.allocationBytes[0].isUnknown());
  EXPECT_EQ(at(site.grid[0], 0, 1024), 1024);
}

TEST(CallSiteReader, AGlobalASetupFunctionAssignsOnceHoldsThatValue) {
  HostCode host = readInput("setup_globals.cu");
  ASSERT_EQ(host.sites.size(), 3u);
  const CallSite &site = host.sites[0];
  EXPECT_EQ(site.grid[0].integer, 16);
  EXPECT_EQ(site.block[0].integer, 256);
  EXPECT_EQ(site.arguments[1].integer, 4096);
  EXPECT_EQ(site.allocationBytes[0].integer, 16384);
  // Assigned under an if, or changed twice: not known, so searched.
  EXPECT_EQ(variablesOf(host.sites[1], host.sites[1].block[0]),
            std::vector<std::string>{"wide"});
  EXPECT_EQ(variablesOf(host.sites[2], host.sites[2].grid[0]),
            std::vector<std::string>{"scale"});
}

TEST(CallSiteReader, AKernelPassedToALauncherIsWhatItsParameterLaunches) {
  HostCode host = readInput("kernel_parameter.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  // One site per call (in no particular order), each of the kernel it passes.
  bool scaleFirst = host.sites[0].kernel == "scale";
  const CallSite &scale = host.sites[scaleFirst ? 0 : 1];
  const CallSite &shift = host.sites[scaleFirst ? 1 : 0];
  EXPECT_EQ(scale.kernel, "scale");
  EXPECT_EQ(scale.grid[0].integer, 4);
  EXPECT_EQ(scale.allocationBytes[0].integer, 4000);
  EXPECT_EQ(shift.kernel, "shift");
  EXPECT_EQ(shift.grid[0].integer, 2);
  EXPECT_EQ(shift.arguments[1].integer, 512);
}

TEST(CallSiteReader, ABufferTheHostZeroesLastBeforeTheLaunchHoldsZeros) {
  HostCode host = readInput("zeroed.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  // counts was zeroed; keys was zeroed, then overwritten by a copy.
  EXPECT_EQ(host.sites[0].zeroed, (std::vector<bool>{true, false, false}));
  // Before the second launch counts was overwritten by a copy too.
  EXPECT_EQ(host.sites[1].zeroed, (std::vector<bool>{false, false, false}));
}

TEST(CallSiteReader, AHostArrayFilledInACountedLoopAndCopiedGivesTheBuffersContents) {
  HostCode host = readInput("host_filled.cu");
  ASSERT_EQ(host.sites.size(), 3u);
  auto valueAt = [](const CallSite::HostContents &contents, int64_t i) {
    return evaluate(contents.element, [&](uint32_t index) -> std::optional<int64_t> {
      if (index == CallSite::kElementIndex)
        return i;
      return std::nullopt;
    });
  };
  // start: h_start[i] = i * stride + 3 for i < n (4 elements); weight came
  // from rand() and scale holds floats: nothing known; out was never copied.
  const std::vector<CallSite::HostContents> &first = host.sites[0].contents;
  ASSERT_EQ(first.size(), 5u);
  EXPECT_EQ(first[0].count, 4);
  EXPECT_EQ(first[0].text, "i * stride + 3");
  EXPECT_EQ(valueAt(first[0], 0), 3);
  EXPECT_EQ(valueAt(first[0], 2), 515);
  for (size_t p = 1; p < first.size(); ++p)
    EXPECT_EQ(first[p].count, 0) << p;
  // The array refilled after the copy changes nothing on the device; the
  // copy after that does.
  EXPECT_EQ(valueAt(host.sites[1].contents[0], 2), 515);
  EXPECT_EQ(host.sites[2].contents[0].count, 4);
  EXPECT_EQ(valueAt(host.sites[2].contents[0], 1), 3);
}

TEST(CallSiteReader, DevicePropertiesAreTheSimulatedDevices) {
  // Two blocks per multiprocessor, as CUDA by Example's histogram sizes its
  // grid: the launch is the program's own on the simulated sm_80 device.
  simulee::testing::TempDir dir;
  std::string path = dir.file("props.cu");
  std::ofstream(path) << "__global__ void k(int *p) {}\n"
                         "int main() {\n"
                         "  cudaDeviceProp prop;\n"
                         "  cudaGetDeviceProperties(&prop, 0);\n"
                         "  int blocks = prop.multiProcessorCount;\n"
                         "  const cudaDeviceProp *view = &prop;\n"
                         "  int *p;\n"
                         "  k<<<blocks * 2, view->warpSize * 8>>>(p);\n"
                         "  k<<<prop.totalGlobalMem, 32>>>(p);\n"
                         "}\n";
  Result<HostCode> host = readCallSites(path, {});
  ASSERT_TRUE(host.ok()) << host.error().message;
  ASSERT_EQ(host->sites.size(), 2u);
  ASSERT_TRUE(host->sites[0].grid[0].isConstant());
  EXPECT_EQ(host->sites[0].grid[0].integer, 216);
  ASSERT_TRUE(host->sites[0].block[0].isConstant());
  EXPECT_EQ(host->sites[0].block[0].integer, 256);
  // A member no launch is sized from stays unknown.
  EXPECT_TRUE(host->sites[1].grid[0].isUnknown());
}

TEST(CallSiteReader, DeviceAttributesQueriedIntoAVariableAreTheSimulatedDevices) {
  // cudaDeviceGetAttribute(&v, ...) sets v once: the simulated device's
  // value; a variable changed again after its query stays unknown.
  simulee::testing::TempDir dir;
  std::string path = dir.file("attributes.cu");
  std::ofstream(path) << "__global__ void k(int *p) {}\n"
                         "int main() {\n"
                         "  int sms = 0, warp, bumped;\n"
                         "  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\n"
                         "  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);\n"
                         "  cudaDeviceGetAttribute(&bumped, cudaDevAttrMultiProcessorCount, 0);\n"
                         "  bumped += 1;\n"
                         "  int *p;\n"
                         "  k<<<sms * 4, warp * 4>>>(p);\n"
                         "  k<<<bumped, 32>>>(p);\n"
                         "}\n";
  Result<HostCode> host = readCallSites(path, {});
  ASSERT_TRUE(host.ok()) << host.error().message;
  ASSERT_EQ(host->sites.size(), 2u);
  ASSERT_TRUE(host->sites[0].grid[0].isConstant());
  EXPECT_EQ(host->sites[0].grid[0].integer, 432);
  ASSERT_TRUE(host->sites[0].block[0].isConstant());
  EXPECT_EQ(host->sites[0].block[0].integer, 128);
  EXPECT_EQ(variablesOf(host->sites[1], host->sites[1].grid[0]),
            std::vector<std::string>{"bumped"});
}

// The member of `site`'s struct argument at `path`, or null.
const CallSite::Member *memberOf(const CallSite &site, const std::string &path) {
  for (const CallSite::Member &member : site.members)
    if (member.path == path)
      return &member;
  return nullptr;
}

TEST(CallSiteReader, StructMembersTheHostFillsKeepTheirValuesAndAllocations) {
  // Set one by one in the declaring block, from a brace initializer, or
  // allocated into (cudaMalloc(&p.in, ...)); a member set in a nested
  // statement, a struct whose address escapes, or one set only after the
  // launch is not known.
  simulee::testing::TempDir dir;
  std::string path = dir.file("members.cu");
  std::ofstream(path) << "struct Size { int width, height; };\n"
                         "struct P { const float *in; float *out; int n; int step; Size size; };\n"
                         "__global__ void k(P p, int m) {}\n"
                         "void fill(P *p);\n"
                         "int count();\n"
                         "int main(int argc, char **argv) {\n"
                         "  int c = count();\n"
                         "  const int n = 1000;\n"
                         "  float *a, *b;\n"
                         "  cudaMalloc(&a, n * sizeof(float));\n"
                         "  cudaMalloc(&b, 2 * n * sizeof(float));\n"
                         "  P p;\n"
                         "  p.in = a; p.out = b; p.n = n; p.size.width = 7;\n"
                         "  if (c > 3) p.step = 2;\n"
                         "  k<<<(p.n + 255) / 256, 256>>>(p, c);\n"
                         "  P q = {a, b, n / 2, 3, {4, 5}};\n"
                         "  k<<<4, 256>>>(q, c);\n"
                         "  P r;\n"
                         "  cudaMalloc(&r.in, 3 * n * sizeof(float));\n"
                         "  r.n = c;\n"
                         "  k<<<4, 256>>>(r, c);\n"
                         "  r.step = 9;\n"
                         "  P s = {a, b, n, 1, {1, 1}};\n"
                         "  fill(&s);\n"
                         "  k<<<4, 256>>>(s, 0);\n"
                         "}\n";
  Result<HostCode> host = readCallSites(path, {});
  ASSERT_TRUE(host.ok()) << host.error().message;
  ASSERT_EQ(host->sites.size(), 4u);

  const CallSite &p = host->sites[0];
  ASSERT_TRUE(p.grid[0].isConstant()); // (p.n + 255) / 256 with p.n = 1000
  EXPECT_EQ(p.grid[0].integer, 4);
  ASSERT_NE(memberOf(p, "n"), nullptr);
  EXPECT_EQ(memberOf(p, "n")->param, 0u);
  EXPECT_EQ(memberOf(p, "n")->value.integer, 1000);
  ASSERT_NE(memberOf(p, "size.width"), nullptr);
  EXPECT_EQ(memberOf(p, "size.width")->value.integer, 7);
  EXPECT_EQ(memberOf(p, "step"), nullptr); // set only under an `if`
  ASSERT_NE(memberOf(p, "in"), nullptr);
  EXPECT_EQ(memberOf(p, "in")->allocationBytes.integer, 4000);
  EXPECT_NE(memberOf(p, "in")->allocation.find("cudaMalloc at"), std::string::npos);
  EXPECT_EQ(memberOf(p, "out")->allocationBytes.integer, 8000);

  const CallSite &q = host->sites[1];
  EXPECT_EQ(memberOf(q, "n")->value.integer, 500);
  EXPECT_EQ(memberOf(q, "step")->value.integer, 3);
  EXPECT_EQ(memberOf(q, "size.height")->value.integer, 5);
  EXPECT_EQ(memberOf(q, "out")->allocationBytes.integer, 8000);

  const CallSite &r = host->sites[2];
  ASSERT_NE(memberOf(r, "in"), nullptr);
  EXPECT_EQ(memberOf(r, "in")->allocationBytes.integer, 12000);
  EXPECT_EQ(memberOf(r, "out"), nullptr); // never given a value
  ASSERT_NE(memberOf(r, "n"), nullptr);   // c, passed as the launch's m
  ASSERT_TRUE(memberOf(r, "n")->value.isFormula());
  EXPECT_EQ(memberOf(r, "n")->value.formula.arguments(), std::vector<uint32_t>{1});
  EXPECT_EQ(memberOf(r, "step"), nullptr); // set after the launch

  EXPECT_TRUE(host->sites[3].members.empty()); // &s escapes to fill()
}

TEST(CallSiteReader, AStructMemberCopiedFromAnUnknownVariableIsALeafOfTheFormulas) {
  // n is read at run time: w.n is searched, and the grid, w.twice and the
  // allocation into w.in follow it as formula index 1 (after the one
  // parameter).
  simulee::testing::TempDir dir;
  std::string path = dir.file("leaf.cu");
  std::ofstream(path) << "#include <cstdlib>\n"
                         "struct W { const float *in; int n; int twice; };\n"
                         "__global__ void k(W w) {}\n"
                         "int main(int argc, char **argv) {\n"
                         "  int n = atoi(argv[1]);\n"
                         "  W w;\n"
                         "  cudaMalloc(&w.in, n * sizeof(float));\n"
                         "  w.n = n;\n"
                         "  w.twice = 2 * n;\n"
                         "  k<<<(n + 255) / 256, 256>>>(w);\n"
                         "}\n";
  Result<HostCode> host = readCallSites(path, {});
  ASSERT_TRUE(host.ok()) << host.error().message;
  ASSERT_EQ(host->sites.size(), 1u);
  const CallSite &site = host->sites[0];
  ASSERT_NE(memberOf(site, "n"), nullptr);
  EXPECT_EQ(memberOf(site, "n")->leaf, std::optional<uint32_t>(1));
  EXPECT_TRUE(memberOf(site, "n")->value.isUnknown());
  ASSERT_NE(memberOf(site, "twice"), nullptr);
  EXPECT_EQ(withN(memberOf(site, "twice")->value, 300), 600);
  EXPECT_EQ(withN(memberOf(site, "in")->allocationBytes, 300), 1200);
  EXPECT_EQ(withN(site.grid[0], 300), 2);
}

TEST(CallSiteReader, ALongTextWithoutLaunchSyntaxIsScannedWithoutRecursion) {
  // A comment of megabytes after a `<`: a regular expression over it would
  // recurse once per character; the launches are still found.
  simulee::testing::TempDir dir;
  std::string path = dir.file("long_comment.cu");
  {
    std::ofstream out(path);
    out << "__global__ void k(int *p) {}\n// a < ";
    for (int i = 0; i < (1 << 20); ++i)
      out << "x ";
    out << "\nint main() { int *p; k<<<1, 32>>>(p); }\n";
  }
  Result<HostCode> host = readCallSites(path, {});
  ASSERT_TRUE(host.ok()) << host.error().message;
  ASSERT_EQ(host->sites.size(), 1u);
  EXPECT_TRUE(host->launchedInText.count("k"));
}

TEST(CallSiteReader, AnEqualityIfFixesItsVariableInTheBranchItGuards) {
  HostCode host = readInput("if_launcher.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  // if (tile == 16): inside, tile is 16 whatever the call bound it to.
  ASSERT_TRUE(host.sites[0].block[0].isConstant());
  EXPECT_EQ(host.sites[0].block[0].integer, 16);
  EXPECT_EQ(host.sites[0].block[1].integer, 16);
  // else: the call's 32.
  ASSERT_TRUE(host.sites[1].block[0].isConstant());
  EXPECT_EQ(host.sites[1].block[0].integer, 32);
}

TEST(CallSiteReader, LaunchersCalledFromLaunchersGetTheValuesOfTheOuterCalls) {
  HostCode host = readInput("nested_launchers.cu");
  // forward() passes main's sizes on to launchRows(): one site per call of
  // main's, with n = batch * tokens and width as main sets them, and the
  // grid and block of each call's threads.
  ASSERT_EQ(host.sites.size(), 2u);
  std::vector<int64_t> blocks, grids;
  for (const CallSite &site : host.sites) {
    ASSERT_TRUE(site.arguments[1].isConstant()) << site.arguments[1].text;
    EXPECT_EQ(site.arguments[1].integer, 512);
    ASSERT_TRUE(site.arguments[2].isConstant()) << site.arguments[2].text;
    EXPECT_EQ(site.arguments[2].integer, 768);
    ASSERT_TRUE(site.block[0].isConstant());
    ASSERT_TRUE(site.grid[0].isConstant());
    blocks.push_back(site.block[0].integer);
    grids.push_back(site.grid[0].integer);
  }
  EXPECT_EQ(blocks, (std::vector<int64_t>{128, 256}));
  EXPECT_EQ(grids, (std::vector<int64_t>{4, 2}));
}

TEST(CallSiteReader, LaunchersPassedByNameAndGenericLambdasGetTheCallsValues) {
  HostCode host = readInput("passed_launchers.cu");
  // timed() takes its arguments by forwarding reference: main's count,
  // width and threads stay the constants they are declared as. pass() calls
  // the launcher main hands it, so launchScale gets main's values, and the
  // launch in its generic lambda is one site per block size byBlockSize
  // instantiates, with the template argument as the lambda's size.value.
  std::vector<std::string> seen;
  for (const CallSite &site : host.sites) {
    ASSERT_EQ(site.arguments.size(), 3u) << site.kernel;
    for (size_t i = 1; i < 3; ++i)
      ASSERT_TRUE(site.arguments[i].isConstant()) << site.kernel << " " << i;
    EXPECT_EQ(site.arguments[1].integer, 300);
    EXPECT_EQ(site.arguments[2].integer, 96);
    ASSERT_TRUE(site.grid[0].isConstant()) << site.kernel;
    ASSERT_TRUE(site.block[0].isConstant()) << site.kernel;
    seen.push_back(site.kernel + "@" + std::to_string(site.line) + " " +
                   std::to_string(site.grid[0].integer) + "x" +
                   std::to_string(site.block[0].integer) + " " + site.mangledName);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"clearRows@38 225x128 _Z9clearRowsPfii",
                                            "rowScale<128>@32 300x128 _Z8rowScaleILi128EEvPfii",
                                            "rowScale<64>@32 300x64 _Z8rowScaleILi64EEvPfii"}));
}

TEST(CallSiteReader, ALoopOverATableOfBlockSizesGivesEachIterationsSite) {
  HostCode host = readInput("table_loop.cu");
  // The direct launch (line 21) at each iteration, and the launcher's (line
  // 11) once per iteration's call: blocks of 32, 64 and 128, grids covering
  // n = 1000.
  std::vector<std::string> seen;
  for (const CallSite &site : host.sites) {
    ASSERT_TRUE(site.block[0].isConstant()) << site.line;
    ASSERT_TRUE(site.grid[0].isConstant()) << site.line;
    seen.push_back(std::to_string(site.line) + ": " + std::to_string(site.grid[0].integer) + "x" +
                   std::to_string(site.block[0].integer));
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"11: 16x64", "11: 32x32", "11: 8x128", "21: 16x64",
                                            "21: 32x32", "21: 8x128"}));
}

TEST(CallSiteReader, FloatArgumentsTheHostFixesAreConstants) {
  HostCode host = readInput("float_arguments.cu");
  // main's launches with rate as initialized (one passing rows, 32.7f, for
  // the integer n: 32), then the launcher's once per call: the variable's
  // 1e-3f and the literal 0.5f.
  std::vector<double> rates;
  for (const CallSite &site : host.sites) {
    ASSERT_EQ(site.arguments.size(), 3u);
    ASSERT_TRUE(site.arguments[1].isConstant()) << site.line;
    EXPECT_FALSE(site.arguments[1].isFloat);
    EXPECT_EQ(site.arguments[1].integer, 32);
    ASSERT_TRUE(site.arguments[2].isConstant()) << site.line;
    EXPECT_TRUE(site.arguments[2].isFloat);
    rates.push_back(site.arguments[2].real);
  }
  std::sort(rates.begin(), rates.end());
  ASSERT_EQ(rates.size(), 4u);
  EXPECT_FLOAT_EQ(float(rates[0]), 1e-3f);
  EXPECT_FLOAT_EQ(float(rates[2]), 1e-3f);
  EXPECT_DOUBLE_EQ(rates[3], 0.5);
}

TEST(CallSiteReader, AKernelTemplateDeducedFromTheLaunchIsTheCompiledInstantiation) {
  HostCode host = readInput("deduced_kernel.cu");
  // The launcher's call binds n and threads; the one instantiation the
  // compiled code launches on line 12 names the kernel.
  ASSERT_EQ(host.sites.size(), 1u);
  const CallSite &site = host.sites[0];
  EXPECT_EQ(site.mangledName, "_Z8scaleAllIfEvPT_i");
  EXPECT_EQ(site.line, 12u);
  ASSERT_EQ(site.arguments.size(), 2u);
  ASSERT_TRUE(site.arguments[1].isConstant());
  EXPECT_EQ(site.arguments[1].integer, 1000);
  EXPECT_EQ(site.grid[0].integer, 8);
  EXPECT_EQ(site.block[0].integer, 128);
  EXPECT_EQ(site.allocations[0].substr(0, 9), "cudaMallo");
}

TEST(CallSiteReader, ALauncherReachedThroughSeveralCallsReadsEachLaunchItMakesOnce) {
  HostCode host = readInput("repeated_paths.cu");
  // (kernel, line, block, n) of every site.
  std::multiset<std::tuple<std::string, uint32_t, int64_t, int64_t>> read;
  for (const CallSite &site : host.sites) {
    ASSERT_TRUE(site.block[0].isConstant()) << describe(site);
    ASSERT_EQ(site.arguments.size(), 2u);
    ASSERT_TRUE(site.arguments[1].isConstant()) << describe(site);
    read.emplace(site.kernel, site.line, site.block[0].integer, site.arguments[1].integer);
  }
  // `launch(data, 4096, which)` reached through `repeat(data, 0)` and
  // `repeat(data, 1)` takes one case each: each launch once, and no
  // `negate` with the n = 1024 of a call whose case is `halve`'s; the `if`
  // on a bound `wide` takes its then-branch only; `repeat`'s own launch,
  // read once per call of `repeat` with the same values, is one site; a
  // `which` of 0 only without command-line arguments takes both cases.
  std::multiset<std::tuple<std::string, uint32_t, int64_t, int64_t>> expected = {
      {"halve", 21, 128, 4096}, {"halve", 21, 128, 1024}, {"negate", 24, 64, 4096},
      {"halve", 31, 256, 2048}, {"halve", 40, 512, 4096}, {"halve", 21, 128, 512},
      {"negate", 24, 64, 512}};
  EXPECT_EQ(read, expected);
}

TEST(CallSiteReader, ASwitchCaseFixesItsSelectorInTheCasesStatements) {
  HostCode host = readInput("switch_launcher.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  // case 128: threads is 128, so are the block and the shared bytes.
  ASSERT_TRUE(host.sites[0].block[0].isConstant());
  EXPECT_EQ(host.sites[0].block[0].integer, 128);
  EXPECT_EQ(withN(host.sites[0].sharedBytes, 0), 512);
  // case 32: case 64: either value reaches the launch: not known, so the
  // block and the shared bytes follow one searched `threads`.
  EXPECT_EQ(variablesOf(host.sites[1], host.sites[1].block[0]),
            std::vector<std::string>{"threads"});
  EXPECT_EQ(variablesOf(host.sites[1], host.sites[1].sharedBytes),
            std::vector<std::string>{"threads"});
  // ... and the labels that reach the launch constrain it: 32 or 64.
  ASSERT_EQ(host.sites[1].constraints.size(), 1u);
  const CallSite::Constraint &labels = host.sites[1].constraints[0];
  EXPECT_EQ(labels.text, "threads == 32 || threads == 64");
  uint32_t threads = host.sites[1].variables.at(0).index;
  for (int64_t value : {16, 32, 64, 96}) {
    std::optional<int64_t> holds = evaluate(labels.holds, [&](uint32_t index) {
      return index == threads ? std::optional<int64_t>(value) : std::nullopt;
    });
    EXPECT_EQ(holds, value == 32 || value == 64 ? 1 : 0) << value;
  }
}

TEST(CallSiteReader, ValuesTheCommandLineOverridesAreTheDefaultsWithoutArguments) {
  HostCode host = readInput("command_line.cu");
  ASSERT_EQ(host.sites.size(), 3u);
  const CallSite &add = host.sites[0];
  // `if (argc >= 2) offset = atoi(...)`: 0; `for (i = 1; i < argc; ...) n =`:
  // still 1 << 12; `if (hasFlag(argc, argv, ...)) threads = ...`: 128.
  ASSERT_TRUE(add.arguments[1].isConstant());
  EXPECT_EQ(add.arguments[1].integer, 0);
  ASSERT_TRUE(add.arguments[2].isConstant());
  EXPECT_EQ(add.arguments[2].integer, 4096);
  ASSERT_TRUE(add.block[0].isConstant());
  EXPECT_EQ(add.block[0].integer, 128);
  ASSERT_TRUE(add.grid[0].isConstant());
  EXPECT_EQ(add.grid[0].integer, 32);
  // A getopt loop's body does not run: blocksWanted stays 0.
  const CallSite &scaled = host.sites[1];
  ASSERT_TRUE(scaled.grid[0].isConstant());
  EXPECT_EQ(scaled.grid[0].integer, 32);
  // `argc > 2 ? atoi(argv[2]) : 3` is 3, but a change under a condition
  // the command line does not decide (`n > 100 && ...`) still counts.
  EXPECT_EQ(variablesOf(scaled, scaled.arguments[2]),
            std::vector<std::string>{"unknown"});
  ASSERT_TRUE(host.sites[2].arguments[1].isConstant());
  EXPECT_EQ(host.sites[2].arguments[1].integer, 3);
  // The branch taken without arguments (an else) sets its variable: shift
  // is 4 in the plain run, so times << shift is 3 << 4.
  ASSERT_TRUE(host.sites[2].arguments[2].isConstant());
  EXPECT_EQ(host.sites[2].arguments[2].integer, 48);
}

TEST(CallSiteReader, LaunchesInTemplatesComeFromTheCompiledHostCode) {
  HostCode host = readInput("compiled_launches.cu");
  auto siteOf = [&](const std::string &symbol) -> const CallSite * {
    for (const CallSite &site : host.sites)
      if (site.mangledName == symbol)
        return &site;
    return nullptr;
  };
  // widthK<32> and widthK<16>: only a function object's call operator
  // reaches their launcher; the compiled code folds each block.
  const CallSite *wide = siteOf("_Z6widthKILi32EEvPf");
  ASSERT_NE(wide, nullptr);
  // The file as given, whatever directory it shares with the working one.
  EXPECT_EQ(wide->file, std::string(SIMULEE_SOURCE_DIR) + "/tests/host/inputs/compiled_launches.cu");
  EXPECT_EQ(wide->line, 9u);
  EXPECT_EQ(wide->block[0].integer, 32);
  EXPECT_EQ(wide->block[1].integer, 4);
  // The syntax tree's grid, with W as the instantiation's: n is searched.
  EXPECT_EQ(variablesOf(*wide, wide->grid[0]), std::vector<std::string>{"n"});
  const CallSite *narrow = siteOf("_Z6widthKILi16EEvPf");
  ASSERT_NE(narrow, nullptr);
  EXPECT_EQ(narrow->block[0].integer, 16);
  EXPECT_EQ(narrow->block[1].integer, 8);
  // widthK<4> is instantiated but behind `false &&`: never launched.
  EXPECT_EQ(siteOf("_Z6widthKILi4EEvPf"), nullptr);
  ASSERT_TRUE(host.compiledLaunches.has_value());
  EXPECT_TRUE(host.compiledLaunches->count("_Z6widthKILi32EEvPf"));
  EXPECT_FALSE(host.compiledLaunches->count("_Z6widthKILi4EEvPf"));
  // The table's kernels are launched through a pointer: both may be.
  EXPECT_TRUE(host.compiledLaunches->count("_Z5firstPf"));
  EXPECT_TRUE(host.compiledLaunches->count("_Z6secondPf"));
}

TEST(CallSiteReader, HostCodeWithoutLaunchesInTemplatesIsNotCompiled) {
  EXPECT_FALSE(readInput("allocations.cu").compiledLaunches.has_value());
}

TEST(CallSiteReader, ACompiledLaunchKeepsTheConstantsItsStubIsPassed) {
  HostCode host = readInput("compiled_arguments.cu");
  ASSERT_EQ(host.sites.size(), 1u);
  const CallSite &site = host.sites[0];
  EXPECT_EQ(site.mangledName, "_Z6spreadILi64EEv4Spanif");
  EXPECT_EQ(site.block[0].integer, 64);
  EXPECT_EQ(site.grid[0].integer, 1);
  // The syntax tree's arguments (count: launchSpread's parameter, not
  // known), and beside them the compiled code's, with main's constants.
  ASSERT_EQ(site.arguments.size(), 3u);
  EXPECT_FALSE(site.arguments[1].isConstant());
  // The struct as two eightbytes (its pointer, its length), then count and scale.
  ASSERT_EQ(site.loweredArguments.size(), 4u);
  EXPECT_TRUE(site.loweredArguments[0].isUnknown());
  EXPECT_EQ(site.loweredArguments[1].integer, 256);
  EXPECT_EQ(site.loweredArguments[2].integer, 100);
  ASSERT_TRUE(site.loweredArguments[3].isConstant());
  EXPECT_DOUBLE_EQ(site.loweredArguments[3].real, 2.5);
}

namespace {

// Whether every constraint of `site` holds with the given arguments.
bool holdsWith(const CallSite &site, const std::vector<std::optional<int64_t>> &arguments) {
  for (const CallSite::Constraint &constraint : site.constraints) {
    std::optional<int64_t> value = evaluate(constraint.holds, [&](uint32_t index) {
      return index < arguments.size() ? arguments[index] : std::nullopt;
    });
    if (value && *value == 0)
      return false;
  }
  return true;
}

} // namespace

TEST(CallSiteReader, LoopsEndingOnlyWhenTheirTestAllowsConstrainTheLaunchesAfter) {
  HostCode host = readInput("loop_exits.cu");
  ASSERT_EQ(host.sites.size(), 5u);
  // exchange(d, j, k, n): n is a power of two once its loop ends; k doubles
  // from 2 up to n; j halves from k >> 1.
  const CallSite &exchange = host.sites[0];
  EXPECT_TRUE(holdsWith(exchange, {std::nullopt, 128, 256, 1024}));
  EXPECT_TRUE(holdsWith(exchange, {std::nullopt, 1, 2, 2}));
  EXPECT_FALSE(holdsWith(exchange, {std::nullopt, 128, 256, 1000}));  // n
  EXPECT_FALSE(holdsWith(exchange, {std::nullopt, 128, 2048, 1024})); // k past n
  EXPECT_FALSE(holdsWith(exchange, {std::nullopt, 128, 384, 1024}));  // k doubles
  EXPECT_FALSE(holdsWith(exchange, {std::nullopt, 256, 256, 1024}));  // j from k / 2
  EXPECT_FALSE(holdsWith(exchange, {std::nullopt, 96, 256, 1024}));   // j halves
  EXPECT_FALSE(holdsWith(exchange, {std::nullopt, 0, 256, 1024}));    // j > 0
  // scale(d, m): the break's condition holds after `while (true)`.
  const CallSite &scale = host.sites[1];
  EXPECT_TRUE(scale.arguments[1].isUnknown()); // read by std::cin >> m
  EXPECT_TRUE(holdsWith(scale, {std::nullopt, 64}));
  EXPECT_FALSE(holdsWith(scale, {std::nullopt, 48}));
  EXPECT_FALSE(holdsWith(scale, {std::nullopt, 0}));
  // trim(d, t, s): t in [1, 64] after its do-while; s from t down by 4.
  const CallSite &trim = host.sites[2];
  EXPECT_TRUE(holdsWith(trim, {std::nullopt, 10, 6}));
  EXPECT_TRUE(holdsWith(trim, {std::nullopt, 10, 2}));
  EXPECT_FALSE(holdsWith(trim, {std::nullopt, 65, 65})); // t
  EXPECT_FALSE(holdsWith(trim, {std::nullopt, 10, 14})); // s above t
  EXPECT_FALSE(holdsWith(trim, {std::nullopt, 10, 7}));  // not t - 4i
  // trim(d, u, 0): the break that changes u leaves nothing known.
  EXPECT_TRUE(host.sites[3].constraints.empty());
  // trim(d, t, 0) in `for (t = t / 2; t > 0; t /= 2)`: t > 0, not t <= t / 2.
  EXPECT_TRUE(holdsWith(host.sites[4], {std::nullopt, 5, 0}));
  EXPECT_FALSE(holdsWith(host.sites[4], {std::nullopt, 0, 0}));
}

TEST(CallSiteReader, BranchesTheConstantsDecideAreTakenOrNeverRun) {
  HostCode host = readInput("decided_branches.cu");
  // `if (batch <= 4)` with batch = 32: rows is never launched.
  ASSERT_EQ(host.sites.size(), 1u);
  const CallSite &site = host.sites[0];
  EXPECT_EQ(site.kernel, "tiles");
  // The else-if chain on width = 512 takes its second branch; the plain run
  // (no arguments) takes the else of `if (argc > 1)`.
  ASSERT_TRUE(site.block[0].isConstant());
  EXPECT_EQ(site.block[0].integer, 512);
  ASSERT_TRUE(site.grid[0].isConstant());
  EXPECT_EQ(site.grid[0].integer, 32);
  ASSERT_TRUE(site.arguments[1].isConstant());
  EXPECT_EQ(site.arguments[1].integer, 512);
}

// A lambda kept in a variable is a launcher as a function is: its calls
// bind its parameters (the grid, the kernel a generic lambda is handed); a
// pointer a function returns names every kernel its returns name.
TEST(CallSiteReader, LambdasLaunchAsFunctionsDoAndFunctionsHandBackKernels) {
  HostCode host = readInput("lambda_launchers.cu");
  std::map<std::string, std::vector<const CallSite *>> byKernel;
  for (const CallSite &site : host.sites)
    byKernel[site.kernel].push_back(&site);
  ASSERT_EQ(byKernel["fill"].size(), 1u);
  const CallSite &fill = *byKernel["fill"][0];
  ASSERT_TRUE(fill.grid[0].isConstant());
  EXPECT_EQ(fill.grid[0].integer, 4); // run(4)
  EXPECT_EQ(fill.block[0].integer, 256);
  ASSERT_TRUE(fill.arguments[1].isConstant());
  EXPECT_EQ(fill.arguments[1].integer, 1000); // n, captured
  for (const char *kernel : {"twice", "thrice"}) {
    ASSERT_EQ(byKernel[kernel].size(), 1u) << kernel;
    EXPECT_EQ(byKernel[kernel][0]->grid[0].integer, 8);
    EXPECT_EQ(byKernel[kernel][0]->block[0].integer, 128);
  }
  EXPECT_TRUE(byKernel["unused"].empty());
  EXPECT_TRUE(host.namedFunctions.count("twice"));
  EXPECT_TRUE(host.measuredOnly.empty());
  // kernelFor returns either instantiation of stream (nullptr aside).
  size_t streamed = 0;
  for (const CallSite &site : host.sites)
    if (site.kernel.rfind("stream", 0) == 0) {
      ++streamed;
      EXPECT_EQ(site.grid[0].integer, 2);
      EXPECT_EQ(site.block[0].integer, 512);
    }
  EXPECT_EQ(streamed, 2u);
}

// A variable read where nothing is known of it (the right-hand side of
// `bytes = std::max(bytes, 4096)`) is a searched leaf; read where that
// assignment gives it a value (the allocation, the argument), it is that
// value, so the buffer and the mask the kernel gets agree.
TEST(CallSiteReader, AVariableAnAssignmentBoundsHasThatValueWhereverItIsRead) {
  HostCode host = readInput("reassigned_leaf.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  for (const CallSite &site : host.sites) {
    ASSERT_EQ(site.variables.size(), 1u);
    uint32_t leaf = site.variables[0].index;
    for (int64_t before : {256, 4096, 1 << 20}) {
      int64_t bytes = std::max<int64_t>(before, 4096);
      EXPECT_EQ(withN(site.allocationBytes[0], before, leaf), bytes) << before;
      // The mask, and `bytes` passed as it is: never below 4096.
      EXPECT_EQ(withN(site.arguments[1], before, leaf),
                &site == &host.sites[0] ? bytes / 4 - 1 : bytes)
          << before;
    }
  }
}

// Helpers with loops run as procedures at the launch's values: of
// constants, their value; of a searched value, a formula that calls them;
// one that never returns within its step budget, nothing.
TEST(CallSiteReader, HelpersWithLoopsRunAsProcedures) {
  HostCode host = readInput("loop_helpers.cu");
  ASSERT_EQ(host.sites.size(), 3u);
  const CallSite &first = host.sites[0];
  ASSERT_TRUE(first.grid[0].isConstant());
  EXPECT_EQ(first.grid[0].integer, 32); // gcd(96, 64)
  ASSERT_TRUE(first.block[0].isConstant());
  EXPECT_EQ(first.block[0].integer, 5); // digits(12345)
  ASSERT_EQ(first.variables.size(), 1u);
  uint32_t leaf = first.variables[0].index;
  // floorPow2 of the searched size, a quarter of it minus one as the mask.
  EXPECT_EQ(withN(first.allocationBytes[0], 1000, leaf), 512);
  EXPECT_EQ(withN(first.arguments[1], 1000, leaf), 127);
  EXPECT_EQ(withN(first.arguments[1], 4096, leaf), 1023);
  EXPECT_EQ(withN(first.allocationBytes[0], 0, leaf), 0);
  ASSERT_TRUE(host.sites[1].grid[0].isConstant());
  EXPECT_EQ(host.sites[1].grid[0].integer, 30);   // evenSum(10), continue and break
  EXPECT_TRUE(host.sites[2].grid[0].isUnknown()); // spin(1) never returns
}

TEST(CallSiteReader, KernelsOnlyMeasuredOrConfiguredAreNotNamed) {
  HostCode host = readInput("inert_kernels.cu");
  EXPECT_FALSE(host.namedFunctions.count("measured"));
  EXPECT_FALSE(host.namedFunctions.count("configured"));
  EXPECT_TRUE(host.namedFunctions.count("forwarded"));
  EXPECT_TRUE(host.namedFunctions.count("stored"));
  ASSERT_EQ(host.sites.size(), 1u);
  EXPECT_EQ(host.sites[0].kernel, "forwarded");
  EXPECT_EQ(host.measuredOnly, (std::set<std::string>{"configured", "measured"}));
  EXPECT_TRUE(host.definesMain);
}

namespace {

// Whether every constraint of `site` holds with its searched variables
// (CallSite::Variable) set by name and its arguments by "#index"; a
// constraint reading any other leaf is taken to hold.
bool holdsNamed(const CallSite &site, const std::map<std::string, int64_t> &values) {
  auto valueOf = [&](uint32_t index) -> std::optional<int64_t> {
    if (auto argument = values.find("#" + std::to_string(index)); argument != values.end())
      return argument->second;
    for (const CallSite::Variable &variable : site.variables)
      if (variable.index == index)
        if (auto value = values.find(variable.name); value != values.end())
          return value->second;
    return std::nullopt;
  };
  for (const CallSite::Constraint &constraint : site.constraints)
    if (std::optional<int64_t> value = evaluate(constraint.holds, valueOf); value && *value == 0)
      return false;
  return true;
}

} // namespace

TEST(CallSiteReader, GuardsOfTheFunctionThatParsedAStructHoldWhereverItIsPassed) {
  HostCode host = readInput("parsed_options.cu");
  std::map<int, const CallSite *> byLine;
  for (const CallSite &site : host.sites)
    byLine[site.line] = &site;
  ASSERT_EQ(byLine.size(), 4u);
  // In main, as parse returned it: threads in [32, 256], a multiple of 32;
  // n in [1024, 2^24]. `unchecked` was changed after its check.
  const CallSite &direct = *byLine.at(77);
  std::map<std::string, int64_t> good = {
      {"o.threads", 64}, {"o.n", 4096}, {"o.iters", 3}, {"o.unchecked", 100}};
  EXPECT_TRUE(holdsNamed(direct, good));
  for (auto [name, value] : std::vector<std::pair<std::string, int64_t>>{
           {"o.threads", 16}, {"o.threads", 512}, {"o.threads", 48}, {"o.n", 100}}) {
    std::map<std::string, int64_t> bad = good;
    bad[name] = value;
    EXPECT_FALSE(holdsNamed(direct, bad)) << name << " = " << value;
  }
  // Through measure(o, d) and launch(o, d): the same checks, and iters >= 1.
  const CallSite &launched = *byLine.at(64);
  EXPECT_TRUE(holdsNamed(launched, good));
  EXPECT_FALSE(holdsNamed(launched, {{"o.threads", 33}, {"o.n", 4096}, {"o.iters", 3}}));
  EXPECT_FALSE(holdsNamed(launched, {{"o.threads", 64}, {"o.n", 4096}, {"o.iters", 0}}));
  // In the lambda, which captures o and is passed o.iters (its argument 2):
  // the checks of parse, and main's own early exit on half (= n / 2) before
  // the call.
  const CallSite &lambda = *byLine.at(82);
  EXPECT_TRUE(holdsNamed(lambda, {{"o.threads", 64}, {"o.n", 4096}, {"#2", 1}}));
  EXPECT_FALSE(holdsNamed(lambda, {{"o.threads", 64}, {"o.n", 3072}, {"#2", 1}}));
  EXPECT_FALSE(holdsNamed(lambda, {{"o.threads", 64}, {"o.n", 4096}, {"#2", 0}}));
  EXPECT_FALSE(holdsNamed(lambda, {{"o.threads", 8}, {"o.n", 4096}, {"#2", 1}}));
  // parseLoosely returns early past its check: nothing holds of loose.iters.
  EXPECT_TRUE(byLine.at(85)->constraints.empty());
}

TEST(CallSiteReader, ValuesTheLaunchingFunctionComputesWithLoopsAreProcedures) {
  HostCode host = readInput("launch_loops.cu");
  ASSERT_EQ(host.sites.size(), 3u);
  const CallSite &sized = host.sites[0];
  auto at = [&](const SiteValue &value, int64_t stride, int64_t requested) {
    if (value.isConstant())
      return std::optional<int64_t>(value.integer);
    std::map<std::string, int64_t> values = {{"stride", stride}, {"requested", requested}};
    return value.isFormula()
               ? evaluate(value.formula,
                          [&](uint32_t index) -> std::optional<int64_t> {
                            if (index == 2)
                              return stride; // the kernel's argument
                            for (const CallSite::Variable &variable : sized.variables)
                              if (variable.index == index && values.count(variable.name))
                                return values.at(variable.name);
                            return std::nullopt;
                          })
               : std::nullopt;
  };
  // requested rounded up to a power of two, then doubled past 255 * stride + 16.
  EXPECT_EQ(at(sized.arguments[1], 1, 1000), 1023);
  EXPECT_EQ(at(sized.arguments[1], 8, 1000), 4095);
  EXPECT_EQ(at(sized.arguments[1], 1, 5000), 8191);
  EXPECT_EQ(at(sized.sharedBytes, 1, 1000), 4096);
  EXPECT_EQ(at(sized.allocationBytes[0], 8, 1000), 16384);
  // Two variables changed by one loop; a variable passed by reference.
  EXPECT_FALSE(host.sites[1].grid[0].isFormula() &&
               host.sites[1].grid[0].formula.nodes.back().op == Formula::Op::Call);
  EXPECT_FALSE(host.sites[2].block[0].isFormula() &&
               host.sites[2].block[0].formula.nodes.back().op == Formula::Op::Call);
}

TEST(CallSiteReader, BuffersSizedAtRunTimeKeepTheirSizeThroughLaunchers) {
  HostCode host = readInput("launcher_allocations.cu");
  // launch(a, n) through twice(a, n), launch(b, n), launchSized(s, c).
  std::vector<const CallSite *> launched, sized;
  for (const CallSite &site : host.sites)
    (site.line == 15 ? launched : sized).push_back(&site);
  ASSERT_EQ(sized.size(), 1u);
  // n * sizeof(float) bytes, where n is the launch's argument 1.
  int sizedByN = 0, unknown = 0;
  for (const CallSite *site : launched) {
    if (site->allocationBytes[0].isFormula()) {
      ++sizedByN;
      EXPECT_EQ(withN(site->allocationBytes[0], 1000), 4000);
      EXPECT_EQ(site->allocationBytes[0].text, "n * sizeof(float)");
    } else {
      ++unknown; // b, of m floats: m is nothing the launch reads
      EXPECT_TRUE(site->allocationBytes[0].isUnknown());
    }
  }
  EXPECT_EQ(sizedByN, 1);
  EXPECT_EQ(unknown, 1);
  // s.n * sizeof(float), through the struct's member the launch reads.
  const CallSite &member = *sized[0];
  ASSERT_TRUE(member.allocationBytes[0].isFormula());
  EXPECT_EQ(variablesOf(member, member.allocationBytes[0]), std::vector<std::string>{"s.n"});
  EXPECT_EQ(variablesOf(member, member.arguments[1]), std::vector<std::string>{"s.n"});
}

TEST(CallSiteReader, IntegersComputedWhereALauncherIsCalledFollowTheCallersVariables) {
  HostCode host = readInput("launcher_formulas.cu");
  ASSERT_EQ(host.sites.size(), 2u);
  std::map<int64_t, const CallSite *> byStride;
  for (const CallSite &site : host.sites) {
    ASSERT_TRUE(site.arguments[2].isConstant()) << site.line;
    byStride[site.arguments[2].integer] = &site;
  }
  ASSERT_EQ(byStride.size(), 2u);
  for (const auto &[stride, site] : byStride) {
    // Both pass 2 * n of main's n: run(d, 2 * n, 1) and half(d, 4 * n),
    // which calls run(d, m / 2, 2).
    ASSERT_EQ(variablesOf(*site, site->arguments[1]), std::vector<std::string>{"n"}) << stride;
    uint32_t n = site->arguments[1].formula.arguments().front();
    EXPECT_EQ(withN(site->arguments[1], 1024, n), 2048) << stride;
    EXPECT_EQ(withN(site->grid[0], 1024, n), 8) << stride;
    EXPECT_EQ(withN(site->allocationBytes[0], 1024, n), 32768) << stride;
    // main's `if (n % 512 != 0) return 1;` holds of the same n.
    bool rejects = false, accepts = true;
    for (const CallSite::Constraint &constraint : site->constraints) {
      rejects |= withN(SiteValue::ofFormula(constraint.holds, ""), 1000, n) == 0;
      accepts &= withN(SiteValue::ofFormula(constraint.holds, ""), 1024, n) != 0;
    }
    EXPECT_TRUE(rejects && accepts) << stride;
  }
}

TEST(CallSiteReader, LaunchesInMethodsReadTheFieldsTheObjectsConstructorSet) {
  HostCode host = readInput("class_members.cu");
  std::vector<const CallSite *> solver, grid, resized;
  for (const CallSite &site : host.sites)
    (site.line == 13 ? solver : site.line == 32 ? grid : resized).push_back(&site);
  ASSERT_EQ(solver.size(), 4u);
  ASSERT_EQ(grid.size(), 1u);
  ASSERT_EQ(resized.size(), 1u);
  // Solver t(4096) and new Solver(8192): n is 4096 and 8192; Solver s(n):
  // main's n, with its guard; Solver loose(unchecked): main's unchecked,
  // which no guard reads.
  std::map<int64_t, const CallSite *> fixedBy;
  const CallSite *passed = nullptr, *loose = nullptr;
  for (const CallSite *site : solver)
    (site->arguments[1].isConstant() ? fixedBy[site->arguments[1].integer]
     : site->constraints.empty()     ? loose
                                     : passed) = site;
  ASSERT_EQ(fixedBy.size(), 2u);
  ASSERT_TRUE(fixedBy.count(4096) && fixedBy.count(8192) && passed && loose);
  EXPECT_EQ(variablesOf(*loose, loose->grid[0]), std::vector<std::string>{"unchecked"});
  const CallSite *fixed = fixedBy.at(4096);
  EXPECT_EQ(fixedBy.at(8192)->grid[0].integer, 32);
  ASSERT_TRUE(fixed->grid[0].isConstant());
  EXPECT_EQ(fixed->grid[0].integer, 16);
  // Its buffer, allocated in the constructor from its parameter.
  ASSERT_TRUE(fixed->allocationBytes[0].isConstant());
  EXPECT_EQ(fixed->allocationBytes[0].integer, 4096 * 4);
  ASSERT_EQ(variablesOf(*passed, passed->grid[0]), std::vector<std::string>{"n"});
  uint32_t n = passed->grid[0].formula.arguments().front();
  EXPECT_EQ(withN(passed->grid[0], 2048, n), 8);
  ASSERT_TRUE(passed->allocationBytes[0].isFormula());
  EXPECT_EQ(withN(passed->allocationBytes[0], 2048, n), 2048 * 4);
  ASSERT_EQ(passed->constraints.size(), 1u);
  SiteValue guard = SiteValue::ofFormula(passed->constraints[0].holds, "");
  EXPECT_EQ(withN(guard, 512, n), 0);
  EXPECT_EQ(withN(guard, 2048, n), 1);
  // Grid g(64, 32) sets width = w and this->height = h * 2 in its body.
  ASSERT_TRUE(grid[0]->grid[0].isConstant() && grid[0]->grid[1].isConstant());
  EXPECT_EQ(grid[0]->grid[0].integer, 4);
  EXPECT_EQ(grid[0]->grid[1].integer, 4);
  ASSERT_TRUE(grid[0]->allocationBytes[0].isConstant());
  EXPECT_EQ(grid[0]->allocationBytes[0].integer, 64 * 64 * 4);
  // Resized's n changes in resize(), defined after main: not the 2048 its
  // constructor set.
  EXPECT_FALSE(resized[0]->arguments[1].isConstant());
  ASSERT_TRUE(resized[0]->allocationBytes[0].isConstant());
  EXPECT_EQ(resized[0]->allocationBytes[0].integer, 8192 * 4);
}

TEST(CallSiteReader, Dim3sPassedToLaunchersAndMethodsAreTheLaunchShapes) {
  HostCode host = readInput("dim3_launchers.cu");
  ASSERT_EQ(host.sites.size(), 3u);
  std::map<int64_t, const CallSite *> byBlock;
  for (const CallSite &site : host.sites) {
    ASSERT_TRUE(site.block[0].isConstant()) << site.line;
    byBlock[site.block[0].integer] = &site;
  }
  ASSERT_EQ(byBlock.size(), 3u);
  // run(dim3((n + 255) / 256), dim3(256), d, n): the grid follows n.
  const CallSite &direct = *byBlock.at(256);
  EXPECT_EQ(withN(direct.grid[0], 1000), 4);
  EXPECT_EQ(withN(direct.allocationBytes[0], 1000), 4000);
  // outer(dim3((n + 127) / 128), d, n) -> run(grid, dim3(128), d, n).
  const CallSite &nested = *byBlock.at(128);
  EXPECT_EQ(withN(nested.grid[0], 1000), 8);
  // launcher.launch((void *)fill, dim3(8, 2), dim3(32, 4), args): a method.
  const CallSite &method = *byBlock.at(32);
  EXPECT_EQ(method.kernel, "fill");
  ASSERT_TRUE(method.grid[0].isConstant() && method.grid[1].isConstant());
  EXPECT_EQ(method.grid[0].integer, 8);
  EXPECT_EQ(method.grid[1].integer, 2);
  ASSERT_TRUE(method.block[1].isConstant());
  EXPECT_EQ(method.block[1].integer, 4);
  // Its kernel arguments are main's array {&d, &n}: d's n floats.
  ASSERT_EQ(method.arguments.size(), 2u);
  EXPECT_EQ(method.arguments[1].text, "n");
  EXPECT_EQ(withN(method.allocationBytes[0], 1000), 4000);
}
