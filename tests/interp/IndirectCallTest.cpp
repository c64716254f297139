// Calls the front end resolves at run time (function pointers, virtual
// calls) and calls of functions with no body: outputs checked against the
// host, errors named, never a crash.
#include "TestSupport.h"

#include "interp/ChosenValue.h"

#include <algorithm>

namespace simulee::interp_test {
namespace {

using interp::ArgumentValue;

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

int hostOp(int op, int a, int b) {
  switch (op & 3) {
  case 0:
    return a + b;
  case 1:
    return a - b;
  case 2:
    return a * b;
  default:
    return std::max(a, b);
  }
}

TEST(IndirectCalls, DispatchTableIndexedByDataMatchesHost) {
  const int n = 100; // four warps, the last partly empty
  std::vector<int> ops(n), a(n), b(n), out(n, -1), twice(n, -1);
  for (int i = 0; i < n; ++i) {
    ops[i] = (i * 7 + i / 5) % 9; // every table entry, mixed inside each warp
    a[i] = i % 13 - 6;
    b[i] = i % 5 + 1;
  }
  std::vector<ArgumentValue> args = {bufferArg(ops), bufferArg(a),     bufferArg(b),
                                     bufferArg(out), bufferArg(twice), scalarArg(n)};
  ASSERT_TRUE(launch("function_pointers.cu", 0, "dispatch", {2, 1, 1}, {64, 1, 1}, args));
  std::vector<int> wantOut(n), wantTwice(n);
  for (int i = 0; i < n; ++i) {
    wantOut[i] = hostOp(ops[i], a[i], b[i]);
    wantTwice[i] = hostOp(ops[i], wantOut[i], b[i]);
  }
  EXPECT_TRUE(matches(wantOut, valuesOf<int>(args[3].bytes)));
  EXPECT_TRUE(matches(wantTwice, valuesOf<int>(args[4].bytes)));
}

TEST(IndirectCalls, DispatchTableAtO2MatchesHost) {
  const int n = 32;
  std::vector<int> ops(n), a(n), b(n), out(n, -1), twice(n, -1);
  for (int i = 0; i < n; ++i) {
    ops[i] = 3 - i % 4;
    a[i] = i;
    b[i] = 2;
  }
  std::vector<ArgumentValue> args = {bufferArg(ops), bufferArg(a),     bufferArg(b),
                                     bufferArg(out), bufferArg(twice), scalarArg(n)};
  ASSERT_TRUE(launch("function_pointers.cu", 2, "dispatch", {1, 1, 1}, {32, 1, 1}, args));
  std::vector<int> wantOut(n);
  for (int i = 0; i < n; ++i)
    wantOut[i] = hostOp(ops[i], a[i], b[i]);
  EXPECT_TRUE(matches(wantOut, valuesOf<int>(args[3].bytes)));
}

TEST(IndirectCalls, VirtualCallsOnObjectsBuiltInTheKernelMatchHost) {
  const int n = 48;
  std::vector<int> kinds(n);
  std::vector<float> x(n), area(n, -1), scaled(n, -1);
  for (int i = 0; i < n; ++i) {
    kinds[i] = (i / 3) % 2;
    x[i] = 0.5f + float(i);
  }
  std::vector<ArgumentValue> args = {bufferArg(kinds), bufferArg(x), bufferArg(area),
                                     bufferArg(scaled), scalarArg(n)};
  ASSERT_TRUE(launch("function_pointers.cu", 0, "virtualArea", {1, 1, 1}, {64, 1, 1}, args));
  std::vector<float> wantArea(n), wantScaled(n);
  for (int i = 0; i < n; ++i) {
    bool rect = kinds[i] != 0;
    wantArea[i] = rect ? x[i] * 3.0f : x[i] * x[i];
    wantScaled[i] = rect ? 2.0f * 0.5f * x[i] * 3.0f : 0.5f * wantArea[i];
  }
  EXPECT_TRUE(matches(wantArea, valuesOf<float>(args[2].bytes), 1e-6));
  EXPECT_TRUE(matches(wantScaled, valuesOf<float>(args[3].bytes), 1e-6));
}

TEST(IndirectCalls, VirtualCallsOnObjectsMadeWithNewMatchHost) {
  std::vector<int> kinds(32), out(32, -1);
  for (int i = 0; i < 32; ++i)
    kinds[i] = (i * 5) % 3 == 0;
  std::vector<ArgumentValue> args = {bufferArg(kinds), bufferArg(out)};
  ASSERT_TRUE(launch("function_pointers.cu", 0, "virtualOnHeap", {1, 1, 1}, {32, 1, 1}, args));
  std::vector<int> want(32);
  for (int i = 0; i < 32; ++i)
    want[i] = kinds[i] ? 2 * i : i + 1;
  EXPECT_TRUE(matches(want, valuesOf<int>(args[1].bytes)));
  const ir::KernelInfo *kernel =
      loadTestProgram("function_pointers.cu", 0)->findKernel("virtualOnHeap");
  ASSERT_NE(kernel, nullptr);
  // operator new allocates on the device heap, as CUDA's device runtime
  // does: no note of a call of a function with no body.
  bool noted = false;
  for (const std::string &note : kernel->notes)
    noted = noted || contains(note, "'operator new(unsigned long)'");
  EXPECT_FALSE(noted);
}

TEST(IndirectCalls, CallThroughDataIsAnErrorNamingKernelAndLine) {
  std::vector<long> bits(32, 0x1234);
  std::vector<int> out(32, 0);
  std::vector<ArgumentValue> args = {bufferArg(bits), bufferArg(out)};
  ::testing::AssertionResult result =
      launch("function_pointers.cu", 0, "callsData", {1, 1, 1}, {32, 1, 1}, args);
  ASSERT_FALSE(result);
  std::string message = result.message();
  EXPECT_TRUE(contains(message, "kernel 'callsData'")) << message;
  EXPECT_TRUE(contains(message, "a pointer that is not a function (0x1234)")) << message;
  EXPECT_TRUE(contains(message, "function_pointers.cu:56")) << message;
}

TEST(UnresolvedCalls, ReturnChosenValuesAndNoteEachCall) {
  const ir::Program *program = loadTestProgram("unresolved_calls.cu", 0);
  ASSERT_NE(program, nullptr);
  const ir::KernelInfo *kernel = program->findKernel("unresolved");
  ASSERT_NE(kernel, nullptr);
  EXPECT_TRUE(kernel->unsupported.empty()) << kernel->unsupported;
  std::vector<std::string> notes = kernel->notes;
  ASSERT_EQ(notes.size(), 4u);
  EXPECT_TRUE(contains(notes[0], "call to undefined 'weight(int)' at ")) << notes[0];
  EXPECT_TRUE(contains(notes[0], "unresolved_calls.cu:11 returned a chosen value")) << notes[0];
  EXPECT_TRUE(contains(notes[1], "'scale(float)' at "));
  EXPECT_TRUE(contains(notes[1], "unresolved_calls.cu:12 returned a chosen value"));
  EXPECT_TRUE(contains(notes[2], "unresolved_calls.cu:13 returned a fresh private buffer"));
  EXPECT_TRUE(contains(notes[3], "unresolved_calls.cu:17 did nothing"));

  auto run = [&](int first) {
    std::vector<int> out(32, first);
    std::vector<float> fout(32, -1.0f);
    std::vector<ArgumentValue> args = {bufferArg(out), bufferArg(fout)};
    interp::LaunchConfig config;
    config.block = {32, 1, 1};
    Result<interp::RunStats> stats = interp::runKernel(*program, *kernel, config, args);
    EXPECT_TRUE(stats.ok()) << stats.error().message;
    return std::make_pair(valuesOf<int>(args[0].bytes), valuesOf<float>(args[1].bytes));
  };
  auto [out, fout] = run(0);
  // One value per launch and call site: every thread got the same, in range.
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [&](int v) { return v == out[0]; }));
  EXPECT_TRUE(out[0] >= 0 && out[0] < 100) << out[0];
  EXPECT_TRUE(std::all_of(fout.begin(), fout.end(), [&](float v) { return v == fout[0]; }));
  EXPECT_TRUE(fout[0] >= 0.0f && fout[0] < 1.0f) << fout[0];
  // Deterministic: the same launch chooses the same values.
  EXPECT_EQ(run(0), std::make_pair(out, fout));
  // Another launch (other buffer contents) chooses other values somewhere.
  bool differs = false;
  for (int first = 1; first < 8 && !differs; ++first)
    differs = run(first).first[0] != out[0];
  EXPECT_TRUE(differs);
}

TEST(UnresolvedCalls, ChosenValuesFitTheirType) {
  for (uint32_t site = 0; site < 64; ++site) {
    EXPECT_LT(interp::chosenValue(7, site, 1, false), 2u);
    EXPECT_LT(interp::chosenValue(7, site, 32, false), 100u);
    float f = std::bit_cast<float>(uint32_t(interp::chosenValue(7, site, 32, true)));
    EXPECT_TRUE(f >= 0.0f && f < 1.0f) << f;
    double d = std::bit_cast<double>(interp::chosenValue(7, site, 64, true));
    EXPECT_TRUE(d >= 0.0 && d < 1.0) << d;
  }
}

} // namespace
} // namespace simulee::interp_test
