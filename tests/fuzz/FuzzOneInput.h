// One fuzz input end to end: load (LLVM IR text or bitcode) -> lower -> one
// small launch of every kernel (at most two), with an event listener so
// every event path runs, by the interpreter and (one input in 16) again by
// compiled code (jit/Engine.h), which must end it the same way. Shared by the
// libFuzzer target (FuzzLoadAndRun.cpp) and the regression test that replays
// every input it ever crashed on.
#pragma once

#include "interp/Interpreter.h"
#include "ir/Loader.h"
#include "ir/PointerEncoding.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace simulee::fuzz {

// Counts events; touching every field keeps the event paths honest.
class CountingListener : public interp::ExecutionListener {
public:
  uint64_t events = 0;
  void onAccess(const interp::AccessEvent &e) override { events += e.sizeBytes != 0; }
  void onOutOfBounds(const interp::OutOfBoundsEvent &e) override {
    events += e.bufferSizeBytes != 0;
  }
  void onUndefinedBehavior(const interp::UndefinedBehaviorEvent &e) override {
    events += e.width != 0;
  }
  void onBarrierDivergence(const interp::BarrierDivergenceEvent &e) override {
    events += e.waitingThread != e.otherThread;
  }
};

constexpr size_t kCompiledOneIn = 16;

// Returns the number of launches that ran to the end (for tests); errors are
// ordinary outcomes, only a crash or a sanitizer report is a finding.
inline int fuzzOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  Result<ir::Program> program = ir::loadProgramFromIR(text, "fuzz.ll");
  if (!program)
    return 0;
  int completed = 0;
  size_t kernels = std::min<size_t>(program->kernels.size(), 2);
  for (size_t k = 0; k < kernels; ++k) {
    const ir::KernelInfo &kernel = program->kernels[k];
    std::vector<interp::ArgumentValue> args;
    for (size_t p = 0; p < kernel.params.size(); ++p) {
      const ir::ParamInfo &param = kernel.params[p];
      if (param.kind == ir::ValueKind::Pointer || param.byValueBytes)
        args.push_back(interp::ArgumentValue::buffer(std::vector<uint8_t>(
            param.byValueBytes ? std::min<uint32_t>(param.byValueBytes, 4096) : 512,
            uint8_t(p + 1))));
      else
        args.push_back(interp::ArgumentValue::scalar(p == 0 ? 64 : 3 * p));
    }
    interp::LaunchConfig config;
    config.grid = {2, 1, 1};
    config.block = {40, 1, 1}; // two warps, the second partial
    config.budgetInstrs = 20000;
    config.totalBudgetInstrs = 2000000;
    std::vector<interp::ArgumentValue> compiledArgs = args;
    CountingListener listener, compiledListener;
    interp::RunOptions options;
    options.listener = &listener;
    options.engine = interp::Engine::Interpreter;
    Result<interp::RunStats> interpreted =
        interp::runKernel(*program, kernel, config, args, options);
    completed += interpreted.ok();
    // Compiling costs more than running an input: one input in 16 (by its
    // bytes, so that a replay does what the fuzzer did) runs compiled too.
    if (std::hash<std::string>{}(text) % kCompiledOneIn != 0)
      continue;
    options.listener = &compiledListener;
    options.engine = interp::Engine::Compiled;
    Result<interp::RunStats> compiled =
        interp::runKernel(*program, kernel, config, compiledArgs, options);
    // The engines disagreeing is a finding; a stop for memory is not (it
    // reads the whole process's resident memory, which the compiler's own
    // allocations and earlier inputs raise).
    auto memoryStop = [](const Result<interp::RunStats> &run) {
      return !run.ok() && run.error().message.find("outgrew --max-memory") != std::string::npos;
    };
    if (!memoryStop(interpreted) && !memoryStop(compiled) &&
        (interpreted.ok() != compiled.ok() || listener.events != compiledListener.events ||
         (interpreted.ok() && interpreted->threadInstrs != compiled->threadInstrs)))
      std::abort();
  }
  return completed;
}

} // namespace simulee::fuzz
