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

// --- sizes -------------------------------------------------------------------

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

TEST(HostileInput, HugeGridIsTooLargeToSimulate) {
  Outcome o = simulee({"run", hostile("empty_structs.ll"), "--grid", "2147483647"});
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
