// `simulee exec` on the example programs of examples/exec: each program is
// built against simulee's CUDA runtime and run; its own output and exit status
// must be the expected ones (NAME.expect.json) and its findings exactly the
// labeled ones (kind, kernel, source lines, launch ordinal and call site),
// host-side API findings included.
#include "../cli/CliSupport.h"

#include <algorithm>
#include <map>
#include <set>

namespace simulee::cli_test {
namespace {

std::string examples() { return std::string(SIMULEE_SOURCE_DIR) + "/examples/exec"; }

std::vector<std::string> examplePrograms() {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(examples()))
    if (entry.path().extension() == ".cu")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A finding reduced to what the labels state.
nlohmann::json labelOf(const nlohmann::json &finding) {
  std::vector<int> lines;
  for (const auto &access : finding["accesses"])
    lines.push_back(access["line"].is_null() ? 0 : access["line"].get<int>());
  std::sort(lines.begin(), lines.end());
  const nlohmann::json &launch = finding["launch"];
  return {{"kind", finding["kind"]},
          {"kernel", finding["kernel"]},
          {"lines", lines},
          {"ordinal", launch.value("ordinal", 0)},
          {"launchLine", launch["origin"].is_null() ? 0 : launch["origin"]["line"].get<int>()}};
}

std::vector<std::string> sortedDumps(const nlohmann::json &items) {
  std::vector<std::string> dumps;
  for (const auto &item : items)
    dumps.push_back(item.dump());
  std::sort(dumps.begin(), dumps.end());
  return dumps;
}

class ExecProgram : public ::testing::TestWithParam<std::string> {};

TEST_P(ExecProgram, OutputAndFindingsAreTheLabeledOnes) {
  std::string name = GetParam();
  nlohmann::json expected =
      nlohmann::json::parse(readFile(examples() + "/" + name + ".expect.json"));
  TempDir dir;
  std::vector<std::string> args = {"exec", "examples/exec/" + name + ".cu", "--format", "json",
                                   "-o",   dir.file("report.json")};
  // How the program is built (nvcc's flags, as a Makefile gives them).
  for (const auto &option : expected.value("options", nlohmann::json::array()))
    args.push_back(option.get<std::string>());
  if (expected.contains("args")) {
    args.push_back("--");
    for (const auto &arg : expected["args"])
      args.push_back(arg.get<std::string>());
  }
  Outcome o = simulee(args);
  EXPECT_EQ(o.status, expected["exitStatus"].get<int>()) << o;
  EXPECT_EQ(o.out, expected["stdout"].get<std::string>()) << o;
  if (expected.contains("error")) {
    std::vector<std::string> parts;
    for (const auto &part : expected["error"])
      parts.push_back(part.get<std::string>());
    ASSERT_EQ(o.errorLines().size(), 1u) << o;
    for (const std::string &part : parts)
      EXPECT_TRUE(contains(o.errorLines()[0], part)) << part << "\n" << o;
    return;
  }
  EXPECT_TRUE(o.errorLines().empty()) << o;
  nlohmann::json report = nlohmann::json::parse(readFile(dir.file("report.json")), nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << o;
  nlohmann::json found = nlohmann::json::array();
  for (const auto &finding : report["findings"])
    found.push_back(labelOf(finding));
  EXPECT_EQ(sortedDumps(found), sortedDumps(expected["findings"])) << report.dump(2);

  nlohmann::json host = report["hostFindings"];
  nlohmann::json expectedHost = expected.value("hostFindings", nlohmann::json::array());
  ASSERT_EQ(host.size(), expectedHost.size()) << report.dump(2);
  for (size_t i = 0; i < host.size(); ++i) {
    EXPECT_EQ(host[i]["function"], expectedHost[i]["function"]);
    EXPECT_TRUE(
        endsWith(host[i]["site"].get<std::string>(), expectedHost[i]["site"].get<std::string>()))
        << host[i].dump();
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, ExecProgram, ::testing::ValuesIn(examplePrograms()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           return info.param;
                         });

TEST(Exec, ProgramOfSeveralFilesWithDefinesAndArguments) {
  std::string dir = "examples/exec/multi_file/";
  Outcome o = simulee({"exec", dir + "increment.cu", dir + "scale.cu", dir + "main.cpp", "-D",
                       "FACTOR=3", "--", "100"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, "100 elements: PASSED\n") << o;
  EXPECT_TRUE(contains(o.err, "kernel 'increment': clean (1 launch judged)")) << o;
  EXPECT_TRUE(contains(o.err, "kernel 'scale': clean (1 launch judged)")) << o;
}

// A launch's printf output shows at the next synchronizing call; what no
// call flushed before the program ended never shows, as on a GPU, and the
// verdict of the kernel that printed it says so.
TEST(Exec, DevicePrintfOutputNoCallFlushedIsNoted) {
  Outcome o = simulee({"exec", "examples/exec/device_printf.cu"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "square of 3 is 9\nhost: copied 9\n")) << o;
  EXPECT_FALSE(contains(o.out, "round 2")) << o;
  EXPECT_TRUE(contains(o.err, "note: the output of its last launch's 2 printf calls was never "
                              "printed: no synchronizing call"))
      << o;
}

// Visual Studio's formatting of a launch, `k << <1, 4 >> > (d)`, builds as
// it does with nvcc; the quoted include is found beside the source.
TEST(Exec, ALaunchWithSpacedChevronsBuildsAndRuns) {
  TempDir dir;
  dir.write("value.h", "#define VALUE 40\n");
  std::string source = dir.write(
      "spaced.cu", "#include <cstdio>\n#include \"value.h\"\n"
                   "__global__ void fill(int *p) { p[threadIdx.x] = VALUE + threadIdx.x; }\n"
                   "int main() { int *d, h[4]; cudaMalloc(&d, sizeof h);\n"
                   "  fill << <1, 4 >> > (d);\n"
                   "  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
                   "  printf(\"%d %d\\n\", h[0], h[3]); return 0; }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, "40 43\n") << o;
  EXPECT_TRUE(contains(o.err, "kernel 'fill': clean (1 launch judged)")) << o;
}

TEST(Exec, LaunchThatDoesNotTerminateIsInconclusiveAndTheProgramGoesOn) {
  TempDir dir;
  std::string source = dir.write(
      "spin.cu", "#include <cstdio>\n__global__ void spin(int *flag) { while (*flag == 0) {} }\n"
                 "int main() { int *f; cudaMalloc(&f, 4); cudaMemset(f, 0, 4);\n"
                 "  spin<<<1, 1>>>(f); printf(\"after\\n\"); return 0; }\n");
  Outcome o = simulee({"exec", source, "--budget", "10000"});
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_EQ(o.out, "after\n") << o;
  EXPECT_TRUE(contains(o.err, "kernel 'spin': inconclusive")) << o;
  EXPECT_TRUE(contains(o.err, "does not terminate")) << o;
}

// Five launches of one kernel and shape: the first three are fully checked
// (the race between block 0's threads on slot[0]), the last two run with
// light checks, which still catch the out-of-bounds store only the fifth
// launch makes (k = 8 into 8 slots), but no longer the race; --check-all
// checks all five.
TEST(Exec, RepeatedLaunchesBeyondTheFirstFewGetLightChecksThatStillFindOverruns) {
  TempDir dir;
  std::string source =
      dir.write("repeat.cu", "#include <cstdio>\n"
                             "__global__ void touch(int *slot, int k) {\n"
                             "  slot[0] = threadIdx.x;\n"
                             "  if (threadIdx.x == 0) slot[k] = 1;\n"
                             "}\n"
                             "int main() {\n"
                             "  int *slot;\n"
                             "  cudaMalloc(&slot, 8 * sizeof(int));\n"
                             "  cudaMemset(slot, 0, 8 * sizeof(int));\n"
                             "  for (int k = 4; k <= 8; ++k) touch<<<1, 64>>>(slot, k);\n"
                             "  cudaDeviceSynchronize();\n"
                             "  printf(\"done\\n\");\n"
                             "}\n");
  Outcome o = simulee({"exec", source, "--format", "json", "-o", dir.file("light.json")});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "done\n") << o;
  nlohmann::json light = nlohmann::json::parse(readFile(dir.file("light.json")));
  ASSERT_EQ(light["kernels"].size(), 1u) << light.dump(2);
  const nlohmann::json &kernel = light["kernels"][0];
  EXPECT_EQ(kernel["launches"]["judged"], 3) << kernel.dump(2);
  EXPECT_EQ(kernel["launches"]["lightlyChecked"], 2) << kernel.dump(2);
  std::set<std::pair<std::string, int>> kinds; // kind, launch ordinal
  for (const nlohmann::json &finding : light["findings"])
    kinds.insert({finding["kind"], finding["launch"].value("ordinal", 0)});
  EXPECT_TRUE(kinds.count({"out-of-bounds", 5})) << light.dump(2);
  EXPECT_TRUE(kinds.count({"data-race", 1})) << light.dump(2);

  Outcome all = simulee({"exec", source, "--check-all", "--format", "json", "-o",
                         dir.file("all.json")});
  EXPECT_EQ(all.status, 1) << all;
  nlohmann::json every = nlohmann::json::parse(readFile(dir.file("all.json")));
  EXPECT_EQ(every["kernels"][0]["launches"]["judged"], 5) << every.dump(2);
  EXPECT_EQ(every["kernels"][0]["launches"]["lightlyChecked"], 0) << every.dump(2);
}

// A launch of more than 2^24 threads (the former fixed limit) runs whole:
// the program needs its results, and the model's memory allows it.
TEST(Exec, ALaunchOfManyMillionThreadsRunsWhole) {
  TempDir dir;
  std::string source =
      dir.write("wide_grid.cu", "#include <cstdio>\n"
                                "__global__ void count(unsigned *last) {\n"
                                "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "  if (i == gridDim.x * blockDim.x - 1) *last = i;\n"
                                "}\n"
                                "int main() {\n"
                                "  unsigned *last, h = 0;\n"
                                "  cudaMalloc(&last, sizeof(unsigned));\n"
                                "  count<<<(1 << 16) + 1, 256>>>(last);\n"
                                "  cudaMemcpy(&h, last, sizeof h, cudaMemcpyDeviceToHost);\n"
                                "  printf(\"%u\\n\", h);\n"
                                "}\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, std::to_string((1u << 24) + 255) + "\n") << o;
  // Its 16M threads ran long enough to be compiled, and the verdict says so.
  EXPECT_TRUE(contains(o.err, "kernel 'count': clean (1 launch judged; ")) << o;
  EXPECT_TRUE(contains(o.err, "% of the instructions ran as compiled code)")) << o;
}

// Past what --max-memory lets the model hold (64 bytes a thread), a launch
// still runs, whole, with the light checks (the program needs its results),
// and the verdict says so; the limit reaches the program's runtime.
TEST(Exec, ALaunchTooLargeToModelRunsWithTheLightChecks) {
  TempDir dir;
  std::string source = dir.write(
      "too_large.cu", "#include <cstdio>\n"
                      "__global__ void fill(int *x, long n) {\n"
                      "  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;\n"
                      "  if (i < n) x[i] = 1; if (i == n) x[i] = 2; }\n"
                      "int main() { long n = (1l << 24) + 1024; int *x;\n"
                      "  cudaMalloc(&x, n * 4); fill<<<(n + 1023) / 1024 + 1, 1024>>>(x, n);\n"
                      "  int h; cudaMemcpy(&h, x + n - 1, 4, cudaMemcpyDeviceToHost);\n"
                      "  printf(\"%d\\n\", h); }\n");
  Outcome o = simulee({"exec", source, "--max-memory", "64M"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "1\n") << o;
  // Light checks still find an overrun.
  EXPECT_TRUE(contains(o.err, "too_large.cu:4:41: warning: out-of-bounds write")) << o;
  EXPECT_TRUE(contains(o.err, "note: launches of more than 16777216 threads are too large to "
                              "model in --max-memory (64 MiB): they ran with the light checks"))
      << o;
}

// Representative blocks under exec: the program's allocations have buffer
// ids from ir::kFirstBoundBuffer (2^21) on, which once made every block
// that touched one be modelled whole. Equal blocks are modelled once, with
// the findings --all-blocks gives.
TEST(Exec, EqualBlocksOfAProgramsLaunchAreModelledOnce) {
  TempDir dir;
  std::string source =
      dir.write("blocks.cu",
                "#include <cstdio>\n"
                "__global__ void sum(const int *in, int *out) {\n"
                "  __shared__ int part[64]; unsigned t = threadIdx.x;\n"
                "  part[t] = in[blockIdx.x * 64 + t]; __syncthreads();\n"
                "  for (unsigned s = 32; s > 0; s >>= 1) { if (t < s) part[t] += part[t + s]; }\n"
                "  if (t == 0) out[blockIdx.x] = part[0]; }\n"
                "int main() { int h[64 * 64], *in, *out, r[64];\n"
                "  for (int i = 0; i < 64 * 64; ++i) h[i] = i % 64;\n"
                "  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof r);\n"
                "  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);\n"
                "  sum<<<64, 64>>>(in, out);\n"
                "  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);\n"
                "  printf(\"%d\\n\", r[63]); }\n");
  Outcome representatives = simulee({"exec", source});
  EXPECT_EQ(representatives.status, 1) << representatives;
  EXPECT_EQ(representatives.out, "2016\n") << representatives;
  EXPECT_TRUE(contains(representatives.err, "shared memory modelled in 1 of 64 blocks"))
      << representatives;
  EXPECT_TRUE(contains(representatives.err, "blocks.cu:5:65: warning: data race"))
      << representatives;
  Outcome all = simulee({"exec", source, "--all-blocks"});
  EXPECT_FALSE(contains(all.err, "modelled in")) << all;
  auto warnings = [](const std::string &err) {
    std::string lines;
    for (size_t at = err.find("warning:"); at != std::string::npos;
         at = err.find("warning:", at + 1))
      lines += err.substr(err.rfind('\n', at) + 1, err.find('\n', at) - err.rfind('\n', at));
    return lines;
  };
  EXPECT_EQ(warnings(representatives.err), warnings(all.err)) << representatives << all;
}

// A launch hears only the accesses of allocations with bytes nothing wrote
// yet once its model is off (light checks): a later launch's read of such
// bytes is still found, among allocations whose accesses nobody needs.
TEST(Exec, ALightLaunchStillFindsAReadOfNeverWrittenBytes) {
  TempDir dir;
  std::string source = dir.write(
      "light.cu", "#include <cstdio>\n"
                  "__global__ void copy(int *to, const int *from) {\n"
                  "  to[threadIdx.x] = from[threadIdx.x]; }\n"
                  "int main() { int *in, *half, *out, *scratch;\n"
                  "  cudaMalloc(&in, 256); cudaMalloc(&half, 256); cudaMalloc(&out, 256);\n"
                  "  cudaMalloc(&scratch, 64); cudaMemset(in, 0, 256); cudaMemset(half, 0, 128);\n"
                  "  for (int r = 0; r < 4; ++r) copy<<<1, 64>>>(out, in);\n"
                  "  copy<<<1, 64>>>(out, half);\n"
                  "  cudaDeviceSynchronize(); printf(\"done\\n\"); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "done\n") << o;
  EXPECT_TRUE(contains(o.err, "warning: read of uninitialized global 'from (allocation #2, 256 "
                              "bytes"))
      << o;
  EXPECT_TRUE(contains(o.err, "exposed by the 5th launch")) << o;
  EXPECT_TRUE(contains(o.err, "2 more checked only for")) << o;
}

TEST(Exec, NullPointerArgumentDereferencedIsUndefinedBehavior) {
  TempDir dir;
  std::string source =
      dir.write("null.cu", "#include <cstdio>\n__global__ void k(int *p) { p[threadIdx.x] = 1; }\n"
                           "int main() { k<<<1, 4>>>(nullptr); cudaDeviceSynchronize();\n"
                           "  printf(\"done\\n\"); return 0; }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "done\n") << o;
  EXPECT_TRUE(contains(o.err, "[undefined-behavior]")) << o;
  EXPECT_FALSE(contains(o.err, "clean")) << o;
}

// A value the analysis chose (a call to a device function defined in no
// file given) reaches the program's results: the verdict says so, as
// `simulee run`'s does. nan(tag), which clang's headers leave undefined,
// is nvcc's quiet NaN.
TEST(Exec, ACallToAnUndefinedFunctionIsNotedAndNanOfATagIsANan) {
  TempDir dir;
  std::string source = dir.write(
      "undefined.cu", "#include <cstdio>\n#include <cmath>\n"
                      "__device__ float scale(float);\n"
                      "__global__ void k(float *x, double *e) {\n"
                      "  x[threadIdx.x] = scale(1.0f); double n = nan(\"\");\n"
                      "  if (threadIdx.x == 0) *e = n != n; }\n"
                      "int main() { float *x; double *e, h; cudaMalloc(&x, 128);\n"
                      "  cudaMalloc(&e, 8); k<<<1, 32>>>(x, e);\n"
                      "  cudaMemcpy(&h, e, 8, cudaMemcpyDeviceToHost); printf(\"%g\\n\", h); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, "1\n") << o;
  EXPECT_TRUE(contains(o.err, "note: call to undefined 'scale(float)' at "));
  EXPECT_TRUE(contains(o.err, "clean (1 launch judged)")) << o;
  EXPECT_TRUE(contains(o.err, "undefined.cu:5 returned a chosen value")) << o;
  EXPECT_FALSE(contains(o.err, "'nan(")) << o;
}

TEST(Exec, InvalidLaunchFailsAsOnAGpuAndIsAHostFinding) {
  TempDir dir;
  std::string source =
      dir.write("wide.cu", "#include <cstdio>\n__global__ void k(int *x) { x[threadIdx.x] = 1; }\n"
                           "int main() { int *x; cudaMalloc(&x, 4096 * 4);\n"
                           "  k<<<1, 2048>>>(x);\n"
                           "  printf(\"%s\\n\", cudaGetErrorName(cudaGetLastError())); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "cudaErrorInvalidConfiguration\n") << o;
  EXPECT_TRUE(contains(o.err, "wide.cu:4: error: cudaLaunchKernel: the 1st launch of 'k' at "))
      << o;
  EXPECT_TRUE(contains(o.err, "wide.cu:4 is invalid: block (2048,1,1) has 2048 threads")) << o;
  EXPECT_FALSE(contains(o.err, "inconclusive")) << o;
}

TEST(Exec, SearchAroundTheProgramsLaunchFindsWhatItsOwnLaunchDoesNot) {
  std::string program = "examples/exec/search/strided_update.cu";
  Outcome plain = simulee({"exec", program});
  EXPECT_EQ(plain.status, 0) << plain;
  EXPECT_TRUE(contains(plain.err, "clean (1 launch judged)")) << plain;
  Outcome searched = simulee({"exec", program, "--search", "5"});
  EXPECT_EQ(searched.status, 1) << searched;
  EXPECT_EQ(searched.out, "PASSED\n") << searched;
  EXPECT_TRUE(contains(searched.err, "strided_update.cu:12:16: warning: data race on global "
                                     "'values (allocation #1"))
      << searched;
  EXPECT_TRUE(contains(searched.err, "found by --search")) << searched;
}

TEST(Exec, SimulatedDeviceReportsTheChosenComputeCapability) {
  TempDir dir;
  std::string source = dir.write(
      "sm.cu", "#include <cstdio>\nint main() { cudaDeviceProp p;\n"
               "  cudaGetDeviceProperties(&p, 0); int minor = -1;\n"
               "  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);\n"
               "  printf(\"%d.%d %d %s\\n\", p.major, minor, p.warpSize, p.name);\n"
               "  int chosen = -1; p.major = 1; p.minor = 3; cudaChooseDevice(&chosen, &p);\n"
               "  printf(\"%d\\n\", chosen); }\n");
  Outcome o = simulee({"exec", source, "--sm", "75"});
  EXPECT_EQ(o.status, 0) << o;
  // cudaChooseDevice picks the one device whatever is asked.
  EXPECT_EQ(o.out, "7.5 32 simulee simulated GPU (sm_75)\n0\n") << o;
}

// Cache and shared-memory bank preferences are hints: the device keeps the
// cache preference it was given, and its banks are 4 bytes wide whatever is
// asked (as on every GPU since Volta).
TEST(Exec, CacheAndBankPreferencesAreAnsweredAsOnAVoltaOrLaterGpu) {
  TempDir dir;
  std::string source = dir.write(
      "preferences.cu",
      "#include <cstdio>\n__global__ void k() {}\nint main() {\n"
      "  cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte);\n"
      "  cudaFuncSetSharedMemConfig(k, cudaSharedMemBankSizeEightByte);\n"
      "  cudaSharedMemConfig banks; cudaDeviceGetSharedMemConfig(&banks);\n"
      "  cudaFuncCache cache; cudaDeviceGetCacheConfig(&cache);\n"
      "  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);\n"
      "  cudaFuncCache after; cudaDeviceGetCacheConfig(&after);\n"
      "  printf(\"%d %d %d\\n\", banks == cudaSharedMemBankSizeFourByte,\n"
      "         cache == cudaFuncCachePreferNone, after == cudaFuncCachePreferShared); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, "1 1 1\n") << o;
}

TEST(Exec, EveryDeviceAttributeAnswersAsTheDevicePropertiesSay) {
  // The device-selection helper most samples share reads the compute mode
  // and whether the GPU is integrated; a refused attribute stopped them.
  TempDir dir;
  std::string source = dir.write(
      "attributes.cu",
      "#include <cstdio>\nint main() {\n"
      "  int refused = 0, answered = 0, value = 0;\n"
      "  for (int a = 1; a <= 134; ++a) {\n"
      "    bool reserved = a == 44 || (a >= 92 && a <= 94) || (a >= 102 && a <= 105) ||\n"
      "                    a == 107 || a == 110 || (a >= 122 && a <= 124) ||\n"
      "                    (a >= 127 && a <= 129) || a == 132;\n"
      "    cudaError_t e = cudaDeviceGetAttribute(&value, cudaDeviceAttr(a), 0);\n"
      "    if (reserved) continue;\n"
      "    if (e == cudaSuccess) ++answered; else { ++refused; printf(\"refused %d\\n\", a); }\n"
      "  }\n"
      "  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n"
      "  int mode = -1, integrated = -1, tex = -1;\n"
      "  cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0);\n"
      "  cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, 0);\n"
      "  cudaDeviceGetAttribute(&tex, cudaDevAttrMaxTexture2DHeight, 0);\n"
      "  bool agree = mode == p.computeMode && integrated == p.integrated &&\n"
      "              tex == p.maxTexture2D[1];\n"
      "  printf(\"%d refused, mode %d, integrated %d, %s\\n\", refused, mode, integrated,\n"
      "         agree ? \"agree\" : \"disagree\");\n"
      "  return answered > 100 ? 0 : 1;\n"
      "}\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, "0 refused, mode 0, integrated 0, agree\n") << o;
}

TEST(Exec, TheProfilerCallsCompileAndSucceed) {
  // cuda_profiler_api.h is not in NVIDIA's runtime wheel; simulee supplies it
  // (ahead of a toolkit's copy in /usr/local/include, which is refused).
  TempDir dir;
  std::string source = dir.write(
      "profiled.cu", "#include <cstdio>\n#include <cuda_profiler_api.h>\n"
                     "__global__ void k(int *x) { x[threadIdx.x] = 1; }\n"
                     "int main() { int *x; cudaMalloc(&x, 64 * 4);\n"
                     "  cudaProfilerStart(); k<<<1, 64>>>(x); cudaProfilerStop();\n"
                     "  printf(\"%s\\n\", cudaGetErrorName(cudaDeviceSynchronize())); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, "cudaSuccess\n") << o;
  Outcome analysed = simulee({source, "--jobs", "1"});
  EXPECT_EQ(analysed.status, 0) << analysed;
}

// NVTX's ranges and marks (nvToolsExt.h, nvtx3/nvToolsExt.h), which no
// wheel simulee uses ships: declared by simulee, each a no-op answering as
// NVTX does with no tool attached, and -lnvToolsExt needs no library.
TEST(Exec, NvtxRangesCompileAndDoNothing) {
  TempDir dir;
  std::string source =
      dir.write("ranges.cu", "#include <cstdio>\n#include <nvToolsExt.h>\n"
                             "#include <nvtx3/nvToolsExt.h>\n"
                             "__global__ void k(int *x) { x[threadIdx.x] = 1; }\n"
                             "int main() { int *x; cudaMalloc(&x, 64 * 4);\n"
                             "  nvtxEventAttributes_t a = {};\n"
                             "  a.version = NVTX_VERSION; a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;\n"
                             "  a.colorType = NVTX_COLOR_ARGB; a.color = 0xff00ff00;\n"
                             "  a.messageType = NVTX_MESSAGE_TYPE_ASCII; a.message.ascii = \"k\";\n"
                             "  int level = nvtxRangePushEx(&a); nvtxMarkA(\"go\");\n"
                             "  nvtxRangeId_t r = nvtxRangeStartA(\"launch\");\n"
                             "  k<<<1, 64>>>(x); nvtxRangeEnd(r);\n"
                             "  nvtxRangePush(\"plain\"); nvtxMark(\"names\"); nvtxRangePop();\n"
                             "  printf(\"%d %d %s\\n\", level, nvtxRangePop(),\n"
                             "         cudaGetErrorName(cudaDeviceSynchronize())); }\n");
  Outcome o = simulee({"exec", source, "-lnvToolsExt"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, "-2 -2 cudaSuccess\n") << o;
}

// A kernel in an included header with `__shared__ alignas(16)`, which clang
// refuses: the program builds from a rewritten copy of the header under its
// own name and runs, its race named at the header's line.
TEST(Exec, SharedDeclarationsClangRefusesInAHeaderCompile) {
  TempDir dir;
  dir.write("stencil.cuh", "#pragma once\n"
                           "__global__ void smooth(const float *in, float *out, int n) {\n"
                           "  __shared__ alignas(16) float tile[66];\n"
                           "  int i = blockIdx.x * 64 + threadIdx.x;\n"
                           "  tile[threadIdx.x + 1] = i < n ? in[i] : 0.0f;\n"
                           "  if (i < n)\n"
                           "    out[i] = tile[threadIdx.x] + tile[threadIdx.x + 2];\n"
                           "}\n");
  std::string source = dir.write("main.cu", "#include <cstdio>\n"
                                            "#include \"stencil.cuh\"\n"
                                            "int main() {\n"
                                            "  float *in, *out;\n"
                                            "  cudaMalloc(&in, 256 * sizeof(float));\n"
                                            "  cudaMalloc(&out, 256 * sizeof(float));\n"
                                            "  cudaMemset(in, 0, 256 * sizeof(float));\n"
                                            "  smooth<<<4, 64>>>(in, out, 256);\n"
                                            "  printf(\"done\\n\");\n"
                                            "  return 0;\n"
                                            "}\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "done\n") << o;
  EXPECT_TRUE(contains(o.err, "stencil.cuh:5:25: warning: data race on shared 'tile'")) << o;
}

// A call failing alike again and again (a timing loop over a copy past its
// allocation) is one finding, counted: never a screenful of copies.
TEST(Exec, AHostFindingRepeatedInALoopIsReportedOnceWithItsCount) {
  TempDir dir;
  std::string source =
      dir.write("again.cu", "#include <cstdio>\n"
                            "int main() {\n"
                            "  char *d, h[64] = {};\n"
                            "  cudaMalloc(&d, 32);\n"
                            "  for (int i = 0; i < 3; ++i)\n"
                            "    cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);\n"
                            "  printf(\"%s\\n\", cudaGetErrorName(cudaGetLastError()));\n"
                            "  return 0;\n"
                            "}\n");
  Outcome o = simulee({"exec", source, "--format", "json", "-o", dir.file("report.json")});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "cudaErrorInvalidValue\n") << o;
  nlohmann::json report = nlohmann::json::parse(readFile(dir.file("report.json")));
  ASSERT_EQ(report["hostFindings"].size(), 1u) << report.dump(2);
  EXPECT_EQ(report["hostFindings"][0]["times"], 3);
  Outcome text = simulee({"exec", source});
  EXPECT_TRUE(contains(text.err, "32 bytes past its end (3 times) [host-api-error]")) << text;
}

// A matrix whose leading dimension and columns span more bytes than 64 bits
// count is refused as past every allocation, never wrapped to a small size.
TEST(Exec, ACublasOperandSpanningMoreThanMemoryIsRefused) {
  TempDir dir;
  std::string source = dir.write(
      "huge.cu",
      "#include <climits>\n#include <cstdio>\n#include <cublas_v2.h>\n"
      "int main() {\n"
      "  double *c, zero = 0;\n"
      "  cudaMalloc(&c, 64);\n"
      "  cublasHandle_t h;\n"
      "  cublasCreate(&h);\n"
      "  cublasStatus_t s = cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, INT_MAX, 1, &zero,\n"
      "                                 c, 1, c, 1, &zero, c, INT_MAX);\n"
      "  printf(\"%s\\n\", cublasGetStatusName(s));\n"
      "  return 0;\n"
      "}\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "CUBLAS_STATUS_EXECUTION_FAILED\n") << o;
  EXPECT_TRUE(contains(o.err, "matrix C spans more bytes than any allocation has")) << o;
}

// A kernel file that includes cuBLAS to compare against it (its kernels'
// launches read from host code that calls cuBLAS too): analysed, where it
// was refused for the toolkit's cublas_v2.h, which simulee cannot use.
TEST(Exec, AKernelFileIncludingCublasIsAnalysedAtItsSites) {
  TempDir dir;
  std::string source =
      dir.write("compare.cu", "#include <cublas_v2.h>\n"
                              "__global__ void axpy(int n, float a, const float *x, float *y) {\n"
                              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "  if (i < n)\n"
                              "    y[i] += a * x[i];\n"
                              "}\n"
                              "void both(cublasHandle_t h, int n, const float *x, float *y) {\n"
                              "  float a = 2;\n"
                              "  cublasSaxpy(h, n, &a, x, 1, y, 1);\n"
                              "  axpy<<<(n + 255) / 256, 256>>>(n, a, x, y);\n"
                              "}\n");
  Outcome o = simulee({source, "--jobs", "1"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "kernel 'axpy': clean")) << o;
  EXPECT_TRUE(contains(o.out, "at its call site " + source + ":10")) << o;
}

TEST(Exec, TextReportGoesToStandardErrorAndNamesTheLaunch) {
  Outcome o = simulee({"exec", "examples/exec/launches_tail.cu"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "PASSED\n");
  EXPECT_TRUE(contains(o.err, "exposed by the 3rd launch")) << o;
  EXPECT_TRUE(contains(o.err, "launched at examples/exec/launches_tail.cu:21")) << o;
  EXPECT_TRUE(contains(o.err, "cudaMalloc at examples/exec/launches_tail.cu:19")) << o;
}

TEST(Exec, ExitStatusProgramKeepsTheProgramsStatus) {
  Outcome o = simulee({"exec", "examples/exec/histogram_skewed.cu", "--exit-status", "program"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.err, "[data-race]")) << o;
}

TEST(Exec, ProgramThatDoesNotCompileIsAnError) {
  TempDir dir;
  std::string source =
      dir.write("broken.cu", "__global__ void k(int *x) { x[0] = ; }\nint main() { return 0; }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 2) << o;
  ASSERT_EQ(o.errorLines().size(), 1u) << o;
  EXPECT_TRUE(contains(o.errorLines()[0], "broken.cu")) << o;
}

// helper_cuda.h without the CUDA samples' Common directory: simulee's own,
// whose checks stop the program at a failed call as the samples' helper
// does (they did nothing, and the program ran on past the failure).
TEST(Exec, TheSamplesHelperChecksStopAtAFailedCall) {
  TempDir dir;
  std::string source =
      dir.write("checked.cu", "#include <cstdio>\n#include <helper_cuda.h>\n"
                              "__global__ void k(int *x) { x[threadIdx.x] = 1; }\n"
                              "int main(int argc, char **argv) {\n"
                              "  int device = findCudaDevice(argc, (const char **)argv);\n"
                              "  int *x; checkCudaErrors(cudaMalloc(&x, 64 * sizeof(int)));\n"
                              "  k<<<1, 64>>>(x); getLastCudaError(\"k failed\");\n"
                              "  printf(\"device %d\\n\", device);\n"
                              "  checkCudaErrors(cudaSetDevice(5));\n"
                              "  printf(\"not reached\\n\"); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "GPU Device 0: \"")) << o;
  EXPECT_TRUE(contains(o.out, "device 0\n")) << o;
  EXPECT_FALSE(contains(o.out, "not reached")) << o;
  EXPECT_TRUE(contains(o.err, "checked.cu:9 code=101(cudaErrorInvalidDevice) "
                              "\"cudaSetDevice(5)\""))
      << o;
}

// helper_timer.h without the CUDA samples' Common directory: simulee's own
// stopwatch with the samples' sdk*Timer functions (book code times its
// kernels with it and failed to compile).
TEST(Exec, TheSamplesTimerMeasuresSessionsAndTheirAverage) {
  TempDir dir;
  std::string source = dir.write(
      "timed.cu",
      "#include <cstdio>\n#include <helper_timer.h>\n"
      "__global__ void k(int *x) { x[threadIdx.x] = 1; }\n"
      "int main() { int *x; cudaMalloc(&x, 256); StopWatchInterface *t = nullptr;\n"
      "  sdkCreateTimer(&t);\n"
      "  for (int i = 0; i < 2; ++i) { sdkStartTimer(&t); k<<<1, 64>>>(x);\n"
      "    cudaDeviceSynchronize(); sdkStopTimer(&t); }\n"
      "  float total = sdkGetTimerValue(&t), average = sdkGetAverageTimerValue(&t);\n"
      "  bool halves = total > 0 && average * 2 > total * 0.999f && average * 2 < total * "
      "1.001f;\n"
      "  sdkResetTimer(&t); float reset = sdkGetTimerValue(&t); sdkDeleteTimer(&t);\n"
      "  printf(\"%d %g %d\\n\", halves, reset, t == nullptr); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, "1 0 1\n") << o;

  // A plain C++ file sees it too (and the CUDA runtime's headers), as nvcc
  // gives .cpp files the toolkit's include directory.
  std::string kernel = dir.write("kernel.cu", "__global__ void k(int *x) { x[threadIdx.x] = 1; }\n"
                                              "void launch(int *x) { k<<<1, 64>>>(x); }\n");
  std::string host =
      dir.write("main.cpp", "#include <cstdio>\n#include <cuda_runtime.h>\n"
                            "#include <helper_timer.h>\n#include <helper_cuda.h>\n"
                            "void launch(int *x);\n"
                            "int main() { int *x; checkCudaErrors(cudaMalloc(&x, 256));\n"
                            "  StopWatchInterface *t = nullptr; sdkCreateTimer(&t);\n"
                            "  sdkStartTimer(&t); launch(x); cudaDeviceSynchronize();\n"
                            "  sdkStopTimer(&t); printf(\"%d\\n\", sdkGetTimerValue(&t) > 0); }\n");
  Outcome split = simulee({"exec", host, kernel});
  EXPECT_EQ(split.status, 0) << split;
  EXPECT_EQ(split.out, "1\n") << split;
}

// The sm_XX headers nvcc's cuda_runtime.h includes, included again by the
// program: nothing new (clang's wrapper has their definitions; the host
// pass defined them twice).
TEST(Exec, TheArchitectureHeadersIncludedDirectlyCompile) {
  TempDir dir;
  std::string source =
      dir.write("direct.cu",
                "#include <cstdio>\n#include <sm_20_intrinsics.h>\n"
                "#include <sm_20_atomic_functions.h>\n#include <sm_35_atomic_functions.h>\n"
                "#include <sm_60_atomic_functions.h>\n#include <sm_61_intrinsics.h>\n"
                "__global__ void k(int *x) { atomicAdd(x, __dp4a(0x01020304, 0x01010101, 0)); }\n"
                "int main() { int *x, h; cudaMalloc(&x, 4); cudaMemset(x, 0, 4);\n"
                "  k<<<1, 2>>>(x); cudaMemcpy(&h, x, 4, cudaMemcpyDeviceToHost);\n"
                "  printf(\"%d\\n\", h); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out, "20\n") << o;
}

// An allocation larger than the machine can hold (a program sizing its
// buffer from the device's memory, as an oversubscription test does) is a
// GPU's out of memory, said at its call, never a crash of the runtime.
TEST(Exec, AnAllocationThisMachineCannotHoldIsOutOfMemory) {
  TempDir dir;
  std::string source =
      dir.write("huge.cu", "#include <cstdio>\n__global__ void k(char *p) { p[0] = p[1]; }\n"
                           "int main() { char *p = (char *)1; size_t n = (size_t)250 << 30;\n"
                           "  cudaError_t e = cudaMallocManaged(&p, n);\n"
                           "  printf(\"%s %d\\n\", cudaGetErrorName(e), p == nullptr);\n"
                           "  printf(\"%s\\n\", cudaGetErrorName(cudaMalloc(&p, 64)));\n"
                           "  k<<<1, 1>>>(p); cudaDeviceSynchronize(); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "cudaErrorMemoryAllocation 1\ncudaSuccess\n") << o;
  // The failed allocation took no number: the first one made is #1.
  EXPECT_TRUE(contains(o.err, "read of uninitialized global 'p (allocation #1, 64 bytes")) << o;
  EXPECT_TRUE(contains(o.err, "cudaMallocManaged at ")) << o;
  EXPECT_TRUE(contains(o.err, "huge.cu:4: 268435456000 bytes are more than this machine")) << o;
}

// A second cudaFree long after the first, once the allocation's memory was
// released for good (more than the quarantine's 256 MiB freed since, as in
// the book code whose by-value lock struct frees its mutex in a copy's
// destructor), still names it as a double free.
TEST(Exec, ADoubleFreeAfterTheMemoryWasReleasedStillNamesTheAllocation) {
  TempDir dir;
  std::string source = dir.write("late_double_free.cu",
                                 "#include <cstdio>\n"
                                 "int main() { int *m, *big; cudaMalloc(&m, 4); cudaFree(m);\n"
                                 "  cudaMalloc(&big, (size_t)300 << 20); cudaFree(big);\n"
                                 "  printf(\"%s\\n\", cudaGetErrorName(cudaFree(m))); }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out, "cudaErrorInvalidDevicePointer\n") << o;
  EXPECT_TRUE(contains(o.err, "late_double_free.cu:4: error: cudaFree: double free of allocation "
                              "#1, 4 bytes, cudaMalloc at "))
      << o;
  EXPECT_TRUE(contains(o.err, "already freed at ")) << o;
}

TEST(Exec, ProgramsOwnExitStatusWithoutFindings) {
  TempDir dir;
  std::string source =
      dir.write("seven.cu", "#include <cstdio>\n__global__ void k(int *x) { x[threadIdx.x] = 1; }\n"
                            "int main() { int *x; cudaMalloc(&x, 64 * sizeof(int));\n"
                            "  k<<<1, 64>>>(x); printf(\"ran\\n\"); return 7; }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_EQ(o.status, 7) << o;
  EXPECT_EQ(o.out, "ran\n") << o;
  EXPECT_TRUE(contains(o.err, "clean (1 launch judged)")) << o;
}

// SIGTERM to simulee while the program's second launch runs (it spins on a
// flag nobody sets): the program is stopped, and the report holds the first
// launch's race; the spinning launch is not judged and says so.
TEST(Exec, StopSignalWritesTheReportOfEveryLaunchJudgedBefore) {
  TempDir dir;
  dir.write(
      "spin.cu",
      "#include <cstdio>\n"
      "__global__ void racy(int *x) { x[0] = threadIdx.x; }\n"
      "__global__ void spin(volatile int *flag) { while (*flag == 0) {} }\n"
      "int main() { int *x, *f; cudaMalloc(&x, 4); cudaMalloc(&f, 4); cudaMemset(f, 0, 4);\n"
      "  racy<<<1, 64>>>(x); cudaDeviceSynchronize(); printf(\"spinning\\n\"); fflush(stdout);\n"
      "  spin<<<1, 1>>>(f); cudaDeviceSynchronize(); printf(\"never\\n\"); return 0; }\n");
  std::string script =
      "cd " + quote(dir.path()) + " && { timeout 120 " + quote(SIMULEE_BINARY) +
      " exec spin.cu --format json -o report.json >out 2>err & pid=$!; "
      "for i in $(seq 900); do grep -q spinning out 2>/dev/null && break; sleep 0.1; done; "
      "sleep 0.5; kill -TERM $pid; wait $pid; echo $? >status; }";
  ASSERT_EQ(std::system(("bash -c " + quote(script)).c_str()), 0);
  std::string err = readFile(dir.file("err"));
  EXPECT_EQ(readFile(dir.file("out")), "spinning\n") << err;
  EXPECT_EQ(readFile(dir.file("status")), "1\n") << err; // findings
  EXPECT_TRUE(contains(err, "stopped by signal 15")) << err;
  nlohmann::json report = nlohmann::json::parse(readFile(dir.file("report.json")), nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << err;
  std::map<std::string, std::string> verdicts;
  for (const auto &kernel : report["kernels"])
    verdicts[kernel["kernel"].get<std::string>()] = kernel["verdict"].get<std::string>();
  EXPECT_EQ(verdicts["racy"], "findings") << report.dump(1);
  EXPECT_EQ(verdicts["spin"], "inconclusive") << report.dump(1);
}

// A crash inside the runtime (here a copy from an address the process cannot
// read) is one error naming the call and its line, never a bare segfault.
TEST(Exec, CrashInsideTheRuntimeNamesTheCall) {
  TempDir dir;
  std::string source =
      dir.write("wild.cu", "__global__ void k(int *x) { x[threadIdx.x] = 1; }\n"
                           "int main() { int *x; cudaMalloc(&x, 64 * sizeof(int));\n"
                           "  k<<<1, 64>>>(x);\n"
                           "  cudaMemcpy(x, (const void *)16, 64, cudaMemcpyHostToDevice);\n"
                           "  return 0; }\n");
  Outcome o = simulee({"exec", source});
  EXPECT_TRUE(isOneLineError(o, {"Segmentation fault", "cudaMemcpy at", "wild.cu:4"}));
}

} // namespace
} // namespace simulee::cli_test
