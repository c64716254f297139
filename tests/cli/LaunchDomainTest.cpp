// Issue 17 end to end: kernels the host code never launches are not
// searched (verdict "not launched", exit 0, --explore searches them); every
// finding says where its launch came from (provenance) in text, JSON, SARIF
// and the scan table; the host's allocations size the buffers they pass, so
// a read past one is a finding; and `simulee run` grows the buffers it made
// until the launch fits them.
#include "CliSupport.h"

#include <chrono>
#include <cstring>
#include <sstream>

namespace simulee::cli_test {
namespace {

nlohmann::json jsonOf(const Outcome &o) {
  return nlohmann::json::parse(o.out, nullptr, /*allow_exceptions=*/false);
}

const nlohmann::json *kernelEntry(const nlohmann::json &report, const std::string &name) {
  for (const nlohmann::json &kernel : report["kernels"])
    if (kernel["kernel"] == name)
      return &kernel;
  return nullptr;
}

TEST(CliLaunchDomain, AProgramThatOnlyMeasuresItsKernelsLaunchesNone) {
  // An occupancy report: main hands each kernel to occupancy and attribute
  // queries and launches none. Searched freely, the racy one warned.
  TempDir dir;
  std::string source = dir.file("occupancy_report.cu");
  std::ofstream(source) << "#include <cstdio>\n"
                           "__global__ void shift(float *d, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i + 1 < n) d[i] = d[i + 1];\n"
                           "}\n"
                           "template <typename K> void report(const char *name, K kernel) {\n"
                           "  int grid = 0, block = 0;\n"
                           "  cudaOccupancyMaxPotentialBlockSize(&grid, &block, kernel, 0, 0);\n"
                           "  printf(\"%s: %d\\n\", name, block);\n"
                           "}\n"
                           "int main() {\n"
                           "  report(\"shift\", shift);\n"
                           "  cudaFuncAttributes attributes;\n"
                           "  cudaFuncGetAttributes(&attributes, shift);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'shift': not launched: the program only hands it to calls "
                              "that never launch it"))
      << o;
  EXPECT_FALSE(contains(o.out, "data race")) << o;
}

TEST(CliLaunchDomain, KernelsTheHostNeverLaunchesAreNotLaunchedAndExitClean) {
  Outcome o = simulee({corpus("never_launched.cu"), "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'fold_window': not launched: the file's host code "
                              "launches other kernels but never this one (--explore searches it)"))
      << o;
  EXPECT_TRUE(contains(o.out, "kernel 'scale_rows': clean (")) << o;
  EXPECT_FALSE(contains(o.out, "data race")) << o;

  Outcome json =
      simulee({corpus("never_launched.cu"), "--jobs", "1", "--quiet", "--format", "json"});
  nlohmann::json report = jsonOf(json);
  ASSERT_FALSE(report.is_discarded()) << json;
  const nlohmann::json *fold = kernelEntry(report, "fold_window");
  ASSERT_NE(fold, nullptr) << json;
  EXPECT_EQ((*fold)["verdict"], "not launched");
  EXPECT_TRUE((*fold)["provenance"].is_null());
  const nlohmann::json *scale = kernelEntry(report, "scale_rows");
  ASSERT_NE(scale, nullptr) << json;
  EXPECT_EQ((*scale)["provenance"], "site+search");
  EXPECT_EQ(report["verdict"], "clean");

  // SARIF: a not-launched kernel is a notification, never silently absent.
  Outcome sarif =
      simulee({corpus("never_launched.cu"), "--jobs", "1", "--quiet", "--format", "sarif"});
  EXPECT_TRUE(contains(sarif.out, "\"not launched\"")) << sarif;
}

TEST(CliLaunchDomain, ExploreSearchesTheKernelNobodyLaunches) {
  Outcome o = simulee({corpus("never_launched.cu"), "--kernel", "fold_window", "--explore",
                       "--jobs", "1", "--quiet", "--format", "json"});
  EXPECT_EQ(o.status, 1) << o;
  nlohmann::json report = jsonOf(o);
  ASSERT_FALSE(report.is_discarded()) << o;
  ASSERT_FALSE(report["findings"].empty()) << o;
  for (const nlohmann::json &finding : report["findings"])
    EXPECT_EQ(finding["launch"]["provenance"], "free") << o;
}

TEST(CliLaunchDomain, ALaunchOnlyInPreprocessedOutCodeIsNotALaunch) {
  Outcome o = simulee({corpus("launch_preprocessed_out.cu"), "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'last_writer': not launched: its only launch is in code "
                              "the preprocessor leaves out"))
      << o;
}

TEST(CliLaunchDomain, AReadPastTheHostsAllocationIsAFindingThatNamesIt) {
  Outcome o = simulee({corpus("alloc_shift_read.cu"), "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "out-of-bounds read of global 'in'")) << o;
  EXPECT_TRUE(contains(o.out, "(the host's allocation, cudaMalloc at ")) << o;
  EXPECT_TRUE(contains(o.out, "alloc_shift_read.cu:17)")) << o;
  EXPECT_TRUE(contains(o.out, "[site+search], launched at ")) << o;
  // Its twin allocates one element more: in bounds.
  Outcome padded = simulee({corpus("alloc_shift_padded.cu"), "--jobs", "1", "--quiet"});
  EXPECT_EQ(padded.status, 0) << padded;
}

TEST(CliLaunchDomain, ALaunchInALoopOverSegmentsIsJudgedAtTheLastSegment) {
  // The pointers move by the loop variable: at s = 3 the allocation has n
  // floats left, and the read of in[n] is past it.
  Outcome o = simulee({corpus("segment_overrun.cu"), "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "out-of-bounds read of global 'in'")) << o;
  EXPECT_TRUE(contains(o.out, "(the host's allocation, cudaMalloc at ")) << o;
  EXPECT_TRUE(contains(o.out, "[site], launched at ")) << o;
  Outcome list = simulee({"list", corpus("segment_overrun.cu")});
  EXPECT_EQ(list.status, 0) << list;
  EXPECT_TRUE(contains(list.out, "(its loop's last iteration, s = 3) grid (4, 1, 1)")) << list;
  EXPECT_TRUE(contains(list.out, "in=[16384 bytes, cudaMalloc at ")) << list;
  EXPECT_TRUE(contains(list.out, "the pointer 12288 bytes in]")) << list;
}

TEST(CliLaunchDomain, TheProgramsLaunchFailingAnAssertIsAFinding) {
  // Threads past n fail `assert(i < n)` in the launch the host makes, and in
  // the user's launch of the same shape: a finding on the assert's line, not
  // an unjudged launch.
  Outcome o = simulee({corpus("assert_instead_of_guard.cu"), "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "assert_instead_of_guard.cu:8:3: warning: assertion `i < n` "
                              "failed in thread (232,0,0) block (3,0,0) [assertion-failed]"))
      << o;
  EXPECT_TRUE(contains(o.out, "[site], launched at ")) << o;
  Outcome run = simulee({"run", corpus("assert_instead_of_guard.cu"), "--grid", "4", "--block",
                         "256", "--arg", "n=1000", "--jobs", "1", "--quiet"});
  EXPECT_EQ(run.status, 1) << run;
  EXPECT_TRUE(contains(run.out, "[assertion-failed]")) << run;
  EXPECT_TRUE(contains(run.out, "[user]")) << run;
}

TEST(CliLaunchDomain, AnAssertOnContentsSimuleeMadeUpIsNoFinding) {
  // Whether idx[i] < n holds depends on what the program stores in idx, which
  // the host code does not say: launches that fail it are not judged, and a
  // note says why; those that pass it are.
  TempDir dir;
  std::string source = dir.file("gather.cu");
  std::ofstream(source) << "#include <cassert>\n"
                           "__global__ void gather(const int *idx, const float *in, float *out,\n"
                           "                       int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) {\n"
                           "    assert(idx[i] < n);\n"
                           "    out[i] = in[idx[i]];\n"
                           "  }\n"
                           "}\n"
                           "int main() {\n"
                           "  int n = 64, *idx;\n"
                           "  float *in, *out;\n"
                           "  cudaMalloc(&idx, n * sizeof(int));\n"
                           "  cudaMalloc(&in, n * sizeof(float));\n"
                           "  cudaMalloc(&out, n * sizeof(float));\n"
                           "  gather<<<2, 32>>>(idx, in, out, n);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_FALSE(contains(o.out, "assertion-failed")) << o;
  EXPECT_TRUE(contains(o.out, "(by its call site or the command line) failed the assert "
                              "`idx[i] < n`, but buffer contents simulee made up steer the "
                              "kernel")) << o;
}

TEST(CliLaunchDomain, ADim3AssignedAfterItsDeclarationIsTheLaunchsShape) {
  // Read as the declaration's (1, 1, 1), the launch had one thread and no
  // race; the program's block of 64 makes threads 2k and 2k + 1 share a slot.
  TempDir dir;
  std::string source = dir.file("assigned_dims.cu");
  std::ofstream(source) << "__global__ void pairs(int *out) {\n"
                           "  out[threadIdx.x / 2] = threadIdx.x;\n"
                           "}\n"
                           "int main() {\n"
                           "  int *out;\n"
                           "  cudaMalloc(&out, 32 * sizeof(int));\n"
                           "  dim3 grid, block;\n"
                           "  block = dim3(64);\n"
                           "  grid = dim3(32 * 2 / block.x);\n"
                           "  pairs<<<grid, block>>>(out);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "data race on global 'out'")) << o;
  EXPECT_TRUE(contains(o.out, "exposed by launch grid (1,1,1) block (64,1,1)")) << o;
  EXPECT_TRUE(contains(o.out, "[site]")) << o;
}

TEST(CliLaunchDomain, AStructTheHostFillsIsLaunchedWithItsMembers) {
  // The members the host sets are the launch's: the read past w.in names the
  // cudaMalloc into the member, the permutation by the host's step is clean,
  // and `list` shows what was read.
  Outcome o = simulee({corpus("struct_host_filled.cu"), "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "out-of-bounds read of global 'w.in'")) << o;
  EXPECT_TRUE(contains(o.out, "(the host's allocation, cudaMalloc at ")) << o;
  EXPECT_TRUE(contains(o.out, "w.n=1000 w.step=1")) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'permute_by_step': clean (1 launch judged)")) << o;
  Outcome list = simulee({"list", corpus("struct_host_filled.cu")});
  EXPECT_EQ(list.status, 0) << list;
  EXPECT_TRUE(contains(list.out, "w.in=[4000 bytes, cudaMalloc at ")) << list;
  EXPECT_TRUE(contains(list.out, "w.n=1000 w.step=1")) << list;
  // The same member sizes from the command line; a bad one is an error.
  Outcome run = simulee({"run", corpus("struct_host_filled.cu"), "-k", "shift_members", "--grid",
                         "4", "--block", "256", "--arg", "w.in=random:1001", "--arg",
                         "w.out=zeros:1000", "--arg", "w.n=1000", "--quiet"});
  EXPECT_EQ(run.status, 0) << run;
  Outcome bad = simulee({"run", corpus("struct_host_filled.cu"), "-k", "shift_members",
                         "--arg", "w.in=random:x", "--quiet"});
  EXPECT_EQ(bad.status, 2) << bad;
  EXPECT_TRUE(contains(bad.err, "bad value 'random:x' for pointer member 'w.in'")) << bad;
}

TEST(CliLaunchDomain, AStructSizedAtRunTimeIsSearchedWithItsAllocationsFollowing) {
  // n comes from the command line: w.n is searched, and the grid, w.twice
  // and both allocations follow it, so the read past w.in is a finding at
  // every n; the guarded copy stays clean.
  TempDir dir;
  std::string source = dir.file("runtime_struct.cu");
  std::ofstream(source) << "#include <cstdlib>\n"
                           "struct Work { const float *in; float *out; int n; int twice; };\n"
                           "__global__ void shift(Work w) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < w.n) w.out[i] = w.in[i + 1];\n"
                           "}\n"
                           "__global__ void copy(Work w) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < w.n) w.out[i] = w.in[i] + w.twice;\n"
                           "}\n"
                           "int main(int argc, char **argv) {\n"
                           "  int n = atoi(argv[1]);\n"
                           "  Work w;\n"
                           "  cudaMalloc(&w.in, n * sizeof(float));\n"
                           "  cudaMalloc(&w.out, n * sizeof(float));\n"
                           "  w.n = n;\n"
                           "  w.twice = 2 * n;\n"
                           "  shift<<<(n + 255) / 256, 256>>>(w);\n"
                           "  copy<<<(n + 255) / 256, 256>>>(w);\n"
                           "}\n";
  for (const char *seed : {"1", "2", "3"}) {
    Outcome o = simulee({source, "--jobs", "1", "--quiet", "--seed", seed});
    EXPECT_EQ(o.status, 1) << o;
    EXPECT_TRUE(contains(o.out, "out-of-bounds read of global 'w.in'")) << o;
    EXPECT_TRUE(contains(o.out, "(the host's allocation, cudaMalloc at ")) << o;
    EXPECT_TRUE(contains(o.out, "[site+search]")) << o;
    EXPECT_TRUE(contains(o.out, "kernel 'copy': clean")) << o;
    EXPECT_FALSE(contains(o.out, "out-of-bounds write")) << o;
  }
}

TEST(CliLaunchDomain, ALaunchCutShortOverrunningABufferSimuleeSizedIsNoFinding) {
  // The program's launch runs past --launch-seconds after its first blocks
  // read past the buffer simulee sized (nothing states `a`'s size): the
  // overrun is simulee's, so the buffer grows (or the launch is not
  // judged), never an out-of-bounds finding.
  TempDir dir;
  std::string source = dir.file("long_reads.cu");
  std::ofstream(source) << "__global__ void k(const float *a, float *out) {\n"
                           "  float s = 0;\n"
                           "  for (int r = 0; r < 20000; ++r)\n"
                           "    s += a[blockIdx.x * 65536 + threadIdx.x + r];\n"
                           "  out[blockIdx.x * blockDim.x + threadIdx.x] = s;\n"
                           "}\n"
                           "void allocate(float **p, unsigned long bytes);\n"
                           "int main() {\n"
                           "  float *a, *out;\n"
                           "  allocate(&a, 64ul * 65536 * 4);\n"
                           "  allocate(&out, 64 * 256 * 4);\n"
                           "  k<<<64, 256>>>(a, out);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet", "--launch-seconds", "0.5"});
  EXPECT_FALSE(contains(o.out, "out-of-bounds")) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'k': ")) << o;
}

TEST(CliLaunchDomain, TheProgramsLaunchGrowsABufferSimuleeSizedPastASearchedLaunchsLargest) {
  // One thread writes every 4096th of 2^25 floats into a buffer nothing
  // sizes: past the 2^24 elements a searched launch's buffer may grow to,
  // within a quarter of --max-memory, so the program's launch is judged.
  TempDir dir;
  std::string source = dir.file("sparse_fill.cu");
  std::ofstream(source) << "__global__ void fill(float *d, int n) {\n"
                           "  for (int i = 0; i < n; i += 4096)\n"
                           "    d[i] = 1.0f;\n"
                           "}\n"
                           "void allocate(float **p, unsigned long bytes);\n"
                           "int main() {\n"
                           "  int n = 1 << 25;\n"
                           "  float *d;\n"
                           "  allocate(&d, n * 4ul);\n"
                           "  fill<<<1, 1>>>(d, n);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'fill': clean (1 launch judged)")) << o;
}

TEST(CliLaunchDomain, AFixedLaunchIntoABufferNothingSizesIsJudgedAtItsFullSize) {
  // Grid, block and n are the site's; the pointer is a second variable
  // moved through a larger allocation by the loop's step, so no size is
  // known and simulee sizes the buffer. The program's launch (cheaper than --launch-seconds, costlier
  // than --max-cost) is still judged, once, at its size: the race in its
  // shared array is found, not "too costly".
  TempDir dir;
  std::string source = dir.file("segments.cu");
  std::ofstream(source) << "__global__ void rotate(float *seg, int n) {\n"
                           "  __shared__ float s[256];\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  s[threadIdx.x] = seg[i];\n"
                           "  seg[i] = s[(threadIdx.x + 1) % 256];\n"
                           "}\n"
                           "int main() {\n"
                           "  const int segments = 4, n = 1024;\n"
                           "  float *d;\n"
                           "  cudaMalloc(&d, segments * n * sizeof(float));\n"
                           "  float *p = d;\n"
                           "  for (int s = 0; s < segments; ++s, p += n)\n"
                           "    rotate<<<n / 256, 256>>>(p, n);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet", "--max-cost", "4096"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "data race on shared 's'")) << o;
  EXPECT_TRUE(contains(o.out, "exposed by launch grid (4,1,1) block (256,1,1)")) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'rotate': findings (1 launch judged)")) << o;
  EXPECT_FALSE(contains(o.out, "out-of-bounds")) << o;
}

TEST(CliLaunchDomain, ALaunchReadFromTheCompiledHostCodeKeepsMainsConstants) {
  // The launch is in a template reached through a function object: only the
  // compiled host code has it. Its count (100) and the block (64) come from
  // there; searched freely, a count below 64 would make threads share a slot.
  TempDir dir;
  std::string source = dir.file("compiled_constants.cu");
  std::ofstream(source) << "struct Span { float *data; long length; };\n"
                           "template <int W> __global__ void spread(Span s, int count) {\n"
                           "  s.data[threadIdx.x % count] = threadIdx.x;\n"
                           "}\n"
                           "template <int W, typename T> void launchSpread(Span s, int count) {\n"
                           "  spread<W><<<1, W>>>(s, count);\n"
                           "}\n"
                           "template <typename T> struct Spread {\n"
                           "  void operator()(Span s, int count) const { launchSpread<64, T>(s, count); }\n"
                           "};\n"
                           "int main() {\n"
                           "  float *d;\n"
                           "  cudaMalloc(&d, 400);\n"
                           "  Spread<int>()(Span{d, 100}, 100);\n"
                           "}\n";
  Outcome listed = simulee({"list", source});
  EXPECT_TRUE(contains(listed.out, "launched at " + source + ":6: grid (1, 1, 1) block (64, 1, 1)"))
      << listed;
  for (const char *seed : {"1", "2"}) {
    Outcome o = simulee({source, "--jobs", "1", "--quiet", "--seed", seed});
    EXPECT_EQ(o.status, 0) << o;
    EXPECT_TRUE(contains(o.out, "kernel 'spread<64>': clean (")) << o;
    EXPECT_TRUE(contains(o.out, "at its call site " + source + ":6")) << o;
  }
}

TEST(CliLaunchDomain, EveryValueFromTheSiteIsSiteProvenance) {
  TempDir dir;
  std::string source = dir.file("fixed_site.cu");
  std::ofstream(source) << "__global__ void k(int *p, int n) {\n"
                           "  p[threadIdx.x % 8] = n + threadIdx.x;\n"
                           "}\n"
                           "int main() {\n"
                           "  int *p;\n"
                           "  cudaMalloc(&p, 64 * sizeof(int));\n"
                           "  k<<<1, 64>>>(p, 5);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet", "--format", "json"});
  EXPECT_EQ(o.status, 1) << o;
  nlohmann::json report = jsonOf(o);
  ASSERT_FALSE(report.is_discarded()) << o;
  ASSERT_FALSE(report["findings"].empty()) << o;
  for (const nlohmann::json &finding : report["findings"])
    EXPECT_EQ(finding["launch"]["provenance"], "site") << o;
  Outcome sarif = simulee({source, "--jobs", "1", "--quiet", "--format", "sarif"});
  EXPECT_TRUE(contains(sarif.out, "\"provenance\": \"site\"")) << sarif;
}

TEST(CliLaunchDomain, ScanTableShowsProvenanceAndCountsWarningsByIt) {
  TempDir dir;
  for (const char *name : {"never_launched.cu", "alloc_shift_read.cu"})
    std::filesystem::copy_file(corpus(name), dir.file(name));
  Outcome o = simulee({"scan", dir.path(), "--quiet", "--jobs", "1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.err, "launches")) << o;
  EXPECT_TRUE(contains(o.err, "not launched")) << o;
  EXPECT_TRUE(contains(o.err, "warnings by launch provenance: 1 site+search")) << o;
}

TEST(CliLaunchDomain, RunGrowsTheBuffersItMadeUntilTheLaunchFits) {
  TempDir dir;
  std::string source = dir.file("square.cu");
  std::ofstream(source) << "__global__ void square(float *m, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n)\n"
                           "    for (int j = 0; j < n; ++j)\n"
                           "      m[i * n + j] = 1.0f;\n"
                           "}\n";
  Outcome o = simulee({"run", source, "--grid", "8", "--block", "128", "--arg", "n=1000"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "clean (1 launch judged)")) << o;
  // A buffer the user sized stays as given: the overrun is the finding.
  Outcome given = simulee({"run", source, "--grid", "8", "--block", "128", "--arg", "n=1000",
                           "--arg", "m=zeros:1000"});
  EXPECT_EQ(given.status, 1) << given;
  EXPECT_TRUE(contains(given.out, "out-of-bounds write of global 'm'")) << given;
  EXPECT_TRUE(contains(given.out, "[user]")) << given;
}

} // namespace
} // namespace simulee::cli_test

namespace simulee::cli_test {
namespace {

TEST(CliLaunchDomain, APointerMemberOfAStructGetsABufferOfItsOwn) {
  // The host fills the struct with a cudaMalloc'd pointer; simulee gives the
  // member memory of its own, so the race through it is found and named.
  TempDir dir;
  std::string source = dir.file("struct_pointer.cu");
  std::ofstream(source) << "struct Vec { float *data; int n; };\n"
                           "__global__ void scale(Vec v) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  v.data[i % 32] *= 2.0f;\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "data race on global 'v.data'")) << o;
  EXPECT_FALSE(contains(o.out, "inconclusive")) << o;
}

TEST(CliLaunchDomain, TheNumbersInsideAStructAreSearchedAndSetByName) {
  // `if (i + 1 < v.n)`: with the struct's bytes made up, n would be 0 and
  // the kernel would do nothing; searched like a scalar, n exposes the race.
  TempDir dir;
  std::string source = dir.file("struct_numbers.cu");
  std::ofstream(source) << "struct Vec { float *data; int n; float scale; };\n"
                           "__global__ void shift(Vec v) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i + 1 < v.n)\n"
                           "    v.data[i] = v.data[i + 1] * v.scale;\n"
                           "}\n";
  Outcome searched = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(searched.status, 1) << searched;
  EXPECT_TRUE(contains(searched.out, "data race on global 'v.data'")) << searched;
  EXPECT_TRUE(contains(searched.out, " v.n=")) << searched;
  // --arg v.n=1 sets the member: one thread at most passes the guard.
  Outcome one = simulee({"run", source, "--grid", "1", "--block", "64", "--arg", "v.n=1"});
  EXPECT_EQ(one.status, 0) << one;
  EXPECT_TRUE(contains(one.out, "clean (1 launch judged)")) << one;
  Outcome all = simulee({"run", source, "--grid", "1", "--block", "64", "--arg", "v.n=64",
                         "--arg", "v=random:64"});
  EXPECT_EQ(all.status, 1) << all;
  EXPECT_TRUE(contains(all.out, "v=random:64 v.n=64")) << all;
  Outcome unknown = simulee({"run", source, "--grid", "1", "--block", "64", "--arg", "v.m=1"});
  EXPECT_EQ(unknown.status, 2) << unknown;
  EXPECT_TRUE(contains(unknown.err, "no parameter 'v.m'")) << unknown;
}

TEST(CliLaunchDomain, HalfAndBfloat16ScalarsAreSetAsNumbers) {
  // CUDA's __half and __nv_bfloat16 are structs around 16 bits: --arg takes
  // the number (1.5: 0x3e00 as a half, 0x3fc0 as a bfloat16), and a struct
  // member of either type by its path.
  TempDir dir;
  std::string source = dir.file("halves.cu");
  std::ofstream(source) << "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
                           "struct Scales { __half h; __nv_bfloat16 b; };\n"
                           "__global__ void put(unsigned short *out, __half h, __nv_bfloat16 b,\n"
                           "                    Scales s) {\n"
                           "  out[0] = __half_as_ushort(h);\n"
                           "  out[1] = __bfloat16_as_ushort(b);\n"
                           "  out[2] = __half_as_ushort(s.h);\n"
                           "  out[3] = __bfloat16_as_ushort(s.b);\n"
                           "}\n";
  std::string dump = dir.file("out.bin");
  Outcome o = simulee({"run", source, "--block", "1", "--arg", "h=1.5", "--arg", "b=1.5",
                       "--arg", "s.h=-2", "--arg", "s.b=65504", "--arg", "out=zeros:4",
                       "--dump", "out=" + dump});
  ASSERT_EQ(o.status, 0) << o;
  std::string bytes = readFile(dump);
  ASSERT_EQ(bytes.size(), 8u);
  uint16_t values[4];
  std::memcpy(values, bytes.data(), sizeof values);
  EXPECT_EQ(values[0], 0x3e00);
  EXPECT_EQ(values[1], 0x3fc0);
  EXPECT_EQ(values[2], 0xc000);
  EXPECT_EQ(values[3], 0x4780); // 65504 rounds to 65536 in bfloat16
  Outcome bad = simulee({"run", source, "--block", "1", "--arg", "h=fast"});
  EXPECT_EQ(bad.status, 2) << bad;
  EXPECT_TRUE(contains(bad.err, "bad value 'fast' for parameter 'h'")) << bad;
}

TEST(CliLaunchDomain, TheProgramsOwnLaunchIsJudgedAtItsFullSize) {
  // Everything fixed by the site (N = 65536): the launch costs more than
  // --max-cost allows a searched one, yet it is the program's, so it is
  // judged once at its size (within --launch-seconds, with no cap on
  // thread-instructions) instead of being skipped as too costly; its content
  // variants are not tried.
  TempDir dir;
  std::string source = dir.file("full_size.cu");
  std::ofstream(source) << "#define N 65536\n"
                           "__global__ void shift(float *d, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i + 1 < n)\n"
                           "    d[i] = d[i + 1];\n"
                           "}\n"
                           "int main() {\n"
                           "  float *d;\n"
                           "  cudaMalloc(&d, N * sizeof(float));\n"
                           "  shift<<<N / 256, 256>>>(d, N);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--max-cost", "200000"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "data race on global 'd")) << o;
  EXPECT_TRUE(contains(o.out, "findings (1 launch judged)")) << o;
  EXPECT_TRUE(contains(o.out, "grid (256,1,1) block (256,1,1)")) << o;
  EXPECT_FALSE(contains(o.out, "too costly")) << o;
}

TEST(CliLaunchDomain, ALargeHostAllocationKeepsItsSize) {
  // 128 MiB, more than a searched launch allocates: still the program's
  // own size, so the write one element past it is a finding naming it.
  TempDir dir;
  std::string source = dir.file("large.cu");
  std::ofstream(source) << "#define N (1 << 25)\n"
                           "__global__ void past(float *d, int n) {\n"
                           "  if (threadIdx.x == 0) d[n] = 1.0f;\n"
                           "}\n"
                           "int main() {\n"
                           "  float *d;\n"
                           "  cudaMalloc(&d, N * sizeof(float));\n"
                           "  past<<<1, 32>>>(d, N);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "out-of-bounds write of global 'd'")) << o;
  EXPECT_TRUE(contains(o.out, "134217728 bytes")) << o;
}

TEST(CliLaunchDomain, ALaunchWhoseModelOutgrowsMaxMemoryStopsWithAVerdict) {
  // 8M threads storing a word each: about 300 MiB of shadow, more than the
  // limit given; the launch stops there instead of taking the machine. (The
  // index is one simulee cannot prove private to its thread, so every store
  // is kept.)
  TempDir dir;
  std::string source = dir.file("store.cu");
  std::ofstream(source) << "__global__ void store(int *out) {\n"
                           "  out[(blockIdx.x * blockDim.x + threadIdx.x) ^ 1] = threadIdx.x;\n"
                           "}\n";
  Outcome o = simulee({"run", source, "--grid", "32768", "--block", "256", "--arg",
                       "out=zeros:8388608", "--max-memory", "200M"});
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'store': inconclusive")) << o;
  EXPECT_TRUE(contains(o.out, "its simulation outgrew --max-memory")) << o;
}

TEST(CliLaunchDomain, ALaunchPastItsTimeBudgetIsInconclusiveAndSaysWhere) {
  // No cap on thread-instructions for a launch no search chose, but a time
  // budget: this one needs billions of them, far more than a second.
  TempDir dir;
  std::string source = dir.file("slow.cu");
  std::ofstream(source) << "__global__ void slow(const float *d, float *out, int n) {\n"
                           "  float s = 0;\n"
                           "  for (int k = 0; k < n; ++k) s += d[k % 64];\n"
                           "  out[blockIdx.x * blockDim.x + threadIdx.x] = s;\n"
                           "}\n";
  auto started = std::chrono::steady_clock::now();
  Outcome o = simulee({"run", source, "--grid", "64", "--block", "256", "--arg", "n=50000",
                       "--launch-seconds", "1"});
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'slow': inconclusive")) << o;
  EXPECT_TRUE(contains(o.out, "time budget of 1 s (--launch-seconds) in block ")) << o;
  EXPECT_LT(seconds, 30.0) << o; // cut short, not run to its end
}

TEST(CliLaunchDomain, ALaunchCutShortByItsTimeBudgetKeepsTheBugsOfTheBlocksItRan) {
  // The program's own launch of 65536 blocks, each spinning a while, is cut
  // short by its time budget; the race every block has (a shared total
  // added to without an atomic) is in the blocks it ran, so it stands. The
  // atomic twin shows nothing there: inconclusive, never clean.
  TempDir dir;
  auto write = [&](const std::string &name, const std::string &add) {
    std::string source = dir.file(name);
    std::ofstream(source) << "__global__ void spin_sum(float *out, int rounds) {\n"
                             "  __shared__ float total;\n"
                             "  if (threadIdx.x == 0) total = 0.0f;\n"
                             "  __syncthreads();\n"
                             "  float mine = 0.0f;\n"
                             "  for (int r = 0; r < rounds; ++r) mine += r * 0.5f;\n"
                          << "  " << add << "\n"
                          << "  __syncthreads();\n"
                             "  if (threadIdx.x == 0) out[blockIdx.x] = total;\n"
                             "}\n"
                             "int main() {\n"
                             "  float *out;\n"
                             "  cudaMalloc(&out, 65536 * sizeof(float));\n"
                             "  spin_sum<<<65536, 256>>>(out, 4096);\n"
                             "}\n";
    return source;
  };
  std::string racy = write("racy.cu", "total += mine;");
  Outcome o = simulee({racy, "--jobs", "1", "--launch-seconds", "1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "racy.cu:7:")) << o;
  EXPECT_TRUE(contains(o.out, "[data-race]")) << o;
  EXPECT_TRUE(contains(o.out, "findings (1 launch judged for the blocks it ran before its time "
                              "budget cut it short (--launch-seconds))"))
      << o;
  // `run`'s launch likewise.
  o = simulee({"run", racy, "--grid", "65536", "--block", "256", "--arg", "rounds=4096",
               "--launch-seconds", "1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "[data-race]")) << o;
  std::string atomic = write("atomic.cu", "atomicAdd(&total, mine);");
  o = simulee({atomic, "--jobs", "1", "--launch-seconds", "1"});
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'spin_sum': inconclusive: no launch could be judged (1 too "
                              "costly)"))
      << o;
}

TEST(CliLaunchDomain, AProgramsLaunchOfMillionsOfThreadsIsJudgedAtItsSize) {
  // Everything fixed by the site: 17.8M threads, more than a launch that
  // cannot stop itself may have in 512 MiB (64 bytes of model a thread).
  // The program's launch stops itself over its time budget or the memory
  // limit, so it runs; its stores, each thread's own, need no model.
  TempDir dir;
  std::string source = dir.file("too_large.cu");
  std::ofstream(source) << "__global__ void fill(float *d, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) d[i] = 1.0f;\n"
                           "}\n"
                           "int main() {\n"
                           "  int n = 17842176;\n"
                           "  float *d;\n"
                           "  cudaMalloc(&d, n * sizeof(float));\n"
                           "  fill<<<(n + 255) / 256, 256>>>(d, n);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--max-memory", "512M"});
  EXPECT_EQ(o.status, 0) << o;
  // Its 18M threads ran long enough for compiled code to take over.
  EXPECT_TRUE(contains(o.out, "kernel 'fill': clean (1 launch judged; ")) << o;
  EXPECT_TRUE(contains(o.out, "% of the instructions ran as compiled code)")) << o;
}

TEST(CliLaunchDomain, APointerIntoTheMiddleOfAnAllocationKeepsItsOffset) {
  // stencil<<<...>>>(in + RADIUS, ...): reads at in[i - RADIUS] stay inside
  // the host's allocation, so the launch is judged, in bounds; the same read
  // one element further left is out of the allocation, and a finding.
  TempDir dir;
  std::string source = dir.file("offset.cu");
  std::ofstream(source) << "#define RADIUS 3\n"
                           "#define N 1024\n"
                           "__global__ void smooth(const int *in, int *out, int reach) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  out[i] = in[i - reach] + in[i + RADIUS];\n"
                           "}\n"
                           "int main() {\n"
                           "  int *in, *out;\n"
                           "  cudaMalloc(&in, (N + 2 * RADIUS) * sizeof(int));\n"
                           "  cudaMalloc(&out, N * sizeof(int));\n"
                           "  smooth<<<N / 256, 256>>>(in + RADIUS, out, RADIUS);\n"
                           "  smooth<<<N / 256, 256>>>(&in[RADIUS], out, RADIUS + 1);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "warning: out-of-bounds read of global 'in")) << o;
  EXPECT_TRUE(contains(o.out, "in=random:1030+3")) << o;
  EXPECT_TRUE(contains(o.out, "reach=4")) << o;
  EXPECT_FALSE(contains(o.out, "reach=3 ")) << o;
  // As the user gives it: FILL:N+K, K elements in.
  Outcome run = simulee({"run", source, "--grid", "4", "--block", "256", "--arg",
                         "in=random:1030+3", "--arg", "out=zeros:1024", "--arg", "reach=3"});
  EXPECT_EQ(run.status, 0) << run;
  Outcome bad = simulee({"run", source, "--grid", "4", "--block", "256", "--arg",
                         "in=random:10+30", "--arg", "out=zeros:1024", "--arg", "reach=3"});
  EXPECT_EQ(bad.status, 2) << bad;
  EXPECT_TRUE(contains(bad.err, "optionally +K")) << bad;
}

TEST(CliLaunchDomain, AVerdictRestingOnlyOnUnconventionalLaunchesIsNotClean) {
  // Every launch with t.count > 0 follows a null pointer simulee cannot fill
  // (a pointer to pointers inside a made-up struct) and cannot be judged;
  // the launches with count <= 0 do nothing. Clean would be a lie.
  TempDir dir;
  std::string source = dir.file("table.cu");
  std::ofstream(source) << "struct Table { int count; int **slots; };\n"
                           "__global__ void fillTable(Table t) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < t.count)\n"
                           "    t.slots[i][0] = i;\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "inconclusive: only launches with a size of 0 or less could "
                              "be judged")) << o;
  EXPECT_TRUE(contains(o.out, "every launch judged had a size of 0 or less")) << o;
  EXPECT_TRUE(contains(o.out, "t.count = ")) << o;
  Outcome explored = simulee({source, "--jobs", "1", "--explore"});
  EXPECT_TRUE(contains(explored.out, "kernel 'fillTable': clean")) << explored;
}

TEST(CliLaunchDomain, ABarrierOnlyCostlyLaunchesReachIsNotCalledUnreached) {
  // Only n > 64 enters the loop with the barrier, and those launches cost
  // more than --max-cost: the barrier is not 'never reached', it is unknown.
  TempDir dir;
  std::string source = dir.file("deep.cu");
  std::ofstream(source) << "__global__ void deep(float *d, int n) {\n"
                           "  __shared__ float s[64];\n"
                           "  if (n > 64)\n"
                           "    for (int k = 0; k < n; ++k) {\n"
                           "      s[threadIdx.x] = d[k];\n"
                           "      __syncthreads();\n"
                           "      d[k] += s[(threadIdx.x + 1) % 64];\n"
                           "      __syncthreads();\n"
                           "    }\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--grid", "1", "--block", "64", "--max-cost",
                       "20000"});
  EXPECT_TRUE(contains(o.out, "too costly")) << o;
  EXPECT_FALSE(contains(o.out, "never reached")) << o;
}

// Searched with `seed`, a kernel whose rows overlap only when its pitch is
// below its row width (named `width`): a note naming both by default, a
// warning under --explore, whose outcome is returned.
Outcome expectOverlapOnlyANote(const std::string &source, const char *seed,
                               const std::string &width) {
  Outcome o = simulee({source, "--jobs", "1", "--seed", seed});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "less than " + width + " (")) << o;
  EXPECT_TRUE(contains(o.out, "rows overlap")) << o;
  EXPECT_FALSE(contains(o.out, "warning:")) << o;
  Outcome explored = simulee({source, "--jobs", "1", "--seed", seed, "--explore"});
  EXPECT_EQ(explored.status, 1) << explored;
  return explored;
}

TEST(CliLaunchDomain, RowsThatOverlapBecauseThePitchIsBelowTheWidthAreOnlyANote) {
  // Searched freely, pitch < width makes rows overlap and threads of two
  // rows write one pixel: a race no caller passing a real pitch can see.
  TempDir dir;
  std::string source = dir.file("pitch.cu");
  std::ofstream(source) << "__global__ void brighten(float *image, int width, int height,\n"
                           "                         int pitch) {\n"
                           "  int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                           "  if (x < width && y < height)\n"
                           "    image[y * pitch + x] = image[y * pitch + x] * 2.0f;\n"
                           "}\n";
  for (const char *seed : {"3", "5"})
    expectOverlapOnlyANote(source, seed, "width");
}

TEST(CliLaunchDomain, APitchInsideAStructWithAHostConstructorIsSearchedAndNamed) {
  // The row pitch lives in a struct the host builds with a constructor:
  // searched as a member (not random bytes), and a pitch below the row width
  // is only a note, as for a pitch parameter.
  TempDir dir;
  std::string source = dir.file("store.cu");
  std::ofstream(source) << "struct Store {\n"
                           "  Store(float *dst, long long row_size) : dst(dst), row_size(row_size) {}\n"
                           "  __device__ void put(long long row, long long col, float v) {\n"
                           "    dst[row * row_size + col] = v;\n"
                           "  }\n"
                           "  float *dst;\n"
                           "  long long row_size;\n"
                           "};\n"
                           "__global__ void fill_rows(Store store, long long rows, long long cols) {\n"
                           "  long long row = blockIdx.x * blockDim.y + threadIdx.y;\n"
                           "  for (long long col = threadIdx.x; row < rows && col < cols;\n"
                           "       col += blockDim.x)\n"
                           "    store.put(row, col, float(row));\n"
                           "}\n";
  for (const char *seed : {"1", "2"}) {
    Outcome explored = expectOverlapOnlyANote(source, seed, "cols");
    EXPECT_TRUE(contains(explored.out, "'store.dst'")) << explored;
  }
}

TEST(CliLaunchDomain, AnAddressHeldAsAnIntegerInAMadeUpStructIsNeverAFinding) {
  // A pointer the struct holds as an integer gets no buffer: dereferenced,
  // it is wild, and the launch cannot be judged (inconclusive, with the
  // reason), never a finding and never clean.
  TempDir dir;
  std::string source = dir.file("struct_address.cu");
  std::ofstream(source) << "struct Vec { unsigned long long address; int n; };\n"
                           "__global__ void scale(Vec v) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  ((float *)v.address)[i % 32] *= 2.0f;\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "inconclusive")) << o;
  EXPECT_TRUE(contains(o.out, "by-value struct argument 'v' whose bytes simulee made up")) << o;
  EXPECT_FALSE(contains(o.out, "warning:")) << o;
}

TEST(CliLaunchDomain, PointersTheHostStoresInAStructItPassesByPointerAreMemory) {
  // The host copies a struct holding a pointer it allocated to the device
  // and passes a pointer to it (NVIDIA's unified-memory blog samples). The
  // struct's bytes are simulee's, but its pointer member gets memory of its
  // own: the write through it is judged (clean), not a wild pointer.
  TempDir dir;
  std::string source = dir.file("named_element.cu");
  std::ofstream(source) << "struct Element { char *name; int value; };\n"
                           "__global__ void rename(Element *e) {\n"
                           "  e->name[0] = 'd';\n"
                           "  e->value++;\n"
                           "}\n"
                           "int main() {\n"
                           "  Element *d_e; char *d_name;\n"
                           "  cudaMalloc(&d_e, sizeof(Element));\n"
                           "  cudaMalloc(&d_name, 6);\n"
                           "  cudaMemcpy(&d_e->name, &d_name, sizeof(char *), cudaMemcpyHostToDevice);\n"
                           "  rename<<<1, 1>>>(d_e);\n"
                           "  cudaDeviceSynchronize();\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'rename': clean")) << o;
  EXPECT_FALSE(contains(o.out, "wild pointer")) << o;
  // Through a reference, and through a pointer to row pointers, alike: the
  // rows are read (no null pointer), and the race the kernel has, every
  // thread adding into its block's sum, is found.
  std::string withElement = dir.file("rows_element.cu");
  std::ofstream(withElement) << "struct Element { char *name; int value; };\n"
                                "__global__ void sum_rows(float **rows, float *sums, int n) {\n"
                                "  if (blockIdx.x < n)\n"
                                "    sums[blockIdx.x] += rows[blockIdx.x][threadIdx.x];\n"
                                "}\n"
                                "__global__ void bump(Element &e) { e.name[threadIdx.x] = 'x'; }\n";
  Outcome r = simulee({withElement, "--jobs", "1"});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.out, "kernel 'bump': clean")) << r;
  EXPECT_TRUE(contains(r.out, "data race on global 'sums'")) << r;
  EXPECT_FALSE(contains(r.out, "wild pointer")) << r;
  EXPECT_FALSE(contains(r.out, "null pointer")) << r;
}

TEST(CliLaunchDomain, AnAddressHeldAsAnIntegerBehindAPointerIsNeverAFinding) {
  // A pointer a struct holds as an integer gets no memory: dereferenced
  // through the struct the kernel's pointer argument points to, it is wild,
  // and the launch cannot be judged, never a finding.
  TempDir dir;
  std::string source = dir.file("address_behind_pointer.cu");
  std::ofstream(source) << "struct Vec { unsigned long long address; int n; };\n"
                           "__global__ void scale(Vec *v) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  ((float *)v->address)[i % 32] *= 2.0f;\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "inconclusive")) << o;
  EXPECT_TRUE(contains(o.out, "the memory 'v' points to, whose contents simulee made up")) << o;
  EXPECT_FALSE(contains(o.out, "warning:")) << o;
}

TEST(CliLaunchDomain, ADivisionByContentsSimuleeMadeUpIsANote) {
  // The divisor is read from memory the host filled (a struct array at its
  // call site, the members of a by-value struct): a zero simulee drew there
  // is no zero of the program's, so the division is a note naming the
  // condition. A divisor from the thread's own index is zero in the
  // program too: a warning.
  TempDir dir;
  std::string source = dir.file("divisors.cu");
  std::ofstream(source) << "struct Pixel { int sum; int count; };\n"
                           "struct Planes { int *sum; int *count; };\n"
                           "__global__ void mean(Pixel *px, int *out, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) out[i] = px[i].sum / px[i].count;\n"
                           "}\n"
                           "__global__ void planes(Planes p, int *out, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) out[i] = p.sum[i] / p.count[i];\n"
                           "}\n"
                           "__global__ void cycle(int *out, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) out[i] = 100 / (i % 4);\n"
                           "}\n"
                           "int main() {\n"
                           "  int n = 1024; Pixel *px; int *out; Planes p;\n"
                           "  cudaMalloc(&px, n * sizeof(Pixel));\n"
                           "  cudaMalloc(&out, n * sizeof(int));\n"
                           "  cudaMalloc(&p.sum, n * sizeof(int));\n"
                           "  cudaMalloc(&p.count, n * sizeof(int));\n"
                           "  mean<<<n / 256, 256>>>(px, out, n);\n"
                           "  planes<<<n / 256, 256>>>(p, out, n);\n"
                           "  cycle<<<n / 256, 256>>>(out, n);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "divisors.cu:5:33: note: undefined behavior: integer division by "
                              "zero")) << o;
  EXPECT_TRUE(contains(o.out, "an operand computed from contents of 'px', which simulee made up"))
      << o;
  EXPECT_TRUE(contains(o.out, "divisors.cu:9:32: note: undefined behavior")) << o;
  EXPECT_TRUE(contains(o.out, "an operand computed from contents of 'p', which simulee made up"))
      << o;
  EXPECT_TRUE(contains(o.out, "divisors.cu:13:27: warning: undefined behavior: integer division "
                              "by zero")) << o;
  EXPECT_TRUE(contains(o.out, "1 warning, 2 notes")) << o;
}

TEST(CliLaunchDomain, AnOverloadTheHostNeverLaunchesIsNotLaunched) {
  // The host launches scale(float *) only: the double overload shares its
  // name but none of its launches (CUDA by Example's two float_to_color),
  // and its racy body is never searched.
  TempDir dir;
  std::string source = dir.file("overloads.cu");
  std::ofstream(source) << "__global__ void scale(float *p, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) p[i] *= 2.0f;\n"
                           "}\n"
                           "__global__ void scale(double *p, int n) { p[0] += p[threadIdx.x]; }\n"
                           "int main() {\n"
                           "  float *p; cudaMalloc(&p, 256 * sizeof(float));\n"
                           "  scale<<<1, 256>>>(p, 256);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 0) << o;
  // Each verdict names its overload by its parameters.
  EXPECT_TRUE(contains(o.out, "kernel 'scale(float*, int)': clean (1 launch judged) at its "
                              "call site")) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'scale(double*, int)': not launched: the file's host code "
                              "launches another overload of 'scale' but never this one")) << o;
  EXPECT_FALSE(contains(o.out, "warning:")) << o;
  Outcome json = simulee({source, "--jobs", "1", "--format", "json"});
  EXPECT_TRUE(contains(json.out, "\"parameters\": \"(double*, int)\"")) << json;
  // `run` needs one of them, named with its parameters.
  Outcome ambiguous = simulee({"run", source, "--kernel", "scale", "--grid", "1", "--block", "32"});
  EXPECT_EQ(ambiguous.status, 2) << ambiguous;
  EXPECT_TRUE(contains(ambiguous.err, "2 kernels named 'scale' (scale(float*, int), "
                                      "scale(double*, int)); choose one with its parameters"))
      << ambiguous;
  Outcome chosen = simulee(
      {"run", source, "--kernel", "scale(double*, int)", "--grid", "1", "--block", "32"});
  EXPECT_TRUE(contains(chosen.out, "kernel 'scale(double*, int)': findings")) << chosen;
}

TEST(CliLaunchDomain, ALibraryKernelIsSearchedAtItsDispatchBlockEvenUnderExplore) {
  // Thrust's transform kernel: launched by the library (never 'not
  // launched'), and only with the block its __launch_bounds__ names, so the
  // 3-D blocks --explore would try elsewhere (threads sharing threadIdx.x,
  // racing on one element) are never searched.
  TempDir dir;
  std::string source = dir.file("thrust_add.cu");
  std::ofstream(source) << "#include <thrust/device_vector.h>\n"
                           "#include <thrust/transform.h>\n"
                           "#include <thrust/functional.h>\n"
                           "int main() {\n"
                           "  thrust::device_vector<int> a(100, 1), b(100, 2);\n"
                           "  thrust::transform(a.begin(), a.end(), b.begin(), b.begin(),\n"
                           "                    thrust::plus<int>());\n"
                           "}\n";
  for (const char *mode : {"--strict", "--explore"}) {
    Outcome o = simulee({source, "--jobs", "1", mode});
    EXPECT_EQ(o.status, 0) << mode << o;
    EXPECT_TRUE(contains(o.out, "the block its library's dispatch launches it with")) << o;
    EXPECT_FALSE(contains(o.out, "not launched")) << o;
    EXPECT_FALSE(contains(o.out, "warning:")) << o;
  }
}

TEST(CliLaunchDomain, AFaultInsideALibraryKernelSeenOnlyWithNumbersTheSearchChoseIsANote) {
  // thrust::sort reaches CUB's radix-sort histogram kernel, whose bit range
  // the search chooses (the dispatch passes one inside the key): a shift by
  // 112 inside CUB's own header is no launch the program is known to make.
  TempDir dir;
  std::string source = dir.file("sort_keys.cu");
  std::ofstream(source) << "#include <thrust/device_vector.h>\n"
                           "#include <thrust/sort.h>\n"
                           "int main() {\n"
                           "  thrust::device_vector<unsigned> keys(1000, 7);\n"
                           "  thrust::sort(keys.begin(), keys.end());\n"
                           "}\n";
  Outcome listed = simulee({"list", source});
  std::string histogram;
  std::istringstream lines(listed.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("DeviceRadixSortHistogramKernel<", 0) == 0 && line.find("[_Z") != line.npos)
      histogram = line.substr(line.find("[_Z") + 1,
                              line.find(']', line.find("[_Z")) - line.find("[_Z") - 1);
  ASSERT_FALSE(histogram.empty()) << listed;
  Outcome o = simulee({source, "--jobs", "1", "--kernel", histogram});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_FALSE(contains(o.out, "warning:")) << o;
  EXPECT_TRUE(contains(o.out, "note: undefined behavior: shift by at least the bit width")) << o;
  EXPECT_TRUE(contains(o.out, "numbers simulee chose for a kernel of NVIDIA's library")) << o;
}

TEST(CliLaunchDomain, ASearchedPitchBelowTheThreadsOfARowIsOutsideTheConventions) {
  // The pitch is searched (the host reads it, and the width, from a file);
  // a kernel given no width covers its image exactly, so a pitch below the
  // threads of a row (rows overlap, blocks race) is no launch the program
  // makes: a note, a warning under --explore. (A pitch cudaMallocPitch
  // returns follows the width: APitchInElementsFromCudaMallocPitch...)
  TempDir dir;
  std::string source = dir.file("pitched.cu");
  std::ofstream(source) << "__global__ void halve(float *image, int stride) {\n"
                           "  int x = blockIdx.x * 8 + threadIdx.x, y = blockIdx.y * 8 + "
                           "threadIdx.y;\n"
                           "  image[y * stride + x] *= 0.5f;\n"
                           "}\n"
                           "int widthFromFile();\n"
                           "int pitchFromFile();\n"
                           "int main() {\n"
                           "  int width = widthFromFile(), height = widthFromFile();\n"
                           "  int pitch = pitchFromFile();\n"
                           "  float *image;\n"
                           "  cudaMalloc((void **)&image, pitch * height * sizeof(float));\n"
                           "  halve<<<dim3(width / 8, height / 8), dim3(8, 8)>>>(image, pitch);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--seed", "1"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_FALSE(contains(o.out, "warning:")) << o;
  EXPECT_TRUE(contains(o.out, "threads of the launch's rows: rows overlap")) << o;
  Outcome explored = simulee({source, "--jobs", "1", "--seed", "1", "--strict"});
  EXPECT_EQ(explored.status, 1) << explored;
  EXPECT_TRUE(contains(explored.out, "warning: data race on global 'image'")) << explored;
}

TEST(CliLaunchDomain, ARaceSeenOnlyWithUnsortedContentsAKernelSearchesIsANote) {
  // A merge: each key's place is its index plus the keys of the other half
  // below it, found by a binary search in a helper. With sorted halves the
  // places are a permutation; with contents the search made up unsorted,
  // two keys land on one place. The search fills the keys sorted first, and
  // a race seen only with other contents names that condition.
  TempDir dir;
  std::string source = dir.file("merge_halves.cu");
  std::ofstream(source) << "__device__ int countBelow(const int *half, int n, int v, bool "
                           "inclusive) {\n"
                           "  int lo = 0, hi = n;\n"
                           "  while (lo < hi) {\n"
                           "    int mid = (lo + hi) / 2;\n"
                           "    if (half[mid] < v || (inclusive && half[mid] == v))\n"
                           "      lo = mid + 1;\n"
                           "    else\n"
                           "      hi = mid;\n"
                           "  }\n"
                           "  return lo;\n"
                           "}\n"
                           "__global__ void mergeHalves(const int *keys, int *out, int half) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i >= 2 * half)\n"
                           "    return;\n"
                           "  bool first = i < half;\n"
                           "  int v = keys[i];\n"
                           "  int others = countBelow(first ? keys + half : keys, half, v, "
                           "!first);\n"
                           "  out[(first ? i : i - half) + others] = v;\n"
                           "}\n"
                           "int main() {\n"
                           "  int half = 512;\n"
                           "  int *keys, *out;\n"
                           "  cudaMalloc(&keys, 2 * half * sizeof(int));\n"
                           "  cudaMalloc(&out, 2 * half * sizeof(int));\n"
                           "  mergeHalves<<<4, 256>>>(keys, out, half);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--seed", "1"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_FALSE(contains(o.out, "warning:")) << o;
  EXPECT_TRUE(contains(o.out, "unsorted contents the kernel searches")) << o;
}

// A scan's layout: thread t's zero goes at 2t - (t & (size - 1)) and its
// value size places on; distinct places only when size is a power of two.
const char *const kPairSums =
    "__global__ void pairSums(const unsigned *in, unsigned *out, unsigned size, unsigned n) {\n"
    "  __shared__ unsigned s[2048];\n"
    "  if (size == 0 || size > blockDim.x)\n"
    "    return;\n"
    "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));\n"
    "  s[pos] = 0;\n"
    "  s[pos + size] = i < n ? in[i] : 0;\n"
    "  __syncthreads();\n"
    "  if (i < n)\n"
    "    out[i] = s[pos + size] + s[pos];\n"
    "}\n";

TEST(CliLaunchDomain, AnIntegerTheKernelMasksWithIsAPowerOfTwoByConvention) {
  // A scan's layout: thread t's zero goes at 2t - (t & (size - 1)) and its
  // value size places on. With size a power of two the places are
  // distinct; with any other size two threads store at one place. The
  // search draws powers of two first, and a race seen only at other sizes
  // names the condition; --explore makes it a warning.
  TempDir dir;
  std::string source = dir.file("pair_sums.cu");
  std::ofstream(source) << kPairSums;
  for (const char *seed : {"1", "2", "3", "4", "5"}) {
    Outcome o = simulee({source, "--jobs", "1", "--seed", seed});
    EXPECT_EQ(o.status, 0) << o;
    EXPECT_FALSE(contains(o.out, "warning:")) << o;
    EXPECT_TRUE(contains(o.out, "not a power of two, which the kernel masks with")) << o;
  }
  Outcome explored = simulee({source, "--jobs", "1", "--explore"});
  EXPECT_EQ(explored.status, 1) << explored;
  EXPECT_TRUE(contains(explored.out, "pair_sums.cu:8:17: warning: data race")) << explored;
}

TEST(CliLaunchDomain, AtACallSiteASearchedIntegerMovesSoThatWhatTheKernelMasksWithIsAPowerOfTwo) {
  // The launcher passes length / 512, its length searched (at least 1024):
  // a length of 3000 would give 5 and a race. The search moves it to the
  // nearest length that gives a power of two (2048: 4), as the launcher's
  // callers conventionally pass.
  TempDir dir;
  std::string source = dir.file("sum_pairs.cu");
  std::ofstream(source) << "#include <cassert>\n"
                        << kPairSums
                        << "void sumPairs(const unsigned *in, unsigned *out, unsigned count, "
                           "unsigned length) {\n"
                           "  assert(length >= 1024);\n"
                           "  pairSums<<<(count + 255) / 256, 256>>>(in, out, length / 512, "
                           "count);\n"
                           "}\n";
  for (const char *seed : {"1", "2", "3", "4", "5"}) {
    Outcome o = simulee({source, "--jobs", "1", "--seed", seed});
    EXPECT_EQ(o.status, 0) << o;
    EXPECT_TRUE(contains(o.out, "kernel 'pairSums': clean")) << o;
    EXPECT_FALSE(contains(o.out, "data race")) << o;
  }
}

TEST(CliLaunchDomain, SearchedSizesWhoseProductPassesTheThreadCapAreHalvedToFit) {
  // The launcher's batch and length are searched, each within the thread
  // cap alone; their product sizes the grid, up to millions of threads
  // (too costly to judge). Halved, the largest first, the launches fit the
  // cap and are judged.
  TempDir dir;
  std::string source = dir.file("batches.cu");
  std::ofstream(source) << "__global__ void addOne(float *data, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n)\n"
                           "    data[i] += 1.0f;\n"
                           "}\n"
                           "void addToBatches(float *data, int batch, int length) {\n"
                           "  addOne<<<(batch * length + 255) / 256, 256>>>(data, batch * "
                           "length);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'addOne': clean")) << o;
  EXPECT_FALSE(contains(o.out, "too costly")) << o;
  EXPECT_FALSE(contains(o.err, "too costly")) << o;
}

TEST(CliLaunchDomain, ContentsTheHostComputesInALoopAndCopiesAreTheBuffers) {
  // Each bucket's next free slot, as the host sets them: b * n, so that the
  // buckets' slots never meet (n keys at most each). Made-up counters made
  // them overlap: a race on the slots. Starts only 16 apart overlap in the
  // program itself: that race is a warning.
  TempDir dir;
  auto program = [](const std::string &start) {
    return "__global__ void toBuckets(const int *key, int *slots, int *next, int n, int "
           "buckets) {\n"
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n && key[i] < buckets)\n"
           "    slots[atomicAdd(&next[key[i]], 1)] = i;\n"
           "}\n"
           "int main() {\n"
           "  const int n = 1024, buckets = 4;\n"
           "  int *start = new int[buckets];\n"
           "  for (int b = 0; b < buckets; ++b)\n"
           "    start[b] = " +
           start +
           ";\n"
           "  int *key, *slots, *next;\n"
           "  cudaMalloc(&key, n * sizeof(int));\n"
           "  cudaMalloc(&slots, n * buckets * sizeof(int));\n"
           "  cudaMalloc(&next, buckets * sizeof(int));\n"
           "  cudaMemcpy(next, start, buckets * sizeof(int), cudaMemcpyHostToDevice);\n"
           "  toBuckets<<<n / 256, 256>>>(key, slots, next, n, buckets);\n"
           "}\n";
  };
  std::string apart = dir.file("buckets_apart.cu"), close = dir.file("buckets_close.cu");
  std::ofstream(apart) << program("b * n");
  std::ofstream(close) << program("b * 16");
  Outcome clean = simulee({apart, "--jobs", "1"});
  EXPECT_EQ(clean.status, 0) << clean;
  EXPECT_TRUE(contains(clean.out, "kernel 'toBuckets': clean")) << clean;
  Outcome racy = simulee({close, "--jobs", "1"});
  EXPECT_EQ(racy.status, 1) << racy;
  EXPECT_TRUE(contains(racy.out, "buckets_close.cu:4:40: warning: data race")) << racy;
  EXPECT_TRUE(contains(racy.out, "next=host:4")) << racy;
}

TEST(CliLaunchDomain, APitchInElementsFromCudaMallocPitchFollowsTheSearchedWidth) {
  // Each block covers 32 columns (threadIdx.y * 8 + threadIdx.x) of rows a
  // pitch apart; the pitch is the width's rows padded (cudaMallocPitch),
  // made elements by `/= sizeof(float)`, and the width a member of the
  // launcher's struct. A pitch searched on its own (69 under a grid three
  // blocks wide) overlapped the rows: a race no launch of the program's has.
  // (A cost cap of 1M thread-instructions keeps the search quick under the
  // sanitizer leg; the pitch searched on its own still shows the race.)
  TempDir dir;
  std::string source = dir.file("tile.cu");
  std::ofstream(source) << "struct Extent {\n"
                           "  int width, height;\n"
                           "};\n"
                           "__global__ void tile(float *img, int stride) {\n"
                           "  int row = blockIdx.y * 4 + threadIdx.z;\n"
                           "  int col = blockIdx.x * 32 + threadIdx.y * 8 + threadIdx.x;\n"
                           "  img[row * stride + col] += 1.0f;\n"
                           "}\n"
                           "void process(Extent size) {\n"
                           "  float *img;\n"
                           "  size_t stride;\n"
                           "  cudaMallocPitch((void **)&img, &stride, size.width * sizeof(float), "
                           "size.height);\n"
                           "  stride /= sizeof(float);\n"
                           "  tile<<<dim3(size.width / 32, size.height / 4), dim3(8, 4, 4)>>>(img, "
                           "(int)stride);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--max-cost", "1000000"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'tile': clean")) << o;
  Outcome listed = simulee({"list", source});
  EXPECT_TRUE(contains(listed.out, "stride=(int)stride size.width=? (searched)")) << listed;
}

TEST(CliLaunchDomain, KeysOfAFixedSizeArrayAreDrawnInTheRangeThatKeepsItInBounds) {
  // Letters into seven shared bins by (c - 'a') / 4: every made-up fill
  // overran the bins, so no launch was judged (inconclusive). Keys drawn
  // from 'a' to 'a' + 27 are judged, and the read-back of the bins before
  // other warps finish counting is a race of the program's.
  TempDir dir;
  std::string source = dir.file("letters.cu");
  std::ofstream(source) << "__global__ void letterCounts(const char *text, int *counts, int n) "
                           "{\n"
                           "  __shared__ int bins[7];\n"
                           "  if (threadIdx.x < 7)\n"
                           "    bins[threadIdx.x] = 0;\n"
                           "  __syncthreads();\n"
                           "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += "
                           "gridDim.x * blockDim.x)\n"
                           "    atomicAdd(&bins[(text[i] - 'a') / 4], 1);\n"
                           "  if (threadIdx.x < 7)\n"
                           "    atomicAdd(&counts[threadIdx.x], bins[threadIdx.x]);\n"
                           "}\n"
                           "int main() {\n"
                           "  int n = 1 << 12;\n"
                           "  char *text;\n"
                           "  int *counts;\n"
                           "  cudaMalloc(&text, n);\n"
                           "  cudaMalloc(&counts, 7 * sizeof(int));\n"
                           "  cudaMemset(counts, 0, 7 * sizeof(int));\n"
                           "  letterCounts<<<n / 256, 256>>>(text, counts, n);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "letters.cu:7:5: warning: data race on shared 'bins'")) << o;
  EXPECT_TRUE(contains(o.out, "text=keys:4096")) << o;
}

TEST(CliLaunchDomain, IndicesAKernelOnlyStoresThroughAreDistinctByConvention) {
  // A scatter: each thread stores at place[i]. Distinct places (a
  // permutation, the search's first fill) never collide; a race seen only
  // with repeated places names the condition, and is a warning under
  // --explore.
  TempDir dir;
  std::string source = dir.file("place_at.cu");
  std::ofstream(source) << "__global__ void placeAt(const int *place, const float *in, float "
                           "*out, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n)\n"
                           "    out[place[i]] = in[i] + 1.0f;\n"
                           "}\n";
  for (const char *seed : {"1", "2", "3", "4", "5"}) {
    Outcome o = simulee({source, "--jobs", "1", "--seed", seed});
    EXPECT_EQ(o.status, 0) << o;
    EXPECT_FALSE(contains(o.out, "warning:")) << o;
    EXPECT_TRUE(contains(o.out, "repeated indices the kernel stores through")) << o;
  }
  Outcome explored = simulee({source, "--jobs", "1", "--explore"});
  EXPECT_EQ(explored.status, 1) << explored;
  EXPECT_TRUE(contains(explored.out, "place_at.cu:4:19: warning: data race")) << explored;
}

TEST(CliLaunchDomain, ALongLoopInALaunchNoSearchChoseIsJudgedNotCalledEndless) {
  // 1.5M iterations per thread, past the 2^20 instructions a searched
  // launch's thread may run: the program's own launch and `run`'s are judged
  // (the time budget bounds them), unless --budget says otherwise.
  TempDir dir;
  std::string source = dir.file("long_loop.cu");
  std::ofstream(source) << "__global__ void accumulate(float *out) {\n"
                           "  float sum = 0.0f;\n"
                           "  for (int i = 0; i < 1500000; ++i)\n"
                           "    sum += 0.5f;\n"
                           "  out[threadIdx.x] = sum;\n"
                           "}\n"
                           "int main() {\n"
                           "  float *out;\n"
                           "  cudaMalloc(&out, 32 * sizeof(float));\n"
                           "  accumulate<<<1, 32>>>(out);\n"
                           "  return 0;\n"
                           "}\n";
  Outcome site = simulee({source, "--jobs", "1"});
  EXPECT_EQ(site.status, 0) << site;
  // (Its loop ran long enough for compiled code to take over: the verdict
  // says how much of it.)
  EXPECT_TRUE(contains(site.out, "clean (1 launch judged")) << site;
  EXPECT_TRUE(contains(site.out, ") at its call site")) << site;
  Outcome run = simulee({"run", source, "--grid", "1", "--block", "32", "--jobs", "1"});
  EXPECT_EQ(run.status, 0) << run;
  Outcome capped = simulee({"run", source, "--grid", "1", "--block", "32", "--jobs", "1",
                            "--budget", "1048576"});
  EXPECT_EQ(capped.status, 3) << capped;
  EXPECT_TRUE(contains(capped.out, "does not terminate")) << capped;
}

TEST(CliLaunchDomain, ALaunchCutShortByItsTimeBudgetNamesTheThreadThatRanLong) {
  // One thread, so its warp's steps are all its own: a thread is named once
  // it has run 2^20 instructions, which a sanitizer build on a slow machine
  // (under a million warp steps a second with 32 lanes) reaches in seconds.
  TempDir dir;
  std::string source = dir.file("spin.cu");
  std::ofstream(source) << "__global__ void spin(int *out) {\n"
                           "  int k = 0;\n"
                           "  while (k >= 0)\n"
                           "    k = (k + 1) & 0xffff;\n"
                           "  out[threadIdx.x] = k;\n"
                           "}\n";
  Outcome o = simulee({"run", source, "--grid", "1", "--block", "1", "--jobs", "1",
                       "--launch-seconds", "3", "--budget", "4294967296"});
  EXPECT_EQ(o.status, 3) << o;
  for (const char *part : {"time budget of 3 s", "thread (0,0,0) of block (0,0,0) had run",
                           "(last at ", "spin.cu:", "a loop that may never end"})
    EXPECT_TRUE(contains(o.out, part)) << "lacks " << part << "\n" << o;
}


TEST(CliLaunchDomain, TheCaseLabelsAroundALaunchBoundItsSearchedVariable) {
  // reduce<64> is launched only under `case 32: case 64:` of the block size
  // it is launched with: a block of 96 (a race by design here) is never one
  // of its launches, while the default case's reduce<1024> takes any.
  TempDir dir;
  std::string source = dir.file("switched.cu");
  std::ofstream(source)
      << "template <unsigned BLOCK> __global__ void reduce(const float *in, float *out) {\n"
         "  if (blockDim.x > BLOCK) out[0] = threadIdx.x;\n"
         "  else if (threadIdx.x == 0) out[blockIdx.x] = in[0];\n"
         "}\n"
         "void launchReduce(const float *in, float *out, int threads) {\n"
         "  switch (threads) {\n"
         "  case 32:\n"
         "  case 64:\n"
         "    reduce<64><<<4, threads>>>(in, out);\n"
         "    break;\n"
         "  default:\n"
         "    reduce<1024><<<4, threads>>>(in, out);\n"
         "  }\n"
         "}\n";
  Outcome listed = simulee({"list", source});
  EXPECT_TRUE(contains(listed.out, "when threads == 32 || threads == 64")) << listed;
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'reduce<64U>': clean (")) << o;
  EXPECT_FALSE(contains(o.out, "data race")) << o;
}

TEST(CliLaunchDomain, AVariableTheHostDecidesIsOneSearchedValueForBlockSharedAndGrid) {
  // A launcher whose block size is a parameter no call in the file fixes:
  // the block, the shared bytes and the grid follow one searched `threads`.
  // Searched apart, the shared bytes rarely fit the block and every launch
  // was skipped as out of bounds (an inconclusive verdict).
  TempDir dir;
  auto write = [&](const std::string &name, const std::string &sharedBytes) {
    std::string source = dir.file(name);
    std::ofstream(source)
        << "__global__ void block_sum(const float *in, float *out, int n) {\n"
           "  extern __shared__ float partial[];\n"
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  partial[threadIdx.x] = i < n ? in[i] : 0.0f;\n"
           "  __syncthreads();\n"
           "  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {\n"
           "    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];\n"
           "    __syncthreads();\n"
           "  }\n"
           "  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];\n"
           "}\n"
           "void launch(const float *in, float *out, int n, int threads) {\n"
           "  block_sum<<<(n + threads - 1) / threads, threads, "
        << sharedBytes << ">>>(in, out, n);\n"
           "}\n";
    return source;
  };
  std::string fitting = write("fitting.cu", "threads * sizeof(float)");
  Outcome listed = simulee({"list", fitting});
  EXPECT_TRUE(contains(listed.out, "block (threads, 1, 1) shared threads * sizeof(float)"))
      << listed;
  EXPECT_TRUE(contains(listed.out, " threads=? (searched)")) << listed;
  Outcome o = simulee({fitting, "--jobs", "1", "--quiet", "--format", "json"});
  EXPECT_EQ(o.status, 0) << o;
  nlohmann::json report = jsonOf(o);
  ASSERT_FALSE(report.is_discarded()) << o;
  const nlohmann::json *sum = kernelEntry(report, "block_sum");
  ASSERT_NE(sum, nullptr) << o;
  EXPECT_EQ((*sum)["verdict"], "clean") << o;
  EXPECT_GT((*sum)["launches"]["judged"].get<int>(), 100) << o;
  EXPECT_EQ((*sum)["launches"]["outOfBounds"], 0) << o;
  // Shared bytes for a quarter of the block: the program's bug, at blocks
  // the search draws as blocks (multiples of 32 among them).
  std::string short_ = write("short.cu", "threads");
  Outcome bug = simulee({short_, "--jobs", "1", "--quiet"});
  EXPECT_EQ(bug.status, 1) << bug;
  EXPECT_TRUE(contains(bug.out, "warning: out-of-bounds write of shared 'partial'")) << bug;
}
} // namespace
} // namespace simulee::cli_test

namespace simulee::cli_test {
namespace {

TEST(CliLaunchDomain, AFindingSeenOnlyOutsideCudasConventionsIsANoteNamingTheCondition) {
  // A race only in blocks that are not a multiple of 32 threads.
  TempDir dir;
  std::string source = dir.file("odd_blocks.cu");
  std::ofstream(source) << "__global__ void odd_blocks(int *flag, int n) {\n"
                           "  if (blockDim.x % 32 != 0 && threadIdx.x < n)\n"
                           "    flag[0] = threadIdx.x;\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "note: data race on global 'flag'")) << o;
  EXPECT_TRUE(contains(o.out, "seen only in launches outside CUDA's conventions (a block of ")) << o;
  EXPECT_TRUE(contains(o.out, "threads, not a multiple of 32)")) << o;
  Outcome json = simulee({source, "--jobs", "1", "--quiet", "--format", "json"});
  EXPECT_TRUE(contains(json.out, "\"benign\": \"unconventional\"")) << json;
  // --explore and --strict make it a warning.
  for (const char *flag : {"--explore", "--strict"}) {
    Outcome warned = simulee({source, "--jobs", "1", "--quiet", flag});
    EXPECT_EQ(warned.status, 1) << warned;
    EXPECT_TRUE(contains(warned.out, "warning: data race on global 'flag'")) << warned;
  }
}

TEST(CliLaunchDomain, IndicesPastWhatTheyIndexAreOutsideTheConventions) {
  // The host sizes every buffer by its count and reads the indices from a
  // file: a read past the allocation seen only with indices the search drew
  // past it is a note; one past the allocation with in-range indices too
  // (the kernel's own off-by-one) stays a warning.
  Outcome o = simulee({corpus("gather_by_index.cu"), "--jobs", "1", "--quiet", "--seed", "2"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "gather_by_index.cu:9:14: note: out-of-bounds read of global 'in'"))
      << o;
  EXPECT_TRUE(contains(o.out, "slot filled ")) << o;
  EXPECT_TRUE(contains(o.out, ": indices past the buffers they index")) << o;
  EXPECT_TRUE(contains(o.out, "gather_by_index.cu:17:14: warning: out-of-bounds read")) << o;
  Outcome strict =
      simulee({corpus("gather_by_index.cu"), "--kernel", "gather", "--jobs", "1", "--quiet",
               "--seed", "2", "--strict"});
  EXPECT_TRUE(contains(strict.out, "gather_by_index.cu:9:14: warning: out-of-bounds read"))
      << strict;
}

TEST(CliLaunchDomain, KeysMadeUpAsIndicesAreOutsideTheConventions) {
  // The host counts letters of a text it reads: (c - 'a') / 4 is in range
  // for every letter, but the search's contents for `text` are indices (or
  // zeros), which the kernel rebases below 0. An overrun seen only so is a
  // note naming the keys, a warning under --strict.
  TempDir dir;
  std::string source = dir.file("letters.cu");
  std::ofstream(source) << "__global__ void letters(const char *text, int *count, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n)\n"
                           "    atomicAdd(&count[(text[i] - 'a') / 4], 1);\n"
                           "}\n"
                           "int readText(char *text, int most);\n"
                           "int main() {\n"
                           "  char host[4096];\n"
                           "  int n = readText(host, 4096);\n"
                           "  char *text;\n"
                           "  int *count;\n"
                           "  cudaMalloc(&text, n);\n"
                           "  cudaMalloc(&count, 7 * sizeof(int));\n"
                           "  cudaMemcpy(text, host, n, cudaMemcpyHostToDevice);\n"
                           "  letters<<<(n + 127) / 128, 128>>>(text, count, n);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet", "--seed", "2"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_FALSE(contains(o.out, "warning:")) << o;
  EXPECT_TRUE(contains(o.out, "letters.cu:4:5: note: out-of-bounds atomic of global 'count'")) << o;
  EXPECT_TRUE(contains(o.out, "an address computed from keys in 'text', which simulee made up"))
      << o;
  Outcome strict = simulee({source, "--jobs", "1", "--quiet", "--seed", "2", "--strict"});
  EXPECT_EQ(strict.status, 1) << strict;
  EXPECT_TRUE(contains(strict.out, "letters.cu:4:5: warning: out-of-bounds atomic")) << strict;
}

TEST(CliLaunchDomain, OffsetsThatDecreaseAreOutsideTheConventions) {
  // CSR rows overlap only when the offsets decrease, which no CSR matrix
  // does: the search fills them with prefix sums first, and a race seen
  // only with other contents is a note naming the buffer.
  TempDir dir;
  std::string source = dir.file("rows.cu");
  std::ofstream(source) << "__global__ void rows(const int *start, int *rowOf, int n) {\n"
                           "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (r < n)\n"
                           "    for (int j = start[r]; j < start[r + 1]; ++j)\n"
                           "      rowOf[j] = r;\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet", "--seed", "3"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_FALSE(contains(o.out, "warning:")) << o;
  EXPECT_TRUE(contains(o.out, "note: data race on global 'rowOf'")) << o;
  EXPECT_TRUE(contains(o.out, "start filled ")) << o;
  EXPECT_TRUE(contains(o.out, ": offsets that decrease")) << o;
  Outcome warned = simulee({source, "--jobs", "1", "--quiet", "--seed", "3", "--explore"});
  EXPECT_EQ(warned.status, 1) << warned;
  EXPECT_TRUE(contains(warned.out, "warning: data race on global 'rowOf'")) << warned;
}

} // namespace
TEST(CliLaunchDomain, TheVerdictCountsTheBlocksModelledAndAllBlocksModelsEach) {
  // 64 blocks of one reduction over zeros: each block repeats the first
  // one's shared-memory behaviour, so one is modelled in full.
  TempDir dir;
  std::string source = dir.file("reduce.cu");
  std::ofstream(source) << "__global__ void reduce(const float *in, float *out) {\n"
                           "  __shared__ float part[64];\n"
                           "  part[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];\n"
                           "  __syncthreads();\n"
                           "  for (unsigned s = 32; s > 0; s >>= 1) {\n"
                           "    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];\n"
                           "    __syncthreads();\n"
                           "  }\n"
                           "  if (threadIdx.x == 0) out[blockIdx.x] = part[0];\n"
                           "}\n";
  std::vector<std::string> args = {"run", source, "--grid", "64", "--block", "64", "--arg",
                                   "in=zeros:4096", "--arg", "out=zeros:64"};
  Outcome o = simulee(args);
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "clean (1 launch judged; shared memory modelled in 1 of 64 "
                              "blocks, the others repeating one of them exactly: see "
                              "--all-blocks)")) << o;
  args.push_back("--all-blocks");
  o = simulee(args);
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "clean (1 launch judged)")) << o;
  args.pop_back();
  args.insert(args.end(), {"--format", "json"});
  o = simulee(args);
  EXPECT_TRUE(contains(o.out, "\"blocks\": 64,")) << o;
  EXPECT_TRUE(contains(o.out, "\"blocksModelled\": 1,\n")) << o;
}

} // namespace simulee::cli_test

namespace simulee::cli_test {
namespace {

// A block of block_size / 32 rows of a warp each: no launch below 32. With
// the program's 4096 rows every block size makes more threads than a
// searched launch may have; the block sizes the program may pass are still
// searched, from 32 up, and judged.
const char *kRowsOfWarps = "__global__ void rows(float *out, int n) {\n"
                           "  int row = blockIdx.x * blockDim.y + threadIdx.y;\n"
                           "  if (row < n)\n"
                           "    out[row * 32 + threadIdx.x] = 1.0f;\n"
                           "}\n"
                           "int blockSizeFromUser();\n"
                           "int main() {\n"
                           "  int n = 4096, block_size = blockSizeFromUser();\n"
                           "  float *out;\n"
                           "  cudaMalloc(&out, n * 32 * sizeof(float));\n"
                           "  int block_y = block_size / 32;\n"
                           "  rows<<<(n + block_y - 1) / block_y, dim3(32, block_y)>>>(out, n);\n"
                           "}\n";

TEST(CliLaunchDomain, ASearchedBlockSizeStartsWhereTheSiteMakesALaunch) {
  TempDir dir;
  std::string source = dir.file("rows_of_warps.cu");
  std::ofstream(source) << kRowsOfWarps;
  Outcome o = simulee({source, "--jobs", "1", "--quiet", "--generations", "1"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'rows': clean (")) << o;
  EXPECT_FALSE(contains(o.out, "is one the call site makes")) << o;
}

TEST(CliLaunchDomain, APopulationOfLaunchesOverTheCostCapEndsTheSearch) {
  TempDir dir;
  std::string source = dir.file("rows_of_warps.cu");
  std::ofstream(source) << kRowsOfWarps;
  // Every launch of the program's 4096 rows is over a cap of 1000
  // thread-instructions: the first population (9 distinct launches of 10)
  // is all there is, not the 10 generations after it.
  Outcome o = simulee({source, "--jobs", "1", "--quiet", "--max-cost", "1000"});
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'rows': inconclusive: no launch could be judged (9 too "
                              "costly)"))
      << o;
}

TEST(CliLaunchDomain, ASiteWhoseEveryLaunchIsOverTheCapIsJudgedOnceAtTheProgramsBudget) {
  // The program's 1M elements in a grid-stride loop, the grid from a number
  // it computes at run time (searched): every searched launch costs more
  // than the cap, and fewer blocks do the same work. The first is judged
  // once as the program's own launch is, and its race found; with --max-cost
  // given, the cap holds.
  TempDir dir;
  std::string source = dir.file("smooth.cu");
  std::ofstream(source) << "__global__ void smooth(float *d, int n) {\n"
                           "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + 1 < n;\n"
                           "       i += gridDim.x * blockDim.x)\n"
                           "    d[i] += d[i + 1];\n"
                           "}\n"
                           "int blocksPerMultiprocessor();\n"
                           "int main() {\n"
                           "  int n = 1 << 20;\n"
                           "  float *d;\n"
                           "  cudaMalloc(&d, n * sizeof(float));\n"
                           "  smooth<<<blocksPerMultiprocessor() * 80, 256>>>(d, n);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "warning: data race on global 'd'")) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'smooth': findings (1 launch judged; ")) << o;
  Outcome capped = simulee({source, "--jobs", "1", "--max-cost", "4194304"});
  EXPECT_EQ(capped.status, 3) << capped;
  EXPECT_TRUE(contains(capped.out, "kernel 'smooth': inconclusive: no launch could be judged ("))
      << capped;
}

TEST(CliLaunchDomain, ALaunchersCallInADoublingLoopPassesPowersOfTwo) {
  // pass() launches with the stride and n its caller's loop passes: stride
  // doubles from 1024 below n, and n is asserted a multiple of 1024, neither
  // known. Segments of a stride that is no power of two overlap (the race
  // every search found when pass()'s parameters were searched freely);
  // the powers of two the program passes race nothing.
  TempDir dir;
  std::string source = dir.file("pairs.cu");
  std::ofstream(source) << "#include <cassert>\n"
                           "__global__ void pairUp(int *out, int stride, int n) {\n"
                           "  int pos = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  int i = pos & (stride - 1);\n"
                           "  int base = (pos - i) * 2;\n"
                           "  if (base + stride + i < n)\n"
                           "    out[base + i] += out[base + stride + i];\n"
                           "}\n"
                           "static void pass(int *out, int stride, int n) {\n"
                           "  pairUp<<<n / 512, 256>>>(out, stride, n);\n"
                           "}\n"
                           "void sumPairs(int *out, int n) {\n"
                           "  assert(n % 1024 == 0);\n"
                           "  for (int stride = 1024; stride < n; stride <<= 1)\n"
                           "    pass(out, stride, n);\n"
                           "}\n"
                           "int sizeFromUser();\n"
                           "int main() {\n"
                           "  int n = sizeFromUser();\n"
                           "  int *out;\n"
                           "  cudaMalloc(&out, n * sizeof(int));\n"
                           "  sumPairs(out, n);\n"
                           "}\n";
  for (const char *seed : {"1", "2"}) {
    Outcome o = simulee({source, "--jobs", "1", "--quiet", "--seed", seed});
    EXPECT_EQ(o.status, 0) << o;
    EXPECT_TRUE(contains(o.out, "kernel 'pairUp': clean (")) << o;
  }
}

TEST(CliLaunchDomain, AProgramsLaunchThatTrapsWhateverItsBuffersHoldEndsTheSearch) {
  // The program's C of 1600 is no multiple of 256: its launch traps, and so
  // does every variant of its buffers' contents. The first population (9
  // distinct launches) is all there is, not the 54 content variants after it.
  TempDir dir;
  std::string source = dir.file("trap_on_size.cu");
  std::ofstream(source) << "__global__ void needsMultiple(float *out, const float *in, int c) {\n"
                           "  if (c % 256 != 0)\n"
                           "    __trap();\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < c && in[i] > 0.0f)\n"
                           "    out[i] = in[i];\n"
                           "}\n"
                           "int main() {\n"
                           "  int c = 1600;\n"
                           "  float *in, *out;\n"
                           "  cudaMalloc(&in, c * sizeof(float));\n"
                           "  cudaMalloc(&out, c * sizeof(float));\n"
                           "  needsMultiple<<<(c + 255) / 256, 256>>>(out, in, c);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'needsMultiple': inconclusive: no launch could be judged "
                              "(9 failed); first failure: "))
      << o;
  EXPECT_TRUE(contains(o.out, "trapped (assert or __trap) in thread (0,0,0) of block (0,0,0) at "))
      << o;
}

TEST(CliLaunchDomain, AFixedShapeWithAFloatComputedAtRunTimeIsJudgedAtItsFullSize) {
  // 65536 threads of about 100 instructions: over the searched launches'
  // cap, but every dimension and integer is the program's; only the scale,
  // computed at run time, is searched. The launch is judged once, whole.
  TempDir dir;
  std::string source = dir.file("runtime_scale.cu");
  std::ofstream(source) << "#include <math.h>\n"
                           "__global__ void scale(float *p, int n, float s) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) {\n"
                           "    float v = p[i];\n"
                           "    for (int k = 0; k < 16; ++k)\n"
                           "      v = v * s + 1.0f;\n"
                           "    p[i] = v;\n"
                           "  }\n"
                           "}\n"
                           "int main() {\n"
                           "  int n = 1 << 16;\n"
                           "  float *p;\n"
                           "  cudaMalloc(&p, n * sizeof(float));\n"
                           "  float s = 1.0f / sqrtf((float)n);\n"
                           "  scale<<<n / 256, 256>>>(p, n, s);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1", "--quiet"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'scale': clean (1 launch judged)")) << o;
}

TEST(CliLaunchDomain, ASizeScaledByACompoundAssignmentIsTheProgramsValue) {
  // n = 4 rows of 256 unless the command line says otherwise, then n *=
  // 256: whole blocks, so every thread runs the loop's barriers as often.
  // Searched (before `*=` was read), n = 300 left threads 44 to 255 out of
  // the second pass: barrier divergence the program cannot reach.
  TempDir dir;
  std::string source = dir.file("block_sum.cu");
  std::ofstream(source) << "#include <cstdlib>\n"
                           "__global__ void blockSum(const float *in, float *out, int n) {\n"
                           "  __shared__ float part[256];\n"
                           "  float sum = 0.0f;\n"
                           "  for (int i = threadIdx.x; i < n; i += 256) {\n"
                           "    part[threadIdx.x] = in[blockIdx.x * n + i];\n"
                           "    __syncthreads();\n"
                           "    if (threadIdx.x == 0)\n"
                           "      for (int j = 0; j < 256; ++j)\n"
                           "        sum += part[j];\n"
                           "    __syncthreads();\n"
                           "  }\n"
                           "  if (threadIdx.x == 0)\n"
                           "    out[blockIdx.x] = sum;\n"
                           "}\n"
                           "int main(int argc, char **argv) {\n"
                           "  int rows = 8, n = 4;\n"
                           "  if (argc > 1)\n"
                           "    n = atoi(argv[1]);\n"
                           "  n *= 256;\n"
                           "  float *in, *out;\n"
                           "  cudaMalloc(&in, rows * n * sizeof(float));\n"
                           "  cudaMalloc(&out, rows * sizeof(float));\n"
                           "  blockSum<<<rows, 256>>>(in, out, n);\n"
                           "}\n";
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'blockSum': clean (1 launch judged")) << o;
  Outcome listed = simulee({"list", source});
  EXPECT_TRUE(contains(listed.out, "n=1024")) << listed;
}

} // namespace
} // namespace simulee::cli_test
