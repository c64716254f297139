// Library-level error paths of the interpreter: bad calls and launches come
// back as errors naming the kernel and the problem; runaway kernels stop at
// the budget or the call-depth limit; bad addresses are reported as events
// and never crash the simulator.
#include "TestSupport.h"

#include "interp/Events.h"

namespace simulee::interp_test {
namespace {

using interp::ArgumentValue;
using interp::Dim3;
using interp::LaunchConfig;

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

class OutOfBoundsRecorder : public interp::ExecutionListener {
public:
  std::vector<interp::OutOfBoundsEvent> events;
  std::vector<interp::UndefinedBehaviorEvent> undefined;
  void onOutOfBounds(const interp::OutOfBoundsEvent &e) override { events.push_back(e); }
  void onUndefinedBehavior(const interp::UndefinedBehaviorEvent &e) override {
    undefined.push_back(e);
  }
};

LaunchConfig oneWarp(uint64_t budget = 1u << 22) {
  LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {32, 1, 1};
  config.budgetInstrs = budget;
  return config;
}

// Runs kernel `name` of bad_errors.cu; the message on failure, "" on success.
std::string errorOf(const std::string &name, const LaunchConfig &config,
                    std::vector<ArgumentValue> &args,
                    interp::ExecutionListener *listener = nullptr) {
  const ir::Program *program = loadTestProgram("bad_errors.cu", 0);
  if (!program)
    return "not loaded";
  const ir::KernelInfo *kernel = program->findKernel(name);
  if (!kernel)
    return "no kernel " + name;
  interp::RunOptions options;
  options.listener = listener;
  Result<interp::RunStats> stats = interp::runKernel(*program, *kernel, config, args, options);
  return stats.ok() ? std::string() : stats.error().message;
}

TEST(InterpErrors, WrongArgumentCountIsAnError) {
  std::vector<ArgumentValue> tooFew = {bufferArg(std::vector<int>(32))};
  std::string message = errorOf("twoParams", oneWarp(), tooFew);
  EXPECT_TRUE(contains(message, "twoParams")) << message;
  EXPECT_TRUE(contains(message, "expects 2 arguments, got 1")) << message;

  std::vector<ArgumentValue> tooMany = {bufferArg(std::vector<int>(32)), scalarArg(1),
                                        scalarArg(2)};
  EXPECT_TRUE(contains(errorOf("twoParams", oneWarp(), tooMany), "got 3"));

  std::vector<ArgumentValue> right = {bufferArg(std::vector<int>(32)), scalarArg(4)};
  EXPECT_EQ(errorOf("twoParams", oneWarp(), right), "");
  EXPECT_EQ(valuesOf<int>(right[0].bytes), std::vector<int>(32, 4));
}

TEST(InterpErrors, ValidateLaunchNamesTheViolatedLimit) {
  auto messageOf = [](Dim3 grid, Dim3 block, uint32_t shared = 0) {
    LaunchConfig config;
    config.grid = grid;
    config.block = block;
    config.dynamicSharedBytes = shared;
    Status status = interp::validateLaunch(config);
    return status.ok() ? std::string() : status.error().message;
  };
  EXPECT_EQ(messageOf({65535, 65535, 65535}, {1024, 1, 1}, 48 * 1024), "");
  EXPECT_TRUE(contains(messageOf({1, 1, 1}, {2048, 1, 1}), "2048 threads; the limit is 1024"));
  EXPECT_TRUE(contains(messageOf({1, 1, 1}, {32, 32, 2}), "the limit is 1024"));
  EXPECT_TRUE(contains(messageOf({1, 1, 1}, {0, 1, 1}), "at least 1"));
  EXPECT_TRUE(contains(messageOf({1, 0, 1}, {32, 1, 1}), "at least 1"));
  EXPECT_TRUE(contains(messageOf({1, 1, 1}, {1, 1, 65}), "z dimension 65"));
  EXPECT_TRUE(contains(messageOf({1, 1, 70000}, {32, 1, 1}), "65535"));
  EXPECT_TRUE(contains(messageOf({1, 70000, 1}, {32, 1, 1}), "65535"));
  EXPECT_TRUE(contains(messageOf({1, 1, 1}, {32, 1, 1}, 49 * 1024), "dynamic shared memory"));
}

TEST(InterpErrors, RunKernelRejectsInvalidLaunchBeforeRunning) {
  LaunchConfig config = oneWarp();
  config.block = {2048, 1, 1};
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(32, -1)), scalarArg(4)};
  std::string message = errorOf("twoParams", config, args);
  EXPECT_TRUE(contains(message, "twoParams")) << message;
  EXPECT_TRUE(contains(message, "1024")) << message;
  EXPECT_EQ(valuesOf<int>(args[0].bytes), std::vector<int>(32, -1)) << "nothing ran";
}

TEST(InterpErrors, EndlessLoopStopsAtTheBudget) {
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(1, 0))};
  std::string message = errorOf("spinUntilSet", oneWarp(2000), args);
  EXPECT_TRUE(contains(message, "spinUntilSet")) << message;
  EXPECT_TRUE(contains(message, "does not terminate")) << message;
  EXPECT_TRUE(contains(message, "2000")) << message;
  EXPECT_TRUE(contains(message, "bad_errors.cu:3")) << message;

  // With the flag already set the same kernel finishes.
  std::vector<ArgumentValue> set = {bufferArg(std::vector<int>(1, 1))};
  EXPECT_EQ(errorOf("spinUntilSet", oneWarp(2000), set), "");
}

TEST(InterpErrors, DeepRecursionStopsWithAnError) {
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(32, 0)), scalarArg(100000)};
  std::string message = errorOf("recurse", oneWarp(), args);
  EXPECT_TRUE(contains(message, "recurse")) << message;
  EXPECT_TRUE(contains(message, "recursion")) << message;
  EXPECT_TRUE(contains(message, "bad_errors.cu:")) << message;

  // Shallow recursion works and gives the depth.
  std::vector<ArgumentValue> shallow = {bufferArg(std::vector<int>(32, 0)), scalarArg(20)};
  EXPECT_EQ(errorOf("recurse", oneWarp(), shallow), "");
  EXPECT_EQ(valuesOf<int>(shallow[0].bytes), std::vector<int>(32, 20));
}

TEST(InterpErrors, TrapNamesTheThread) {
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(32, 0))};
  std::string message = errorOf("trapOnLaneSeven", oneWarp(), args);
  EXPECT_TRUE(contains(message, "trapOnLaneSeven")) << message;
  EXPECT_TRUE(contains(message, "thread (7,0,0)")) << message;
  EXPECT_TRUE(contains(message, "bad_errors.cu:31")) << message;
}

TEST(InterpErrors, OutOfBoundsAccessIsReportedAndReadsZero) {
  OutOfBoundsRecorder recorder;
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(32, 9)),
                                     bufferArg(std::vector<int>(32, -1)),
                                     bufferArg(std::vector<int>(32, -1))};
  EXPECT_EQ(errorOf("outOfBounds", oneWarp(), args, &recorder), "");
  // Reads past `in` give 0, so every out[t] is 1.
  EXPECT_EQ(valuesOf<int>(args[1].bytes), std::vector<int>(32, 1));
  // Writes past `far` are dropped; the buffer is untouched.
  EXPECT_EQ(valuesOf<int>(args[2].bytes), std::vector<int>(32, -1));
  size_t reads = 0, writes = 0;
  for (const interp::OutOfBoundsEvent &e : recorder.events) {
    EXPECT_EQ(e.access.space, interp::MemSpace::Global);
    EXPECT_EQ(e.bufferSizeBytes, 32u * 4u);
    if (e.access.kind == interp::AccessKind::Read) {
      ++reads;
      EXPECT_EQ(e.access.buffer, 0u);
      EXPECT_EQ(e.access.offset, uint64_t(e.access.thread + 100) * 4);
    } else {
      ++writes;
      EXPECT_EQ(e.access.buffer, 2u);
    }
  }
  EXPECT_EQ(reads, 32u);
  EXPECT_EQ(writes, 32u);
}

TEST(InterpErrors, OutOfBoundsWithoutListenerDoesNotCrash) {
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(4, 9)),
                                     bufferArg(std::vector<int>(32, -1)),
                                     bufferArg(std::vector<int>(1, -1))};
  EXPECT_EQ(errorOf("outOfBounds", oneWarp(), args), "");
}

TEST(InterpErrors, NullPointerReadIsUndefinedBehaviorAndStopsTheThread) {
  OutOfBoundsRecorder recorder;
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(32, -1)), scalarArg(uint64_t(0))};
  EXPECT_EQ(errorOf("nullRead", oneWarp(), args, &recorder), "");
  EXPECT_EQ(valuesOf<int>(args[0].bytes), std::vector<int>(32, -1))
      << "every thread stops at the null read, before its store";
  EXPECT_TRUE(recorder.events.empty()) << "null is not an out-of-bounds access of a buffer";
  ASSERT_EQ(recorder.undefined.size(), 32u);
  for (const interp::UndefinedBehaviorEvent &e : recorder.undefined) {
    EXPECT_EQ(e.kind, interp::UndefinedBehavior::NullPointer);
    EXPECT_EQ(e.width, 4u);
  }
}

TEST(InterpErrors, UnsupportedInstructionIsNamed) {
  Result<ir::Program> program = ir::loadProgram(kernelPath("bad_wide_integer.ll"));
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::KernelInfo *kernel = program->findKernel("wideSquare");
  ASSERT_NE(kernel, nullptr);
  std::vector<ArgumentValue> args = {bufferArg(std::vector<uint64_t>(1)), scalarArg(uint64_t(7))};
  Result<interp::RunStats> stats = interp::runKernel(*program, *kernel, oneWarp(), args);
  ASSERT_FALSE(stats.ok());
  const std::string &message = stats.error().message;
  EXPECT_TRUE(contains(message, "wideSquare")) << message;
  EXPECT_TRUE(contains(message, "64 bits")) << message;
  EXPECT_TRUE(contains(message, "i128")) << message;
}

} // namespace
} // namespace simulee::interp_test
