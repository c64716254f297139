// Issue 8 end to end: a file whose host code launches its kernels is
// searched at those call sites (constants kept, formulas followed), every
// finding names its site, --explore searches every shape instead, the
// user's settings win over a site's, and `simulee list` shows the sites.
#include "CliSupport.h"

#include <map>

namespace simulee::cli_test {
namespace {

std::vector<std::string> search(const std::string &file, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{corpus(file), "--jobs", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

nlohmann::json jsonOf(const Outcome &o) {
  return nlohmann::json::parse(o.out, nullptr, /*allow_exceptions=*/false);
}

// nvcc lets host code call min/max on integers and floats; clang's CUDA
// headers declare them for device code only, so simulee supplies the host
// overloads and the launch's grid formula is read.
TEST(CliSites, HostCodeCallingMinAndMaxCompiles) {
  TempDir dir;
  std::string source = dir.file("host_min.cu");
  std::ofstream(source) << "__global__ void k(int *p, int n) { p[threadIdx.x] = min(n, 3); }\n"
                           "void launch(int *p, int n) {\n"
                           "  unsigned u = max(2u, min(7u, 9u)); double d = min(1.0, 2.5f);\n"
                           "  k<<<max(1, min(n / 32, 64)), 32>>>(p, n + int(u) + int(d)); }\n";
  Outcome o = simulee({"list", source});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "launched at " + source + ":4")) << o;
}

TEST(CliSites, DynamicSharedMemoryPastTheDefaultLimitIsJudgedWhereTheHostOptsIn) {
  TempDir dir;
  auto program = [&](const std::string &name, const std::string &attribute) {
    std::string source = dir.file(name);
    std::ofstream(source) << "__global__ void wide(float *out) {\n"
                             "  extern __shared__ float s[];\n"
                             "  s[threadIdx.x * 512] = threadIdx.x;\n"
                             "  __syncthreads();\n"
                             "  out[threadIdx.x] = s[((threadIdx.x + 1) % blockDim.x) * 512];\n"
                             "}\n"
                             "int main() {\n"
                             "  float *out;\n"
                             "  cudaMalloc(&out, 32 * sizeof(float));\n"
                          << attribute
                          << "  wide<<<1, 32, 64 * 1024>>>(out);\n"
                             "}\n";
    return source;
  };
  Outcome raised = simulee({program("raised.cu", "  cudaFuncSetAttribute(wide, "
                                                 "cudaFuncAttributeMaxDynamicSharedMemorySize, "
                                                 "64 * 1024);\n")});
  EXPECT_EQ(raised.status, 0) << raised;
  EXPECT_TRUE(contains(raised.out, "kernel 'wide': clean (1 launch judged)")) << raised;
  // Without the attribute a GPU refuses the launch: nothing to judge.
  Outcome refused = simulee({program("refused.cu", "")});
  EXPECT_EQ(refused.status, 3) << refused;
  EXPECT_TRUE(contains(refused.out, "exceeds the limit of 49152")) << refused;
}

TEST(CliSites, ALaunchAGpuRefusesIsNamedAndNothingIsJudged) {
  TempDir dir;
  std::string source = dir.file("refused_shapes.cu");
  std::ofstream(source) << "__global__ void add(float *x, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) x[i] += 1.0f;\n"
                           "}\n"
                           "int main() {\n"
                           "  const int n = 100;\n"
                           "  float *x;\n"
                           "  cudaMalloc(&x, n * sizeof(float));\n"
                           "  add<<<1, 1280>>>(x, n);\n"
                           "  add<<<n / 256, 256>>>(x, n);\n"
                           "}\n";
  Outcome o = simulee({source});
  // Neither launch runs on a GPU (too many threads; an empty grid): an
  // inconclusive kernel that names why, not an error of simulee's.
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'add': inconclusive: no launch could be judged (2 failed)"))
      << o;
  EXPECT_TRUE(contains(o.out, "a GPU refuses the launch the call site makes")) << o;
  EXPECT_TRUE(contains(o.out, "block (1280,1,1) has 1280 threads; the limit is 1024")) << o;
  EXPECT_FALSE(contains(o.err, "error:")) << o;
}

TEST(CliSites, AProgramsLaunchOfOneThreadLoopingLongIsJudged) {
  TempDir dir;
  std::string source = dir.file("one_thread.cu");
  std::ofstream(source) << "__global__ void add(const float *a, float *b, int n) {\n"
                           "  for (int i = threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
                           "    b[i] += a[i];\n"
                           "}\n"
                           "int main() {\n"
                           "  const int n = 1 << 22;\n"
                           "  float *a, *b;\n"
                           "  cudaMalloc(&a, n * sizeof(float));\n"
                           "  cudaMalloc(&b, n * sizeof(float));\n"
                           "  add<<<1, 1>>>(a, b, n);\n"
                           "}\n";
  // One thread runs more instructions than a thread of a wide launch may
  // (2^24), all the launch runs: it ends, so it is judged.
  Outcome o = simulee({source, "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'add': clean (1 launch judged")) << o;
  // With --budget the user's cap holds.
  Outcome capped = simulee({source, "--quiet", "--budget", "1000000"});
  EXPECT_EQ(capped.status, 3) << capped;
  EXPECT_TRUE(contains(capped.out, "does not terminate under this launch")) << capped;
}

TEST(CliSites, AFindingAlsoSeenInsideTheConventionsShowsSuchALaunch) {
  TempDir dir;
  std::string source = dir.file("tree_sum.cu");
  // Right only for blocks of a power of two threads; the launcher's block
  // is searched. Blocks that are multiples of 32 but no power of two (160)
  // read past `partial` too, and so do odd ones (23, 201).
  std::ofstream(source)
      << "__global__ void treeSum(float *out, const float *in, unsigned n) {\n"
         "  extern __shared__ float partial[];\n"
         "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  partial[threadIdx.x] = i < n ? in[i] : 0.0f;\n"
         "  __syncthreads();\n"
         "  for (unsigned step = 1; step < blockDim.x; step *= 2) {\n"
         "    if (i % (2 * step) == 0)\n"
         "      partial[threadIdx.x] += partial[threadIdx.x + step];\n"
         "    __syncthreads();\n"
         "  }\n"
         "  if (threadIdx.x == 0)\n"
         "    out[blockIdx.x] = partial[0];\n"
         "}\n"
         "void sumInto(float *out, const float *in, unsigned threads, unsigned n) {\n"
         "  treeSum<<<(n + threads - 1) / threads, threads, threads * sizeof(float)>>>(out, in, "
         "n);\n"
         "}\n";
  for (const char *seed : {"1", "2"}) {
    Outcome o = simulee({source, "--quiet", "--jobs", "1", "--seed", seed});
    EXPECT_EQ(o.status, 1) << o;
    EXPECT_TRUE(contains(o.out, "warning: out-of-bounds read of shared 'partial'")) << o;
    // The example is a launch the caller could make by CUDA's conventions.
    size_t block = o.out.find(" block (", o.out.find("note: exposed by launch"));
    ASSERT_NE(block, std::string::npos) << o;
    EXPECT_EQ(std::stoul(o.out.substr(block + 8)) % 32, 0u) << o;
  }
}

TEST(CliSites, TheProgramsOtherFilesGiveTheLaunchersCalls) {
  std::string inputs = std::string(SIMULEE_SOURCE_DIR) + "/tests/host/inputs/";
  // split_main.cu calls split_kernels.cu's launcher: runScale(data, 4096, 3)
  // into a cudaMalloc of its own.
  Outcome o = simulee({"list", inputs + "split_kernels.cu", inputs + "split_main.cu"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "n=4096 factor=3")) << o;
  EXPECT_TRUE(contains(o.out, "cudaMalloc at " + inputs + "split_main.cu:10")) << o;
  // Given alone, a file with no main has its calls read from the files
  // beside it that name its functions, and says so.
  Outcome alone = simulee({"list", inputs + "split_kernels.cu"});
  EXPECT_TRUE(contains(alone.out, "n=4096 factor=3")) << alone;
  EXPECT_TRUE(contains(
      alone.err,
      "split_kernels.cu has no main: the calls of its functions and launches of its kernels in " +
          inputs + "split_main.cu are read as the program's"))
      << alone;
  // A C++ file holding main has no device code to link: its host code
  // counts all the same.
  TempDir dir;
  std::string kernels = dir.file("kernels.cu");
  std::ofstream(kernels) << std::ifstream(inputs + "split_kernels.cu").rdbuf();
  Outcome lone = simulee({"list", kernels});
  EXPECT_FALSE(contains(lone.out, "n=4096")) << lone; // nothing beside it calls runScale
  std::string main = dir.file("main.cpp");
  std::ofstream(main) << std::ifstream(inputs + "split_main.cu").rdbuf();
  Outcome cpp = simulee({kernels, main, "--quiet"});
  EXPECT_EQ(cpp.status, 0) << cpp;
  EXPECT_TRUE(contains(cpp.out, "kernel 'scaleBy': clean (3 launches judged) at its call site"))
      << cpp;
  // Beside it, the same program is found without being named.
  Outcome found = simulee({kernels, "--quiet"});
  EXPECT_EQ(found.status, 0) << found;
  EXPECT_TRUE(contains(found.out, "kernel 'scaleBy': clean (3 launches judged) at its call site"))
      << found;
  // A file with main of its own is a whole program: another program's
  // call of a function of the same name (fill(nullptr, 1024) in a second
  // main beside it) is not its launch.
  std::string program = dir.file("program.cu");
  std::ofstream(program) << "__global__ void mine(int *p) { p[threadIdx.x] = 0; }\n"
                            "void fill(int *p, int n) { mine<<<1, n>>>(p); }\n"
                            "int main() { int *p; cudaMalloc(&p, 64 * sizeof(int));\n"
                            "  mine<<<1, 64>>>(p); return 0; }\n";
  std::ofstream(dir.file("another.cpp")) << "void fill(int *p, int n);\n"
                                            "int main() { fill(nullptr, 1024); return 0; }\n";
  Outcome own = simulee({"list", program});
  EXPECT_TRUE(contains(own.out, "block (64, 1, 1)")) << own;
  EXPECT_FALSE(contains(own.out, "block (1024, 1, 1)")) << own;
}

TEST(CliSites, AKernelFilesKernelsAreJudgedAtTheLaunchesItsNeighboursMake) {
  // A file of kernels alone, whose main beside it declares them and launches
  // one (the other's launch is commented out): that launch is the one.
  TempDir dir;
  std::string inputs = std::string(SIMULEE_SOURCE_DIR) + "/tests/host/inputs/";
  std::string kernels = dir.file("kernels.cu");
  std::ofstream(kernels) << std::ifstream(inputs + "split_direct_kernels.cu").rdbuf();
  Outcome lone = simulee({kernels, "--quiet", "--jobs", "1"});
  EXPECT_TRUE(contains(lone.out, "kernel 'addTwo': clean")) << lone; // searched freely
  std::string main = dir.file("main.cu");
  std::ofstream(main) << std::ifstream(inputs + "split_direct_main.cu").rdbuf();
  Outcome found = simulee({kernels, "--jobs", "1"});
  EXPECT_EQ(found.status, 0) << found;
  EXPECT_TRUE(contains(found.err, "launches of its kernels in " + main)) << found;
  EXPECT_TRUE(contains(found.out,
                       "kernel 'addOne': clean (1 launch judged) at its call site " + main + ":10"))
      << found;
  EXPECT_TRUE(contains(found.out, "kernel 'addTwo': not launched: its only launch is in code "
                                  "the preprocessor leaves out"))
      << found;
}

TEST(CliSites, AnAllocationPassedTwiceIsOneBuffer) {
  // Each thread adds its right neighbour: in place (step(a, a, n)) a thread
  // reads the element the next warp writes; into the allocation's other
  // half (step(b, b + n, n)) nothing is shared.
  TempDir dir;
  auto program = [&](const std::string &name, const std::string &call) {
    std::string source = dir.file(name);
    std::ofstream(source) << "__global__ void step(float *out, const float *in, int n) {\n"
                             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i + 1 < n)\n"
                             "    out[i] += in[i + 1];\n"
                             "}\n"
                             "int main() {\n"
                             "  int n = 1024;\n"
                             "  float *a, *b;\n"
                             "  cudaMalloc(&a, n * sizeof(float));\n"
                             "  cudaMalloc(&b, 2 * n * sizeof(float));\n"
                          << call << "\n}\n";
    return source;
  };
  std::string inPlace = program("in_place.cu", "step<<<n / 256, 256>>>(a, a, n);");
  Outcome o = simulee({inPlace, "--jobs", "1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "warning: data race on global 'out'")) << o;
  EXPECT_TRUE(contains(o.out, "in=same:out+0")) << o;
  Outcome listed = simulee({"list", inPlace});
  EXPECT_TRUE(contains(listed.out, "in=[4096 bytes, cudaMalloc at " + inPlace + ":9, as out]"))
      << listed;
  std::string halves = program("halves.cu", "step<<<n / 256, 256>>>(b, b + n, n);");
  o = simulee({halves, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'step': clean (")) << o;
  // The same launch written by hand: in points one element past out.
  o = simulee({"run", halves, "--grid", "4", "--block", "256", "--arg", "n=1024", "--arg",
               "out=zeros:1025", "--arg", "in=same:out+1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "data race on global 'out'")) << o;
}

TEST(CliSites, TileTransposeIsCleanAtItsCallSite) {
  Outcome o = simulee(search("transpose_tile16_host.cu"));
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'transpose_tile16': clean (")) << o;
  EXPECT_TRUE(contains(o.out, "launches judged) at its call site ")) << o;
  EXPECT_TRUE(contains(o.err, "'transpose_tile16' searched at its call site ")) << o;
  EXPECT_TRUE(contains(o.err, "transpose_tile16_host.cu:30")) << o;
}

TEST(CliSites, ExploreSearchesTheShapesTheHostNeverLaunches) {
  Outcome o = simulee(search("transpose_tile16_host.cu", {"--explore", "--quiet"}));
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "data race on shared 'tile'")) << o;
  EXPECT_FALSE(contains(o.out, "launched at")) << o;
}

TEST(CliSites, UserBlockWinsOverTheSiteWhileTheGridStillFollowsN) {
  Outcome o = simulee(
      search("transpose_tile16_host.cu", {"--block", "32,8", "--quiet", "--format", "json"}));
  EXPECT_EQ(o.status, 1) << o;
  nlohmann::json report = jsonOf(o);
  ASSERT_FALSE(report.is_discarded()) << o;
  ASSERT_FALSE(report["findings"].empty()) << o;
  for (const nlohmann::json &finding : report["findings"]) {
    const nlohmann::json &launch = finding["launch"];
    EXPECT_EQ(launch["block"], nlohmann::json({32, 8, 1}));
    int n = std::stoi(launch["arguments"]["n"].get<std::string>());
    int tiles = (n + 15) / 16;
    EXPECT_EQ(launch["grid"], nlohmann::json({tiles, tiles, 1})) << launch;
    EXPECT_EQ(launch["origin"]["line"], 30);
  }
}

TEST(CliSites, ArgumentTheSiteNeverPassesIsNotSearched) {
  Outcome o = simulee(search("stride_permute_host.cu", {"--quiet"}));
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'stride_permute': clean (")) << o;
  Outcome explored = simulee(search("stride_permute_host.cu", {"--explore", "--quiet"}));
  EXPECT_EQ(explored.status, 1) << explored;
  EXPECT_TRUE(contains(explored.out, "data race on global 'out'")) << explored;
}

TEST(CliSites, TemplateInstantiationsAreSearchedAtTheirOwnSites) {
  Outcome o = simulee(search("block_sum_templates.cu", {"--quiet", "--format", "json"}));
  EXPECT_EQ(o.status, 1) << o;
  nlohmann::json report = jsonOf(o);
  ASSERT_FALSE(report.is_discarded()) << o;
  std::map<std::string, std::string> verdicts;
  for (const nlohmann::json &kernel : report["kernels"])
    verdicts[kernel["kernel"].get<std::string>()] = kernel["verdict"].get<std::string>();
  EXPECT_EQ(verdicts["block_sum<256>"], "clean") << o;
  EXPECT_EQ(verdicts["block_sum<64>"], "findings") << o;
  for (const nlohmann::json &kernel : report["kernels"]) {
    ASSERT_EQ(kernel["callSites"].size(), 1u) << kernel;
    EXPECT_EQ(kernel["callSites"][0]["line"], kernel["kernel"] == "block_sum<64>" ? 33 : 32);
  }
  ASSERT_FALSE(report["findings"].empty()) << o;
  for (const nlohmann::json &finding : report["findings"]) {
    EXPECT_EQ(finding["kernel"], "block_sum<64>");
    const nlohmann::json &origin = finding["launch"]["origin"];
    ASSERT_TRUE(origin.is_object()) << finding;
    EXPECT_TRUE(contains(origin["file"].get<std::string>(), "block_sum_templates.cu"));
    EXPECT_EQ(origin["line"], 33); // block_sum<64><<<1, 64>>>
    EXPECT_EQ(finding["launch"]["block"], nlohmann::json({64, 1, 1}));
    EXPECT_EQ(finding["launch"]["grid"], nlohmann::json({1, 1, 1}));
  }
}

TEST(CliSites, TextNamesTheSiteOfEveryFinding) {
  Outcome o = simulee(search("block_sum_templates.cu", {"--quiet"}));
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "block_sum_templates.cu:33; example address")) << o;
  EXPECT_TRUE(contains(o.out, ", launched at ")) << o;
}

TEST(CliSites, DeviceOnlyFileHasNoOrigin) {
  Outcome o = simulee(search("reduce_missing_loop_barrier.cu", {"--quiet", "--format", "json"}));
  EXPECT_EQ(o.status, 1) << o;
  nlohmann::json report = jsonOf(o);
  ASSERT_FALSE(report.is_discarded()) << o;
  ASSERT_FALSE(report["findings"].empty()) << o;
  for (const nlohmann::json &finding : report["findings"])
    EXPECT_TRUE(finding["launch"]["origin"].is_null()) << finding;
  EXPECT_TRUE(report["kernels"][0]["callSites"].empty()) << o;
  EXPECT_FALSE(contains(o.err, "call site")) << o;
}

TEST(CliSites, ListShowsEachInstantiationsSites) {
  Outcome o = simulee({"list", corpus("block_sum_templates.cu")});
  EXPECT_EQ(o.status, 0) << o;
  size_t big = o.out.find("block_sum<256>(in, out, n)");
  size_t small = o.out.find("block_sum<64>(in, out, n)");
  ASSERT_NE(big, std::string::npos) << o;
  ASSERT_NE(small, std::string::npos) << o;
  size_t bigSite = o.out.find("block_sum_templates.cu:32: <256> grid ((n + 255) / 256, 1, 1) "
                              "block (256, 1, 1) in=[n * sizeof(float) bytes, cudaMalloc at ");
  size_t smallSite = o.out.find("block_sum_templates.cu:33: <64> grid (1, 1, 1) block (64, 1, 1)");
  ASSERT_NE(bigSite, std::string::npos) << o;
  ASSERT_NE(smallSite, std::string::npos) << o;
  // Each site under its own instantiation.
  EXPECT_EQ(bigSite > big && bigSite < small, big < small) << o;
  EXPECT_EQ(smallSite > small, true) << o;
}

} // namespace
} // namespace simulee::cli_test

namespace simulee::cli_test {
namespace {

TEST(CliSites, KernelWithTwoSitesIsSearchedAtEachAndTheFindingNamesTheRightOne) {
  Outcome o = simulee({input("two_sites.cu"), "--jobs", "1", "--format", "json"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.err, "'shift_add' searched at its call sites ")) << o;
  EXPECT_TRUE(contains(o.err, "two_sites.cu:16, ")) << o;
  EXPECT_TRUE(contains(o.err, "two_sites.cu:17")) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o;
  ASSERT_FALSE(report["findings"].empty()) << o;
  for (const nlohmann::json &finding : report["findings"]) {
    EXPECT_EQ(finding["launch"]["origin"]["line"], 17) << finding;
    EXPECT_EQ(finding["launch"]["arguments"]["offset"], "1") << finding;
    EXPECT_EQ(finding["launch"]["block"], nlohmann::json({128, 1, 1})) << finding;
  }
}

} // namespace
} // namespace simulee::cli_test

namespace simulee::cli_test {
namespace {

TEST(CliSites, ScanSearchesAtCallSitesToo) {
  TempDir dir;
  fs::copy_file(corpus("block_sum_templates.cu"), dir.file("block_sum_templates.cu"));
  Outcome o = simulee({"scan", dir.path(), "--format", "json", "--jobs", "1"});
  EXPECT_EQ(o.status, 1) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o;
  ASSERT_FALSE(report["findings"].empty()) << o;
  for (const nlohmann::json &finding : report["findings"])
    EXPECT_EQ(finding["launch"]["origin"]["line"], 33) << finding;
  Outcome explored = simulee({"scan", dir.path(), "--format", "json", "--jobs", "1", "--explore"});
  nlohmann::json free = nlohmann::json::parse(explored.out, nullptr, false);
  ASSERT_FALSE(free.is_discarded()) << explored;
  for (const nlohmann::json &finding : free["findings"])
    EXPECT_TRUE(finding["launch"]["origin"].is_null()) << finding;
}

// `k << <g, b >> > (args)`, as Visual Studio formats launches: nvcc accepts
// it, clang does not. The file compiles (its quoted include found beside
// it), its call site is read, and the finding names the file's own lines.
TEST(CliSites, LaunchesWithSpacedChevronsAreCompiledAndRead) {
  std::string source = input("spaced/spaced_launch.cu");
  Outcome listed = simulee({"list", source});
  EXPECT_EQ(listed.status, 0) << listed;
  EXPECT_TRUE(contains(listed.out, "launched at " + source + ":23: grid (4, 1, 1) block (64, 1, 1)"))
      << listed;
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  // Findings name the file as the report does any file's (relative to here).
  EXPECT_TRUE(contains(o.out, "spaced_launch.cu:8:21: warning: data race on shared 'part'")) << o;
  EXPECT_TRUE(contains(o.out, "spaced_launch.cu:13:11 (thread (0,0,0)")) << o;
  EXPECT_TRUE(contains(o.out, "[site], launched at " + source + ":23")) << o;
}

// The same, in a file saved with a UTF-8 byte order mark (as Visual Studio
// saves them): the joined copy compiles without the mark.
TEST(CliSites, ASpacedLaunchInAFileWithAByteOrderMarkIsCompiled) {
  TempDir dir;
  std::string source = dir.write("bom.cu", "\xEF\xBB\xBF#include <cstdio>\n"
                                           "__global__ void shift(float *d) {\n"
                                           "  d[threadIdx.x] = d[threadIdx.x + 1];\n"
                                           "}\n"
                                           "int main() {\n"
                                           "  float *d;\n"
                                           "  cudaMalloc(&d, 65 * sizeof(float));\n"
                                           "  shift << <1, 64 >> > (d);\n"
                                           "}\n");
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "bom.cu:3:20: warning: data race on global 'd'")) << o;
  EXPECT_TRUE(contains(o.out, "[site], launched at " + source + ":8")) << o;
}

// `__shared__ alignas(16) float tile[...]` in a kernel of an included
// header: clang refuses it there as in the file given, and the header is
// compiled from a rewritten copy under its own name (an overlay); findings
// name the header's own lines (Exec.SharedDeclarationsClangRefusesInAHeader
// runs the program).
TEST(CliSites, SharedDeclarationsClangRefusesInAHeaderAreCompiled) {
  TempDir dir;
  dir.write("stencil.cuh", "#pragma once\n"
                           "template <int T>\n"
                           "__global__ void smooth(const float *in, float *out, int n) {\n"
                           "  __shared__ alignas(16) float tile[T + 2];\n"
                           "  int i = blockIdx.x * T + threadIdx.x;\n"
                           "  tile[threadIdx.x + 1] = i < n ? in[i] : 0.0f;\n"
                           "  if (i < n)\n"
                           "    out[i] = tile[threadIdx.x] + tile[threadIdx.x + 2];\n"
                           "}\n");
  std::string source = dir.write("main.cu", "#include <cstdio>\n"
                                            "#include \"stencil.cuh\"\n"
                                            "int main() {\n"
                                            "  const int n = 256;\n"
                                            "  float *in, *out;\n"
                                            "  cudaMalloc(&in, n * sizeof(float));\n"
                                            "  cudaMalloc(&out, n * sizeof(float));\n"
                                            "  cudaMemset(in, 0, n * sizeof(float));\n"
                                            "  smooth<64><<<n / 64, 64>>>(in, out, n);\n"
                                            "  cudaDeviceSynchronize();\n"
                                            "  printf(\"done\\n\");\n"
                                            "  return 0;\n"
                                            "}\n");
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "stencil.cuh:6:25: warning: data race on shared 'tile'")) << o;
  EXPECT_TRUE(contains(o.out, "[site], launched at " + source + ":9")) << o;
}

} // namespace
} // namespace simulee::cli_test
