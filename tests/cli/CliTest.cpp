// End-to-end tests of the `simulee` command: every error path exits 2 with
// one line naming the file (and kernel, and the bad thing); findings exit 1
// in every output format; search is reproducible per seed; --dump, --launch,
// --save-launch and scan work on real files.
#include "CliSupport.h"

namespace simulee::cli_test {
namespace {


// --- Input files ---------------------------------------------------------

TEST(CliErrors, MissingFileNamesTheFile) {
  std::string path = input("no_such_kernel.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path}), {path, "no such file"}));
  EXPECT_TRUE(isOneLineError(simulee({path, "--quiet"}), {path}));
}

TEST(CliErrors, DirectoryIsNotAKernelFile) {
  std::string dir = std::string(SIMULEE_SOURCE_DIR) + "/tests/cli/inputs";
  EXPECT_TRUE(isOneLineError(simulee({"run", dir}), {dir, "directory"}));
}

TEST(CliErrors, UnknownExtensionIsRejected) {
  std::string path = input("not_a_kernel.txt");
  EXPECT_TRUE(isOneLineError(simulee({"run", path}), {path, "unknown file type"}));
}

TEST(CliErrors, UnparsableIrShowsTheParserMessage) {
  std::string path = input("garbage.ll");
  Outcome o = simulee({"run", path});
  EXPECT_TRUE(isOneLineError(o, {path, "parse"}));
  EXPECT_TRUE(contains(o.err, "expected top-level entity")) << o;
}

TEST(CliErrors, CudaSyntaxErrorShowsClangDiagnostics) {
  std::string path = input("syntax_error.cu");
  Outcome o = simulee({"run", path});
  EXPECT_TRUE(isOneLineError(o, {path}));
  // clang's own text, with the line and the offending name.
  EXPECT_TRUE(contains(o.err, "syntax_error.cu:3:")) << o;
  EXPECT_TRUE(contains(o.err, "undeclared_name")) << o;
}

TEST(CliErrors, DynamicParallelismIsNamedAsUnsupported) {
  std::string path = input("dynamic_parallelism.cu");
  Outcome o = simulee({path});
  EXPECT_EQ(o.status, 2) << o;
  EXPECT_TRUE(contains(o.err, "dynamic_parallelism.cu:5:")) << o;
  EXPECT_TRUE(contains(o.err, "dynamic parallelism")) << o;
}

TEST(CliErrors, FileWithoutKernelIsAnError) {
  std::string path = input("no_kernel.ll");
  EXPECT_TRUE(isOneLineError(simulee({"run", path}), {path, "no kernel"}));
  EXPECT_TRUE(isOneLineError(simulee({path, "--quiet"}), {path, "no kernel"}));
  EXPECT_TRUE(isOneLineError(simulee({"list", path}), {path, "no kernel"}));
}

TEST(CliErrors, CudaFileWithOnlyDeviceFunctionsHasNoKernel) {
  // A __device__ function is not a kernel, however nothing calls it.
  std::string path = input("no_kernel.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path}), {path, "no kernel"}));
  EXPECT_TRUE(isOneLineError(simulee({path, "--quiet"}), {path, "no kernel"}));
}

// --- Kernel and argument selection ---------------------------------------

TEST(CliErrors, UnknownKernelListsTheKernels) {
  std::string path = input("two_kernels.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--kernel", "nope"}),
                             {path, "'nope'", "scale", "fill"}));
}

TEST(CliErrors, RunWithSeveralKernelsNeedsKernelOption) {
  std::string path = input("two_kernels.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path}), {path, "scale", "fill", "--kernel"}));
  EXPECT_EQ(simulee({"run", path, "--kernel", "fill"}).status, 0);
}

TEST(CliErrors, UnknownArgumentNameListsTheParameters) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--arg", "bogus=1"}),
                             {path, "vectorAdd", "'bogus'", "a, b, c, n"}));
}

TEST(CliErrors, NonNumericScalarIsRejected) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(
      isOneLineError(simulee({"run", path, "--arg", "n=abc"}), {path, "vectorAdd", "'abc'", "'n'"}));
}

TEST(CliErrors, OutOfRangeIntegerIsRejected) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--arg", "n=99999999999"}),
                             {path, "vectorAdd", "99999999999", "range"}));
}

TEST(CliErrors, PointerParameterRejectsAScalar) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(
      isOneLineError(simulee({"run", path, "--arg", "a=5"}), {path, "vectorAdd", "'a'", "'5'"}));
}

TEST(CliErrors, BadZerosCountIsRejected) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--arg", "a=zeros:x"}),
                             {path, "vectorAdd", "zeros:x"}));
}

TEST(CliErrors, APointerIntoABufferThatIsNoneIsRejected) {
  std::string path = input("vector_add.cu");
  // Into a scalar, into itself, past the end, an unknown name.
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--arg", "c=same:n"}),
                             {path, "vectorAdd", "same:n", "'n' is no pointer parameter"}));
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--arg", "c=same:c"}),
                             {path, "vectorAdd", "same:c", "'c' is no pointer parameter"}));
  EXPECT_TRUE(isOneLineError(
      simulee({"run", path, "--arg", "a=zeros:16", "--arg", "c=same:a+17", "--grid", "1"}),
      {path, "vectorAdd", "same:a+17", "past the end of 'a'"}));
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--arg", "c=same:q"}),
                             {path, "vectorAdd", "same:q", "'q'"}));
}

TEST(CliErrors, MissingArgumentFileIsRejected) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--arg", "a=@/nonexistent/a.bin"}),
                             {path, "/nonexistent/a.bin"}));
}

// --- Launch limits --------------------------------------------------------

TEST(CliErrors, BlockOverThreadLimitIsRejected) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--block", "2048"}), {path, "vectorAdd", "1024"}));
  EXPECT_TRUE(
      isOneLineError(simulee({"run", path, "--block", "32,32,2"}), {path, "vectorAdd", "1024"}));
}

TEST(CliErrors, BlockOverTheLaunchBoundsIsRejectedAndNeverSearched) {
  std::string path = std::string(SIMULEE_SOURCE_DIR) + "/corpus/launch_bounds_rows.cu";
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--block", "128"}),
                             {path, "addRows", "128 threads", "__launch_bounds__(64)"}));
  Outcome searched = simulee({path, "--block", "128"});
  EXPECT_EQ(searched.status, 2) << searched;
  EXPECT_TRUE(contains(searched.err, "__launch_bounds__(64)")) << searched;
  Outcome within = simulee({"run", path, "--block", "64"});
  EXPECT_EQ(within.status, 0) << within;
}

TEST(CliSearch, BlockShapeTheKernelImpliesIsKeptUnlessExploring) {
  std::string path = std::string(SIMULEE_SOURCE_DIR) + "/corpus/block_sum_fixed256.cu";
  Outcome kept = simulee({path, "--kernel", "blockSum256"});
  EXPECT_EQ(kept.status, 0) << kept;
  EXPECT_TRUE(contains(kept.err + kept.out, "searched with blocks of (256,1,1)")) << kept;
  // Smaller blocks read slots of 'partial' nobody wrote.
  Outcome explored = simulee({path, "--kernel", "blockSum256", "--explore"});
  EXPECT_EQ(explored.status, 1) << explored;
  EXPECT_TRUE(contains(explored.out, "[uninitialized-read]")) << explored;
}

TEST(CliErrors, ZeroBlockDimensionIsRejected) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--block", "0"}), {path, "--block"}));
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--grid", "4,0"}), {path, "--grid"}));
}

TEST(CliErrors, GridOverDimensionLimitIsRejected) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(
      isOneLineError(simulee({"run", path, "--grid", "1,1,70000"}), {path, "vectorAdd", "65535"}));
}

TEST(CliErrors, BlockDepthAndSharedMemoryLimitsAreEnforced) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--block", "1,1,65"}), {path, "64"}));
  EXPECT_TRUE(
      isOneLineError(simulee({"run", path, "--shared-bytes", "100000"}), {path, "100000", "49152"}));
}

TEST(CliErrors, ParameterPositionOutOfRangeIsRejected) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--arg", "9=1"}), {path, "'9'", "a, b, c, n"}));
}

TEST(CliErrors, UnwritableDumpPathIsRejected) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--dump", "c=/nonexistent/dir/c.bin"}),
                             {path, "/nonexistent/dir/c.bin"}));
}

TEST(CliErrors, OversizedLaunchIsRejectedBySearchToo) {
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({path, "--block", "2048", "--quiet"}), {path, "1024"}));
}

TEST(CliErrors, DumpOfScalarParameterIsRejected) {
  TempDir dir;
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--dump", "n=" + dir.file("n.bin")}),
                             {path, "vectorAdd", "'n'", "not a buffer"}));
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--dump", "zz=" + dir.file("z.bin")}),
                             {path, "vectorAdd", "'zz'"}));
}

TEST(CliErrors, MissingLaunchFileIsRejected) {
  std::string launch = "/nonexistent/launch.json";
  EXPECT_TRUE(isOneLineError(simulee({"run", input("vector_add.cu"), "--launch", launch}),
                             {launch}));
}

TEST(CliErrors, GarbageLaunchFileIsRejected) {
  std::string launch = input("garbage_launch.json");
  EXPECT_TRUE(isOneLineError(simulee({"run", input("vector_add.cu"), "--launch", launch}),
                             {launch}));
}

TEST(CliErrors, LaunchFileNamingUnknownKernelIsRejected) {
  TempDir dir;
  std::string launch = dir.file("launch.json");
  std::ofstream(launch) << R"({"kernel": "nope", "grid": [1, 1, 1], "block": [32, 1, 1]})";
  std::string path = input("vector_add.cu");
  EXPECT_TRUE(isOneLineError(simulee({"run", path, "--launch", launch}), {path, "'nope'", "vectorAdd"}));
}

// --- Failures while simulating -------------------------------------------

// A launch that cannot be judged is an inconclusive verdict (exit 3) whose
// cause names the kernel, the thread and the line; it is no usage error.
TEST(CliErrors, EndlessLoopEndsAsNonTerminating) {
  std::string path = input("spin_forever.cu");
  Outcome o = simulee({"run", path, "--arg", "flag=zeros:1", "--budget", "5000"});
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(o.errorLines().empty()) << o;
  for (const char *part : {"inconclusive", "spinForever", "does not terminate", "spin_forever.cu:3"})
    EXPECT_TRUE(contains(o.out, part)) << "lacks " << part << "\n" << o;
}

// A wait on the cycle counter (a busy kernel of a streams or events demo)
// ends: two billion cycles of clock64(), and 10^8 of 32-bit clock() (which
// wraps), pass well inside the step budget that an endless loop exhausts.
TEST(CliErrors, AWaitOnTheCycleCounterEnds) {
  TempDir dir;
  std::string path = dir.file("busy.cu");
  std::ofstream(path) << "__global__ void waitThenStore(int *out, long long cycles) {\n"
                         "  long long start = clock64();\n"
                         "  while (clock64() - start < cycles)\n"
                         "    ;\n"
                         "  unsigned begin = clock();\n"
                         "  while (clock() - begin < 100000000u)\n"
                         "    ;\n"
                         "  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;\n"
                         "}\n";
  Outcome o = simulee({"run", path, "--grid", "2", "--block", "64", "--arg", "cycles=2000000000",
                       "--arg", "out=zeros:128", "--budget", "1000000"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'waitThenStore': clean (1 launch judged)")) << o;
}

// Unsupported value types are named with the instruction and its line.
TEST(CliErrors, WideIntegerInIrNamesTheInstruction) {
  std::string path = input("wide_multiply.ll");
  Outcome o = simulee({"run", path});
  EXPECT_TRUE(isOneLineError(o, {path, "wideSquare", "64 bits"}));
  // The instruction itself, so the user can find it in the .ll file.
  EXPECT_TRUE(contains(o.err, "i128")) << o;
}

TEST(CliErrors, WideIntegerInCudaNamesTheSourceLine) {
  std::string path = input("wide_multiply.cu");
  Outcome o = simulee({"run", path});
  EXPECT_TRUE(isOneLineError(o, {path, "wideMultiply", "64 bits", "wide_multiply.cu:3"}));
}

TEST(CliErrors, WideIntegerReturnNamesTheKernel) {
  // The unsupported type sits in a device function's signature.
  std::string path = input("wide_return.ll");
  EXPECT_TRUE(isOneLineError(simulee({"run", path}), {path, "callsWide", "64 bits"}));
}

TEST(CliErrors, InlineAssemblyNamesInstructionAndLine) {
  std::string path = input("inline_asm.cu");
  Outcome o = simulee({"run", path});
  EXPECT_TRUE(isOneLineError(o, {path, "inlineAsm", "inline assembly", "inline_asm.cu:4", "vabsdiff4"}));
}

TEST(CliErrors, TrapNamesTheThread) {
  std::string path = input("trap.cu");
  Outcome o = simulee({"run", path, "--block", "32"});
  EXPECT_EQ(o.status, 3) << o;
  for (const char *part : {"inconclusive", "trapOnFive", "trap", "thread (5,0,0)", "trap.cu:4"})
    EXPECT_TRUE(contains(o.out, part)) << "lacks " << part << "\n" << o;
}

TEST(CliErrors, UnknownOptionExitsWithTwo) {
  Outcome o = simulee({"run", input("vector_add.cu"), "--no-such-option"});
  EXPECT_EQ(o.status, 2) << o;
}

// --- list and help --------------------------------------------------------

TEST(CliList, PrintsEveryKernelWithItsParameters) {
  Outcome o = simulee({"list", input("two_kernels.cu")});
  ASSERT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "scale(data, factor)")) << o;
  EXPECT_TRUE(contains(o.out, "fill(data, value)")) << o;
}

TEST(CliList, ListOfUnparsableFileIsAnError) {
  std::string path = input("garbage.ll");
  EXPECT_TRUE(isOneLineError(simulee({"list", path}), {path}));
}

TEST(CliHelp, DocumentsTheOptions) {
  Outcome top = simulee({"--help"});
  EXPECT_EQ(top.status, 0) << top;
  for (const char *option : {"--kernel", "--grid", "--block", "--arg", "--format", "--seed",
                             "--save-launch", "--population", "--generations", "--quiet",
                             "--independent-threads", "--lockstep", "--strict", "--record",
                             "--budget", "--output"})
    EXPECT_TRUE(contains(top.out, option)) << "simulee --help lacks " << option;
  for (const char *command : {"run", "list", "scan"})
    EXPECT_TRUE(contains(top.out, command)) << "simulee --help lacks " << command;

  for (const char *word : {"clean", "inconclusive", "Exit status"})
    EXPECT_TRUE(contains(top.out, word)) << "simulee --help lacks " << word;

  // A command's help shows its own options and points at the global ones.
  Outcome run = simulee({"run", "--help"});
  EXPECT_EQ(run.status, 0) << run;
  for (const char *option : {"--dump", "--launch", "simulee --help"})
    EXPECT_TRUE(contains(run.out, option)) << "simulee run --help lacks " << option;
}

// --- Reports --------------------------------------------------------------

TEST(CliRun, RacyKernelReportsRaceWithSourceAndCaret) {
  Outcome o = simulee(racyRun("text"));
  ASSERT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "warning: data race")) << o;
  EXPECT_TRUE(contains(o.out, "reduce_missing_loop_barrier.cu:12:")) << o;
  EXPECT_TRUE(contains(o.out, "sd[tid] += sd[tid + s];")) << o;
  // The caret sits on a line of its own (after the gutter), under the source line.
  std::istringstream lines(o.out);
  bool caret = false;
  for (std::string line; std::getline(lines, line);)
    if (line.find('^') != std::string::npos && line.find_first_not_of(" |^~") == std::string::npos)
      caret = true;
  EXPECT_TRUE(caret) << o;
}

TEST(CliRun, RaceFreeKernelReportsNoFindings) {
  Outcome o = simulee({"run", corpus("reduce_sequential.cu"), "--grid", "2", "--block", "256",
                       "--arg", "n=512", "--arg", "in=random:512", "--arg", "out=zeros:2"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "no findings")) << o;
}

TEST(CliRun, JsonReportParsesAndNamesTheRace) {
  Outcome o = simulee(racyRun("json"));
  ASSERT_EQ(o.status, 1) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(report.is_discarded()) << o;
  ASSERT_TRUE(report.contains("findings")) << o;
  ASSERT_FALSE(report["findings"].empty()) << o;
  EXPECT_EQ(report["findings"][0]["kind"], "data-race") << o;
}

TEST(CliRun, SarifReportIsVersion210WithResults) {
  Outcome o = simulee(racyRun("sarif"));
  ASSERT_EQ(o.status, 1) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(report.is_discarded()) << o;
  EXPECT_EQ(report["version"], "2.1.0") << o;
  ASSERT_TRUE(report["runs"].is_array() && !report["runs"].empty()) << o;
  EXPECT_FALSE(report["runs"][0]["results"].empty()) << o;
}

TEST(CliRun, BothModelRepresentationsFindTheRace) {
  for (const char *record : {"full", "summary"}) {
    std::vector<std::string> args = racyRun("text");
    args.insert(args.end(), {"--record", record});
    Outcome o = simulee(args);
    EXPECT_EQ(o.status, 1) << "--record " << record << "\n" << o;
  }
}

TEST(CliRun, OptimisationLevelOptionIsAccepted) {
  Outcome o = simulee({"run", input("vector_add.cu"), "-O", "3", "--grid", "2", "--block", "64"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(simulee({"run", input("vector_add.cu"), "-O", "7"}).status, 2);
}

TEST(CliRun, ArgumentFileInDumpedSumOut) {
  TempDir dir;
  const int n = 200;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * float(i);
    b[i] = 1000.0f - float(i);
  }
  auto write = [](const std::string &path, const std::vector<float> &values) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char *>(values.data()),
              std::streamsize(values.size() * sizeof(float)));
  };
  write(dir.file("a.bin"), a);
  write(dir.file("b.bin"), b);
  Outcome o = simulee({"run", input("vector_add.cu"), "--grid", "4", "--block", "64",
                       "--arg", "a=@" + dir.file("a.bin"), "--arg", "b=@" + dir.file("b.bin"),
                       "--arg", "c=zeros:256", "--arg", "3=" + std::to_string(n),
                       "--dump", "c=" + dir.file("c.bin")});
  ASSERT_EQ(o.status, 0) << o;
  std::string bytes = readFile(dir.file("c.bin"));
  ASSERT_EQ(bytes.size(), 256 * sizeof(float));
  std::vector<float> c(256);
  std::memcpy(c.data(), bytes.data(), bytes.size());
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
  for (int i = n; i < 256; ++i)
    ASSERT_EQ(c[i], 0.0f) << "element " << i << " is past n";
}

// --- Search mode ----------------------------------------------------------

TEST(CliSearch, FindsBlockSizeDependentRace) {
  Outcome o = simulee({corpus("block_over_64.cu"), "--seed", "3", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "data race")) << o;
  EXPECT_TRUE(o.err.find("generation") == std::string::npos) << "progress despite --quiet\n" << o;
}

TEST(CliSearch, SameSeedGivesIdenticalOutput) {
  std::vector<std::string> args = {corpus("block_over_64.cu"), "--seed", "3", "--quiet"};
  Outcome first = simulee(args), second = simulee(args);
  EXPECT_EQ(first.status, second.status);
  EXPECT_EQ(first.out, second.out);
}

TEST(CliSearch, SavedLaunchReplaysTheRace) {
  TempDir dir;
  std::string saved = dir.file("launch.json");
  Outcome search =
      simulee({corpus("block_over_64.cu"), "--seed", "3", "--quiet", "--save-launch", saved});
  ASSERT_EQ(search.status, 1) << search;
  ASSERT_TRUE(fs::exists(saved));
  nlohmann::json launch = nlohmann::json::parse(readFile(saved), nullptr, false);
  EXPECT_FALSE(launch.is_discarded()) << readFile(saved);

  Outcome replay = simulee({"run", corpus("block_over_64.cu"), "--launch", saved});
  EXPECT_EQ(replay.status, 1) << replay;
  EXPECT_TRUE(contains(replay.out, "data race")) << replay;
}

TEST(CliSearch, FixedSmallBlockHidesTheRace) {
  // A block of 64 threads never takes the racy path; a fixed setting is
  // never mutated by the search.
  Outcome o = simulee({corpus("block_over_64.cu"), "--block", "64", "--seed", "3", "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
}

TEST(CliScan, JsonListsFindingsOfTheRacyFile) {
  TempDir dir;
  for (const char *name : {"block_over_64.cu", "reduce_sequential.cu", "reduce_interleaved.cu"})
    fs::copy_file(corpus(name), dir.file(name));
  Outcome o = simulee({"scan", dir.path(), "--format", "json", "--quiet"});
  ASSERT_EQ(o.status, 1) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o;
  ASSERT_TRUE(report["findings"].is_array()) << o;
  bool racyFileReported = false;
  for (const nlohmann::json &finding : report["findings"]) {
    std::string text = finding.dump();
    EXPECT_FALSE(contains(text, "reduce_sequential.cu")) << "finding in a race-free file\n" << text;
    EXPECT_FALSE(contains(text, "reduce_interleaved.cu")) << "finding in a race-free file\n" << text;
    if (finding["kind"] == "data-race" && contains(text, "block_over_64.cu"))
      racyFileReported = true;
  }
  EXPECT_TRUE(racyFileReported) << o;
}

TEST(CliScan, EmptyDirectoryIsAnError) {
  TempDir dir;
  EXPECT_TRUE(isOneLineError(simulee({"scan", dir.path(), "--quiet"}), {dir.path()}));
}

// The device headers simulee supplies are written once into the user's
// cache, named by their contents, and shared by every later run (a run
// killed by a timeout leaves nothing behind); where the cache cannot be
// written, a run still compiles from a directory of its own.
TEST(CliHeaders, TheDeviceHeadersAreWrittenOnceIntoTheCache) {
  TempDir dir;
  std::string source = dir.write("k.cu", "#include <helper_cuda.h>\n"
                                         "__global__ void k(int *p) { p[threadIdx.x] = 1; }\n");
  std::string cache = dir.file("cache");
  RunSettings settings;
  settings.environment = "XDG_CACHE_HOME=" + cache + " ";
  for (int run = 0; run < 2; ++run) {
    Outcome o = simulee({source, "--grid", "1", "--block", "32"}, settings);
    EXPECT_EQ(o.status, 0) << o;
  }
  std::vector<std::string> written;
  for (const auto &entry : fs::directory_iterator(cache + "/simulee"))
    if (entry.path().filename().string().rfind("include-", 0) == 0)
      written.push_back(entry.path().string());
  ASSERT_EQ(written.size(), 1u);
  EXPECT_TRUE(fs::exists(written[0] + "/helper_cuda.h"));
  EXPECT_TRUE(fs::exists(written[0] + "/.complete"));
  settings.environment = "XDG_CACHE_HOME=/dev/null/cache ";
  Outcome unwritable = simulee({source, "--grid", "1", "--block", "32"}, settings);
  EXPECT_EQ(unwritable.status, 0) << unwritable;
}

} // namespace
} // namespace simulee::cli_test
