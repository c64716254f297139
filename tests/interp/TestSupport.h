// Helpers for the interpreter's kernel-output tests: loading the test kernels
// once per optimisation level, launching them, and moving typed host arrays in
// and out of the byte buffers the interpreter works on.
#pragma once

#include "interp/Interpreter.h"
#include "interp/Launch.h"
#include "ir/Loader.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace simulee::interp_test {

template <class T> std::vector<uint8_t> bytesOf(const std::vector<T> &values) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty())
    std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <class T> std::vector<T> valuesOf(const std::vector<uint8_t> &bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty())
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// A scalar kernel argument: the raw bits of its type, zero-extended.
template <class T> interp::ArgumentValue scalarArg(T value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8);
  if constexpr (sizeof(T) == 8)
    return interp::ArgumentValue::scalar(std::bit_cast<uint64_t>(value));
  else if constexpr (sizeof(T) == 4)
    return interp::ArgumentValue::scalar(std::bit_cast<uint32_t>(value));
  else if constexpr (sizeof(T) == 2)
    return interp::ArgumentValue::scalar(std::bit_cast<uint16_t>(value));
  else
    return interp::ArgumentValue::scalar(std::bit_cast<uint8_t>(value));
}

template <class T> interp::ArgumentValue bufferArg(const std::vector<T> &values) {
  return interp::ArgumentValue::buffer(bytesOf(values));
}

inline std::string kernelPath(const std::string &fileName) {
  return std::string(SIMULEE_SOURCE_DIR) + "/tests/interp/kernels/" + fileName;
}

// Compiles tests/interp/kernels/<fileName> at `optLevel` once per test
// program; later calls return the same Program. Null (with a test failure
// recorded) when it does not load.
inline const ir::Program *loadTestProgram(const std::string &fileName, int optLevel) {
  static std::map<std::pair<std::string, int>, ir::Program> cache;
  auto key = std::make_pair(fileName, optLevel);
  if (auto found = cache.find(key); found != cache.end())
    return &found->second;
  ir::LoadOptions options;
  options.optLevel = optLevel;
  Result<ir::Program> program = ir::loadProgram(kernelPath(fileName), options);
  if (!program.ok()) {
    ADD_FAILURE() << fileName << " -O" << optLevel << ": " << program.error().message;
    return nullptr;
  }
  return &cache.emplace(key, std::move(*program)).first->second;
}

// Every event, written out in order: two runs whose traces are equal sent
// the same events with the same contents.
class EventTrace final : public interp::ExecutionListener {
public:
  explicit EventTrace(bool accesses = true) : accesses_(accesses) {}
  std::ostringstream text;
  bool wantsAccesses() const override { return accesses_; }
  void onBlockBegin(uint32_t block) override { text << "begin " << block << "\n"; }
  void onBlockEnd(uint32_t block) override { text << "end " << block << "\n"; }
  void onAccess(const interp::AccessEvent &e) override {
    text << "access " << int(e.space) << int(e.kind) << " " << e.buffer << "+" << e.offset << ":"
         << e.sizeBytes << " " << e.block << "/" << e.thread << " w" << e.warp << "." << e.lane
         << " @" << e.step << " i" << e.instruction << " v" << e.value << e.valueKnown << "\n";
  }
  void onMaskChange(const interp::MaskChangeEvent &e) override {
    text << "mask " << e.block << "/" << e.warp << " @" << e.step << " " << e.active << "\n";
  }
  void onBarrierRelease(const interp::BarrierReleaseEvent &e) override {
    text << "release " << e.block << " " << e.epoch << "\n";
  }
  void onBarrierArrive(const interp::BarrierArriveEvent &e) override {
    text << "arrive " << e.block << "/" << e.warp << " @" << e.step << " " << e.mask << "\n";
  }
  void onBarrierDivergence(const interp::BarrierDivergenceEvent &e) override {
    text << "divergence " << e.block << "/" << e.warp << " " << e.barrierInstr << "\n";
  }
  void onWarpSync(const interp::WarpSyncEvent &e) override {
    text << "syncwarp " << e.block << "/" << e.warp << " @" << e.step << "\n";
  }
  void onFence(const interp::FenceEvent &e) override {
    text << "fence " << e.block << " @" << e.step << "\n";
  }
  void onOutOfBounds(const interp::OutOfBoundsEvent &e) override {
    text << "overrun " << e.access.block << "/" << e.access.thread << " " << e.access.offset << " @"
         << e.access.step << "\n";
  }
  void onAssertionFailed(const interp::AssertionEvent &e) override {
    text << "assert " << e.block << "/" << e.thread << "\n";
  }
  void onUndefinedBehavior(const interp::UndefinedBehaviorEvent &e) override {
    text << "ub " << int(e.kind) << " " << e.block << "/" << e.thread << " i" << e.instruction
         << " " << e.value << "\n";
  }

private:
  bool accesses_;
};

// A trace without its in-bounds accesses: what a listener that wants none
// hears.
inline std::string withoutAccesses(const std::string &events) {
  std::istringstream lines(events);
  std::string kept;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("access ", 0) != 0)
      kept += line + "\n";
  return kept;
}

// One launch's outcome under one engine.
struct EngineRun {
  std::string error;
  interp::RunStats stats;
  std::string events;
};

inline EngineRun runWith(interp::Engine engine, const ir::Program &program,
                         const ir::KernelInfo &kernel, const interp::LaunchConfig &config,
                         std::vector<interp::ArgumentValue> &args, unsigned jobs = 1,
                         bool accesses = true) {
  EventTrace trace(accesses);
  interp::RunOptions options;
  options.listener = &trace;
  options.engine = engine;
  options.jobs = jobs;
  EngineRun run;
  Result<interp::RunStats> stats = interp::runKernel(program, kernel, config, args, options);
  if (stats)
    run.stats = *stats;
  else
    run.error = stats.error().message;
  run.events = trace.text.str();
  return run;
}

// The interpreter's run and the compiled engine's agree: the same error,
// counts, events and memory afterwards (jit/Engine.h).
inline ::testing::AssertionResult
sameRuns(const EngineRun &interpreted, const EngineRun &compiled,
         const std::vector<interp::ArgumentValue> &interpretedArgs,
         const std::vector<interp::ArgumentValue> &compiledArgs) {
  if (interpreted.error != compiled.error)
    return ::testing::AssertionFailure() << "the interpreter ended with '" << interpreted.error
                                         << "', compiled code with '" << compiled.error << "'";
  if (interpreted.stats.threadInstrs != compiled.stats.threadInstrs ||
      interpreted.stats.warpSteps != compiled.stats.warpSteps)
    return ::testing::AssertionFailure()
           << "the interpreter ran " << interpreted.stats.threadInstrs << " thread-instructions in "
           << interpreted.stats.warpSteps << " warp steps, compiled code "
           << compiled.stats.threadInstrs << " in " << compiled.stats.warpSteps;
  if (interpreted.events != compiled.events)
    return ::testing::AssertionFailure() << "the events differ:\ninterpreter:\n"
                                         << interpreted.events.substr(0, 4000) << "\ncompiled:\n"
                                         << compiled.events.substr(0, 4000);
  for (size_t i = 0; i < interpretedArgs.size() && i < compiledArgs.size(); ++i)
    if (interpretedArgs[i].bytes != compiledArgs[i].bytes)
      return ::testing::AssertionFailure() << "argument " << i << " differs after the launch";
  return ::testing::AssertionSuccess();
}

// Runs kernel `kernelName` of `fileName`; buffers in `args` are updated.
inline ::testing::AssertionResult launch(const std::string &fileName, int optLevel,
                                         const std::string &kernelName, interp::Dim3 grid,
                                         interp::Dim3 block,
                                         std::vector<interp::ArgumentValue> &args,
                                         uint32_t dynamicSharedBytes = 0) {
  const ir::Program *program = loadTestProgram(fileName, optLevel);
  if (!program)
    return ::testing::AssertionFailure() << "could not load " << fileName;
  const ir::KernelInfo *kernel = program->findKernel(kernelName);
  if (!kernel)
    return ::testing::AssertionFailure() << "no kernel '" << kernelName << "' in " << fileName;
  interp::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  config.dynamicSharedBytes = dynamicSharedBytes;
  std::vector<interp::ArgumentValue> compiledArgs = args, plainArgs = args;
  EngineRun interpreted = runWith(interp::Engine::Interpreter, *program, *kernel, config, args);
  EngineRun compiled = runWith(interp::Engine::Compiled, *program, *kernel, config, compiledArgs);
  if (::testing::AssertionResult same = sameRuns(interpreted, compiled, args, compiledArgs); !same)
    return ::testing::AssertionFailure() << kernelName << ": " << same.message();
  // With no listener for accesses, compiled code makes loads and stores itself.
  EngineRun plain =
      runWith(interp::Engine::Compiled, *program, *kernel, config, plainArgs, 1, false);
  interpreted.events = withoutAccesses(interpreted.events);
  if (::testing::AssertionResult same = sameRuns(interpreted, plain, args, plainArgs); !same)
    return ::testing::AssertionFailure() << kernelName << " (no access events): " << same.message();
  if (!interpreted.error.empty())
    return ::testing::AssertionFailure() << kernelName << ": " << interpreted.error;
  return ::testing::AssertionSuccess();
}

// Element-wise comparison; `tolerance` is relative to max(1, |expected|).
template <class T>
::testing::AssertionResult matches(const std::vector<T> &expected, const std::vector<T> &actual,
                                   double tolerance = 0.0) {
  if (expected.size() != actual.size())
    return ::testing::AssertionFailure()
           << "size " << actual.size() << ", expected " << expected.size();
  for (size_t i = 0; i < expected.size(); ++i) {
    double want = static_cast<double>(expected[i]);
    double got = static_cast<double>(actual[i]);
    double allowed = tolerance * std::max(1.0, std::fabs(want));
    if (std::fabs(want - got) > allowed || (std::isnan(got) && !std::isnan(want)))
      return ::testing::AssertionFailure()
             << "element " << i << " is " << got << ", expected " << want;
  }
  return ::testing::AssertionSuccess();
}

} // namespace simulee::interp_test
