// Hostile inputs (issue 13): malformed IR, hostile sizes and options,
// non-regular files, undefined behaviour in kernels, unwritable output. Each
// ends in exit 2 with one `simulee: error:` line, or in a finding; never in a
// signal (exit 128+N through the shell) or a timeout (exit 124).
#include "CliSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace simulee::hostile_test {
namespace {

namespace fs = std::filesystem;

using namespace simulee::cli_test;

std::string hostile(const std::string &name) {
  return std::string(SIMULEE_SOURCE_DIR) + "/tests/cli/inputs/hostile/" + name;
}

template <class T> std::vector<T> valuesIn(const std::string &path) {
  std::string bytes = readFile(path);
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// --- invalid IR ------------------------------------------------------------

TEST(HostileInput, IrThatDoesNotVerifyIsOneErrorLineNotAnAbort) {
  // It carries debug info: LLVM's automatic debug-info upgrade would call the
  // fatal handler ("Broken module found") and abort the process.
  Outcome o = simulee({"run", hostile("broken_dominance.ll")});
  EXPECT_TRUE(isOneLineError(o, {"broken_dominance.ll", "invalid LLVM IR", "dominate"}));
}

TEST(HostileInput, CorruptBitcodeIsOneErrorLine) {
  TempDir dir;
  std::string path = dir.file("corrupt.bc");
  std::string bytes = "BC\xc0\xde";
  uint32_t state = 12345;
  for (int i = 0; i < 4096; ++i) {
    state = state * 1103515245u + 12345u;
    bytes += char(state >> 24);
  }
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_TRUE(isOneLineError(simulee({"run", path}), {"corrupt.bc"}));
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "BC\xc0\xde";
  EXPECT_TRUE(isOneLineError(simulee({"list", path}), {"corrupt.bc"}));
}

TEST(HostileInput, BitcodeThatCrashesLLVMsReaderIsOneErrorLine) {
  // Bit-flipped copies of corpus kernels' bitcode: LLVM's reader follows a
  // wild pointer in the first two (a segfault before the loader parsed
  // untrusted IR in a child) and runs out of memory in the third.
  for (const char *name : {"bitflip_reader_crash_1.bc", "bitflip_reader_crash_2.bc"})
    for (const char *command : {"list", "run"}) {
      Outcome o = simulee({command, hostile(name)});
      EXPECT_TRUE(isOneLineError(o, {name, "malformed LLVM bitcode", "reader crashed"}))
          << command;
    }
  // LLVM's allocation-failure handler names it; under AddressSanitizer the
  // huge allocation is a sanitizer report in the child instead.
  Outcome o = simulee({"list", hostile("bitflip_allocation.bc")});
  EXPECT_TRUE(isOneLineError(o, {"bitflip_allocation.bc", "LLVM"}));
  EXPECT_TRUE(contains(o.err, "LLVM: Allocation failed") ||
              contains(o.err, "malformed LLVM bitcode: LLVM's reader crashed"))
      << o;
  // Found by the fuzzer: a few shuffled bytes name an attribute of parameter
  // 2^28, and LLVM's reader builds gigabytes of tables for it without
  // failing. Read in the child only; the file is refused for the memory.
  o = simulee({"list", hostile("bitflip_huge_attribute_index.bc")});
  EXPECT_TRUE(isOneLineError(o, {"bitflip_huge_attribute_index.bc", "malformed LLVM bitcode",
                                 "MiB of memory, more than a file of 3500 bytes can need"}))
      << o;
  // The search and the default command too.
  o = simulee({hostile("bitflip_reader_crash_1.bc"), "--quiet"});
  EXPECT_EQ(o.status, 2) << o;
  EXPECT_TRUE(contains(o.err, "malformed LLVM bitcode")) << o;
}

TEST(HostileInput, LibraryCallsWithAWrongSignatureAreUnsupported) {
  for (auto [kernel, callee] :
       {std::pair{"pow_one_argument", "__nv_powf"}, std::pair{"memset_no_length", "memset"},
        std::pair{"memcpy_wrong_types", "memcpy"}}) {
    Outcome o = simulee({"run", hostile("bad_signature.ll"), "--kernel", kernel});
    EXPECT_TRUE(isOneLineError(o, {kernel, "unsupported", callee})) << kernel;
  }
}

// --- files that are not regular files ---------------------------------------

TEST(HostileInput, FifoAsKernelFileIsRefusedWithoutBlocking) {
  TempDir dir;
  std::string fifo = dir.file("kernel.ll");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_TRUE(isOneLineError(simulee({"run", fifo}), {"kernel.ll", "not a regular file"}));
}

TEST(HostileInput, AnIncludeOfAFifoIsRefusedWithoutBlocking) {
  TempDir dir;
  fs::create_directories(dir.path() + "/inc");
  ASSERT_EQ(mkfifo(dir.file("quoted.cuh").c_str(), 0600), 0);
  ASSERT_EQ(mkfifo((dir.path() + "/inc/angled.cuh").c_str(), 0600), 0);
  std::string quoted = dir.file("quoted.cu"), angled = dir.file("angled.cu");
  std::ofstream(quoted) << "#include \"quoted.cuh\"\n__global__ void k(float *o) { o[0] = 1; }\n";
  std::ofstream(angled) << "#include <angled.cuh>\n__global__ void k(float *o) { o[0] = 1; }\n";
  for (const char *command : {"list", "run"}) {
    EXPECT_TRUE(isOneLineError(simulee({command, quoted}),
                               {"quoted.cu:1", "quoted.cuh", "FIFO, device or socket"}));
    EXPECT_TRUE(isOneLineError(simulee({command, angled, "-I", dir.path() + "/inc"}),
                               {"angled.cu:1", "angled.cuh", "FIFO, device or socket"}));
  }
  Outcome o = simulee({quoted, "--quiet"});
  EXPECT_EQ(o.status, 2) << o;
  EXPECT_TRUE(contains(o.err, "FIFO, device or socket")) << o;
}

TEST(HostileInput, AnIncludeOfAFifoInTheProgramsOtherFileDoesNotBlock) {
  // main.cpp calls the launcher kernels.cu defines and includes a FIFO:
  // beside kernels.cu it is passed over; named with it, its host code
  // cannot be read, and the note says why.
  TempDir dir;
  ASSERT_EQ(mkfifo(dir.file("pipe.h").c_str(), 0600), 0);
  std::string kernels = dir.file("kernels.cu"), main = dir.file("main.cpp");
  std::ofstream(kernels) << "__global__ void k(float *o, int n) { o[threadIdx.x] = n; }\n"
                            "void run(float *o, int n) { k<<<1, 32>>>(o, n); }\n";
  std::ofstream(main) << "#include \"pipe.h\"\n"
                         "void run(float *o, int n);\n"
                         "int main() { run(nullptr, 3); }\n";
  Outcome beside = simulee({"list", kernels});
  EXPECT_EQ(beside.status, 0) << beside;
  EXPECT_TRUE(contains(beside.out, "launched at " + kernels + ":2")) << beside;
  Outcome named = simulee({"list", kernels, main});
  EXPECT_EQ(named.status, 0) << named;
  EXPECT_TRUE(contains(named.err, "pipe.h\" is a FIFO, device or socket")) << named;
}

TEST(HostileInput, DeviceAsKernelFileIsRefused) {
  TempDir dir;
  std::string link = dir.file("zero.ll");
  fs::create_symlink("/dev/zero", link);
  EXPECT_TRUE(isOneLineError(simulee({"list", link}), {"zero.ll", "not a regular file"}));
}

TEST(HostileInput, FifoDeviceAndDirectoryAsArgumentFileAreRefused) {
  TempDir dir;
  std::string fifo = dir.file("input.bin");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string &path : {fifo, std::string("/dev/zero"), dir.path()}) {
    Outcome o = simulee({"run", hostile("empty_structs.ll"), "--arg", "out=@" + path});
    EXPECT_TRUE(isOneLineError(o, {"empty_structs", "'out'", "not a regular file"})) << path;
  }
}

TEST(HostileInput, LaunchFilesThatAreNoRegularFilesAreRefusedWithoutBlocking) {
  TempDir dir;
  std::string fifo = dir.file("launch.json");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string &path : {fifo, std::string("/dev/zero"), dir.path()})
    for (const char *command : {"run", "replay"}) {
      Outcome o = simulee({command, hostile("empty_structs.ll"), "--launch", path});
      EXPECT_TRUE(isOneLineError(o, {path, "cannot read the launch file"}))
          << command << " " << path;
    }
}

TEST(HostileInput, LaunchFileSharedBytesOverTheLimitAreRefused) {
  TempDir dir;
  for (const char *bytes : {"4294967296", "49153", "-1", "\"many\""}) {
    std::string path = dir.file("launch.json");
    std::ofstream(path, std::ios::trunc) << "{\"grid\": [1, 1, 1], \"block\": [32, 1, 1], "
                                         << "\"sharedBytes\": " << bytes << "}";
    Outcome o = simulee({"run", hostile("empty_structs.ll"), "--launch", path});
    EXPECT_TRUE(isOneLineError(o, {"launch.json", "'sharedBytes'", "49152"})) << bytes;
  }
}

// --- sizes -------------------------------------------------------------------

TEST(HostileInput, KernelParametersOverCudasLimitAreAnErrorNotGigabytes) {
  // One by-value struct of 64 MiB: every thread would hold a copy.
  TempDir dir;
  std::string path = dir.file("huge_param.ll");
  std::ofstream(path) << R"(target triple = "nvptx64-nvidia-cuda"
%struct.Big = type { [16777216 x float] }
define void @k(ptr byval(%struct.Big) align 4 %b, ptr %out) {
  %v = load float, ptr %b, align 4
  store float %v, ptr %out, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
)";
  for (std::vector<std::string> args :
       {std::vector<std::string>{"run", path}, std::vector<std::string>{path, "--quiet"}}) {
    Outcome o = simulee(args);
    EXPECT_EQ(o.status, 2) << o;
    EXPECT_TRUE(contains(o.err, "its parameters take 67108872 bytes")) << o;
    EXPECT_TRUE(contains(o.err, "at most 32764")) << o;
  }
}

TEST(HostileInput, HugeBufferArgumentIsOverTheMemoryLimit) {
  Outcome o = simulee(
      {"run", hostile("empty_structs.ll"), "--arg", "out=zeros:268435456", "--max-memory", "64M"});
  EXPECT_TRUE(isOneLineError(o, {"'out'", "memory limit", "--max-memory"}));
}

TEST(HostileInput, HugeSharedArrayIsRefused) {
  Outcome o = simulee({"run", hostile("huge_shared.ll")});
  EXPECT_TRUE(isOneLineError(o, {"huge_shared", "'tile'", "2147483648", "49152"}));
}

TEST(HostileInput, HugeDeviceArrayAndVectorAreRefused) {
  EXPECT_TRUE(isOneLineError(simulee({"run", hostile("huge_initializer.ll")}),
                             {"huge_initializer", "'table'", "too large"}));
  EXPECT_TRUE(isOneLineError(simulee({"run", hostile("huge_device.ll")}),
                             {"huge_device", "'table'", "too large"}));
  // Either the value (over 4096 scalar parts) or the automatic buffer of
  // 4 GiB elements (over the memory limit) is refused first.
  EXPECT_TRUE(isOneLineError(simulee({"run", hostile("huge_vector.ll")}), {"huge_vector"}));
}

TEST(HostileInput, DeeplyNestedTypeIsOneShortErrorLine) {
  Outcome o = simulee({"run", hostile("deep_struct.ll")});
  ASSERT_TRUE(isOneLineError(o, {"deep_struct.ll", "nested deeper than 64 levels"}));
  EXPECT_LT(o.errorLines()[0].size(), 400u) << "the instruction text is cut short";
}

TEST(HostileInput, ArrayOfEmptyStructsNeitherLoopsNorAllocates) {
  TempDir dir;
  Outcome o = simulee({"run", hostile("empty_structs.ll"), "--block", "1", "--arg", "out=zeros:1",
                       "--dump", "out=" + dir.file("out.bin")});
  ASSERT_EQ(o.status, 0) << o;
  EXPECT_EQ(valuesIn<int32_t>(dir.file("out.bin")), std::vector<int32_t>{3});
}

TEST(HostileInput, HugeGridWithNoBudgetIsTooLargeToSimulate) {
  // With a time budget it would run until the budget ends; with none it
  // could not stop, so it is refused at once.
  Outcome o = simulee(
      {"run", hostile("empty_structs.ll"), "--grid", "2147483647", "--launch-seconds", "0"});
  EXPECT_TRUE(isOneLineError(o, {"empty_structs", "too large to simulate", "--grid"}));
}

TEST(HostileInput, NegativeAndNonFiniteOptionsAreRefused) {
  std::string file = hostile("empty_structs.ll");
  for (std::vector<std::string> args : {std::vector<std::string>{"run", file, "--grid", "-1"},
                                        {"run", file, "--grid", "-4294967295"},
                                        {"run", file, "--budget", "-1"},
                                        {"run", file, "--seed", "-1"},
                                        {file, "--accept", "nan"},
                                        {file, "--jobs", "-1"},
                                        {"run", file, "--max-memory", "-1"},
                                        {"run", file, "--max-memory", "1T"}}) {
    Outcome o = simulee(args);
    EXPECT_TRUE(isOneLineError(o, {})) << args[args.size() - 2] << " " << args.back();
  }
  Outcome o = simulee({"run", hostile("undefined_behavior.ll"), "-k", "shift_64_by_minus_one",
                       "--arg", "amount=-18446744073709551615"});
  EXPECT_TRUE(isOneLineError(o, {"amount", "out of range"}));
}

// --- exact constants and pointers -------------------------------------------

TEST(HostileInput, SixtyFourBitMinusOneAndMinusTwoAreTheirOwnConstants) {
  TempDir dir;
  Outcome o = simulee({"run", hostile("constants_minus_one.ll"), "--arg", "out=zeros:3", "--dump",
                       "out=" + dir.file("out.bin")});
  ASSERT_EQ(o.status, 0) << o;
  EXPECT_EQ(valuesIn<int64_t>(dir.file("out.bin")), (std::vector<int64_t>{-1, -2, 7}));
}

TEST(HostileInput, FarPointerArithmeticStaysOutOfBoundsOfItsOwnBuffer) {
  TempDir dir;
  Outcome o = simulee({"run", hostile("far_pointer.ll"), "--block", "1", "--arg", "a=zeros:4",
                       "--arg", "b=zeros:4", "--dump", "b=" + dir.file("b.bin")});
  ASSERT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "out-of-bounds write of global 'a'")) << o;
  EXPECT_EQ(valuesIn<int32_t>(dir.file("b.bin")), std::vector<int32_t>(4, 0))
      << "the write must not land in 'b'";
}

TEST(HostileInput, MemsetOfAWrappingLengthIsOutOfBounds) {
  Outcome o = simulee({"run", hostile("huge_memset.ll"), "--block", "1"});
  ASSERT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "[out-of-bounds]")) << o;
}

// --- undefined behaviour -----------------------------------------------------

struct UndefinedCase {
  const char *kernel;
  const char *argument; // NAME=VALUE, or ""
  const char *text;
};

TEST(HostileInput, UndefinedBehaviorIsAFindingNotACrash) {
  const UndefinedCase cases[] = {
      {"shift_too_large", "amount=32",
       "shift by at least the bit width: a 32-bit value shifted by 32"},
      {"shift_64_by_minus_one", "amount=-1", "a 64-bit value shifted by 18446744073709551615"},
      {"divide_by_zero", "d=0", "integer division by zero"},
      {"int_min_by_minus_one", "d=-1", "signed division overflow"},
      {"null_write", "", "null-pointer access"},
      {"misaligned", "", "misaligned access: 4 bytes at byte offset 2"},
  };
  for (const UndefinedCase &c : cases) {
    std::vector<std::string> args = {
        "run", hostile("undefined_behavior.ll"), "-k", c.kernel, "--block", "1"};
    if (*c.argument)
      args.insert(args.end(), {"--arg", c.argument});
    Outcome o = simulee(args);
    EXPECT_EQ(o.status, 1) << c.kernel << "\n" << o;
    EXPECT_TRUE(contains(o.out, c.text)) << c.kernel << "\n" << o;
    EXPECT_TRUE(contains(o.out, "[undefined-behavior]")) << c.kernel << "\n" << o;
  }
}

TEST(HostileInput, NullWriteIsNotAttributedToAVariableAndStopsTheThread) {
  TempDir dir;
  Outcome o =
      simulee({"run", hostile("undefined_behavior.ll"), "-k", "null_write", "--block", "1", "--arg",
               "out=zeros:1", "--dump", "out=" + dir.file("out.bin"), "--format", "json"});
  ASSERT_EQ(o.status, 1) << o;
  nlohmann::json report = nlohmann::json::parse(o.out);
  ASSERT_EQ(report["findings"].size(), 1u) << o;
  EXPECT_EQ(report["findings"][0]["kind"], "undefined-behavior");
  EXPECT_FALSE(contains(o.out, "global 'out'")) << o;
  EXPECT_EQ(valuesIn<int32_t>(dir.file("out.bin")), std::vector<int32_t>{0})
      << "the thread stops at the null write";
}

// --- output ------------------------------------------------------------------

TEST(HostileInput, ReportToAFullDiskIsAnError) {
  for (const char *format : {"text", "json", "sarif"}) {
    Outcome o = simulee({"run", hostile("empty_structs.ll"), "--format", format},
                        RunSettings{"", "/dev/full"});
    EXPECT_TRUE(isOneLineError(o, {"cannot write the report"})) << format;
  }
  Outcome o = simulee({"list", hostile("empty_structs.ll")}, RunSettings{"", "/dev/full"});
  EXPECT_TRUE(isOneLineError(o, {"cannot write"}));
}

TEST(HostileInput, LaunchFileAndDumpToAFullDiskAreErrors) {
  TempDir dir;
  Outcome o = simulee({hostile("empty_structs.ll"), "--quiet", "--generations", "1",
                       "--save-launch", "/dev/full"});
  EXPECT_TRUE(isOneLineError(o, {"/dev/full", "cannot write the launch file"}));
  o = simulee({"run", hostile("empty_structs.ll"), "--dump", "out=/dev/full"});
  EXPECT_TRUE(isOneLineError(o, {"/dev/full", "--dump"}));
  o = simulee({"run", hostile("empty_structs.ll"), "--dump", "out=" + dir.path() + "/no/such"});
  EXPECT_TRUE(isOneLineError(o, {"no/such", "--dump"}));
}

TEST(HostileInput, NonUtf8NamesAndPathsGiveValidJsonAndSarif) {
  TempDir dir;
  // A kernel named "k\xff" in a file named "bad\xfe.ll".
  std::string path = dir.file("bad\xfe.ll");
  std::string text = readFile(hostile("undefined_behavior.ll"));
  size_t at = text.find("@null_write");
  while (at != std::string::npos) {
    text.replace(at, std::strlen("@null_write"), "@\"k\\FF\"");
    at = text.find("@null_write", at);
  }
  std::ofstream(path, std::ios::binary) << text;
  for (const char *format : {"json", "sarif"}) {
    Outcome o = simulee({"run", path, "-k", "k\xff", "--block", "1", "--format", format});
    ASSERT_EQ(o.status, 1) << format << "\n" << o;
    nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
    EXPECT_FALSE(report.is_discarded()) << format << "\n" << o;
    EXPECT_TRUE(contains(o.out, "\xef\xbf\xbd")) << "U+FFFD replaces the bad bytes\n" << o;
  }
}

TEST(HostileInput, ScanOfHostileFilesReportsEachAndFinishes) {
  Outcome o =
      simulee({"scan", std::string(SIMULEE_SOURCE_DIR) + "/tests/cli/inputs/hostile", "--quiet"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.err, "broken_dominance.ll")) << o;
  EXPECT_TRUE(contains(o.err, "invalid LLVM IR")) << o;
  EXPECT_TRUE(contains(o.out, "[undefined-behavior]")) << o;
  EXPECT_TRUE(contains(o.err, "bitflip_reader_crash_2.bc: malformed LLVM bitcode")) << o;
}

TEST(HostileInput, ScanOfManyEmptyFilesFinishesWithEachAnError) {
  TempDir dir;
  for (int i = 0; i < 300; ++i)
    std::ofstream(dir.file("e" + std::to_string(i) + ".ll"));
  Outcome o = simulee({"scan", dir.path()});
  EXPECT_EQ(o.status, 2) << o;
  EXPECT_TRUE(contains(o.err, "300 files, 300 kernels: 300 error")) << o;
}

TEST(HostileInput, IrCompiledElsewhereNamesItsSourceSoThatItOpensFromHere) {
  // Debug info says "k.cu" in the directory clang ran in; the diagnostic
  // must name a path that opens from simulee's working directory.
  TempDir dir;
  fs::create_directories(dir.path() + "/other");
  std::ofstream(dir.path() + "/other/k.cu") << "__global__ void k(float *out) {\n"
                                               "  out[0] = 1.0f;\n"
                                               "}\n";
  std::string ll = dir.path() + "/other/k.ll";
  std::ofstream(ll) << R"(target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %out) !dbg !4 {
  store float 1.0, ptr %out, align 4, !dbg !6
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!nvvm.annotations = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cu", directory: ")" + dir.path() + R"(/other")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{ptr @k, !"kernel", i32 1}
!4 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !5, unit: !0, spFlags: DISPFlagDefinition)
!5 = !DISubroutineType(types: !{null})
!6 = !DILocation(line: 2, column: 10, scope: !4)
)";
  Outcome o = simulee({"run", ll, "--block", "64", "--format", "json", "--strict"});
  ASSERT_EQ(o.status, 1) << o;
  nlohmann::json report = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(report["findings"].empty()) << o;
  std::string file = report["findings"][0]["accesses"][0]["file"].get<std::string>();
  EXPECT_NE(file, "k.cu") << "k.cu is no file in " << fs::current_path();
  std::error_code ec;
  EXPECT_TRUE(fs::equivalent(file, dir.path() + "/other/k.cu", ec)) << file;
  Outcome text = simulee({"run", ll, "--block", "64", "--strict"});
  EXPECT_TRUE(contains(text.out, file + ":2:10: warning")) << text;
  EXPECT_TRUE(contains(text.out, "out[0] = 1.0f;")) << "the line is quoted\n" << text;
}

TEST(HostileInput, CudaLoadsLeaveNoTemporaryFiles) {
  TempDir dir;
  Outcome o = simulee({"list", std::string(SIMULEE_SOURCE_DIR) + "/examples/reduce_race.cu"},
                      RunSettings{"TMPDIR=" + quote(dir.path()) + " ", ""});
  ASSERT_EQ(o.status, 0) << o;
  EXPECT_TRUE(fs::is_empty(dir.path())) << fs::directory_iterator(dir.path())->path();
}

} // namespace
} // namespace simulee::hostile_test
