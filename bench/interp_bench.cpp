// Interpreter throughput: simulated thread-instructions per second on the
// tiled matrix multiply (512 x 512) and the shared-memory tree reduction,
// with no listener (pure interpretation: model 0), with the Memory-Access
// Model attached keeping every access (model 1, `--all-blocks`), and with
// the model as analysis attaches it by default (model 2): no access proven
// free of conflicts is kept (interp::untrackedInstructions), and a block
// repeating an earlier block's shared memory has it unkept
// (memmodel/RepresentativeBlocks.h); for the compiled engine also as it is
// attached to a launch nothing ranks (model 3: no fitness figures, and the
// accesses the model only counts sent once per warp,
// interp::RunOptions::quietAccesses). And the model's memory: peak resident
// bytes per tracked 4-byte address of a launch storing one word per thread
// (4M and 16M threads; the launch's simulated buffer and the copy its
// outputs are written back to included, 8 bytes), run first so that no
// earlier benchmark's peak hides it. And large launches with their blocks on
// 1, 2 and 4 threads (RunOptions::jobs), and the 2M-thread reduction's
// thread loops compiled natively, for comparison.
//
//   build/bench/interp_bench [--benchmark_filter=...]
#include "interp/Interpreter.h"
#include "ir/Loader.h"
#include "jit/Engine.h"
#include "memmodel/MemoryModel.h"
#include "memmodel/RepresentativeBlocks.h"
#include "support/MemoryLimit.h"

#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <bit>
#include <cstring>
#include <memory>

using namespace simulee;

namespace {

const ir::Program &program(const char *file) {
  static std::map<std::string, std::unique_ptr<ir::Program>> cache;
  auto &slot = cache[file];
  if (!slot) {
    Result<ir::Program> loaded =
        ir::loadProgram(std::string(SIMULEE_SOURCE_DIR) + "/tests/interp/kernels/" + file);
    if (!loaded) {
      fprintf(stderr, "%s\n", loaded.error().message.c_str());
      std::abort();
    }
    slot = std::make_unique<ir::Program>(std::move(*loaded));
  }
  return *slot;
}

std::vector<uint8_t> floats(size_t count, float value) {
  std::vector<uint8_t> bytes(count * 4);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(bytes.data() + i * 4, &value, 4);
  return bytes;
}

enum Model { kNoModel = 0, kEveryAccess = 1, kUntracked = 2, kUnranked = 3 };

void run(benchmark::State &state, const ir::Program &prog, const interp::LaunchConfig &config,
         const std::vector<interp::ArgumentValue> &initial, int64_t withModel,
         bool fitnessFigures = true, unsigned jobs = 1,
         interp::Engine engine = interp::Engine::Interpreter) {
  uint64_t instrs = 0;
  for (auto _ : state) {
    std::vector<interp::ArgumentValue> args = initial;
    memmodel::ModelOptions options;
    options.launchThreads = config.grid.count() * config.block.count();
    options.fitnessFigures = fitnessFigures && withModel != kUnranked;
    if (withModel >= kUntracked)
      options.untracked = interp::untrackedInstructions(prog, prog.kernels[0], config, args);
    memmodel::MemoryModel model(options);
    memmodel::RepresentativeBlocks representatives(model);
    interp::RunOptions runOptions;
    runOptions.jobs = jobs;
    runOptions.engine = engine;
    if (withModel != kNoModel)
      runOptions.listener = &model;
    if (withModel >= kUntracked)
      runOptions.listener = &representatives;
    if (withModel == kUnranked)
      runOptions.quietAccesses = options.untracked;
    Result<interp::RunStats> stats =
        interp::runKernel(prog, prog.kernels[0], config, args, runOptions);
    if (!stats) {
      state.SkipWithError(stats.error().message.c_str());
      return;
    }
    representatives.finish();
    instrs += stats->threadInstrs;
  }
  state.counters["thread_instrs_per_s"] =
      benchmark::Counter(double(instrs), benchmark::Counter::kIsRate);
}

void StoreOnePerThread(benchmark::State &state) {
  const uint64_t threads = uint64_t(1) << state.range(0);
  interp::LaunchConfig config;
  config.grid = {uint32_t(threads / 256), 1, 1};
  config.block = {256, 1, 1};
  // The host's buffer is the caller's; run's copy of it (the arguments the
  // launch writes back to) and the simulated memory are counted.
  std::vector<interp::ArgumentValue> buffer{
      interp::ArgumentValue::buffer(std::vector<uint8_t>(threads * 4))};
  const ir::Program &store = program("store_index.cu");
  uint64_t before = residentBytes();
  run(state, store, config, buffer, kEveryAccess,
      /*fitnessFigures=*/false); // as analysis judges a launch this large
  uint64_t peak = peakResidentBytes();
  state.counters["peak_bytes_per_address"] =
      double(peak > before ? peak - before : 0) / double(threads);
}
BENCHMARK(StoreOnePerThread)->Arg(22)->Arg(24)->ArgName("log2_threads")->Unit(benchmark::kMillisecond)->Iterations(1);

// The tiled multiply of two n x n matrices (n a multiple of 16).
struct Launch {
  interp::LaunchConfig config;
  std::vector<interp::ArgumentValue> args;
};
Launch matmul(int n) {
  Launch launch;
  launch.config.grid = {uint32_t(n / 16), uint32_t(n / 16), 1};
  launch.config.block = {16, 16, 1};
  launch.args = {interp::ArgumentValue::buffer(floats(size_t(n) * n, 1.0f)),
                 interp::ArgumentValue::buffer(floats(size_t(n) * n, 2.0f)),
                 interp::ArgumentValue::buffer(floats(size_t(n) * n, 0.0f)),
                 interp::ArgumentValue::scalar(uint64_t(n))};
  return launch;
}

// The shared-memory reduction of n ones, 256-thread blocks.
Launch reduction(uint64_t n) {
  Launch launch;
  launch.config.grid = {uint32_t(n / 256), 1, 1};
  launch.config.block = {256, 1, 1};
  launch.args = {interp::ArgumentValue::buffer(std::vector<uint8_t>(n * 4, 1)),
                 interp::ArgumentValue::buffer(std::vector<uint8_t>(n / 256 * 4)),
                 interp::ArgumentValue::scalar(n)};
  return launch;
}

void MatmulTiled512(benchmark::State &state) {
  Launch launch = matmul(512);
  run(state, program("matmul_tiled.cu"), launch.config, launch.args, state.range(0));
}
BENCHMARK(MatmulTiled512)->Arg(0)->Arg(1)->Arg(2)->ArgName("model")->Unit(benchmark::kMillisecond)->Iterations(1);

void ReduceShared(benchmark::State &state) {
  Launch launch = reduction(1 << 20);
  run(state, program("reduce_shared.cu"), launch.config, launch.args, state.range(0));
}
BENCHMARK(ReduceShared)->Arg(0)->Arg(1)->Arg(2)->ArgName("model")->Unit(benchmark::kMillisecond)->Iterations(3);

// The same launches run by the compiled engine (jit/Engine.h), its code made
// before the first iteration (CompileTime measures that).
void MatmulTiled512Compiled(benchmark::State &state) {
  Launch launch = matmul(512);
  const ir::Program &prog = program("matmul_tiled.cu");
  jit::codeCacheOf(prog).compiled(prog, prog.kernels[0].function);
  run(state, prog, launch.config, launch.args, state.range(0), true, 1, interp::Engine::Compiled);
}
BENCHMARK(MatmulTiled512Compiled)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->ArgName("model")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void ReduceSharedCompiled(benchmark::State &state) {
  Launch launch = reduction(1 << 20);
  const ir::Program &prog = program("reduce_shared.cu");
  jit::codeCacheOf(prog).compiled(prog, prog.kernels[0].function);
  run(state, prog, launch.config, launch.args, state.range(0), true, 1, interp::Engine::Compiled);
}
BENCHMARK(ReduceSharedCompiled)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->ArgName("model")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

// Compiling a kernel's function: a fresh cache each iteration.
void CompileTime(benchmark::State &state, const char *file) {
  const ir::Program &prog = program(file);
  for (auto _ : state) {
    prog.compiledCode = nullptr;
    if (!jit::codeCacheOf(prog).compiled(prog, prog.kernels[0].function)) {
      state.SkipWithError(jit::codeCacheOf(prog).failure().c_str());
      return;
    }
  }
  state.counters["lowered_instrs"] = double(prog.functions[prog.kernels[0].function].code.size());
}
BENCHMARK_CAPTURE(CompileTime, matmul_tiled, "matmul_tiled.cu")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
BENCHMARK_CAPTURE(CompileTime, reduce_shared, "reduce_shared.cu")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

// One large launch with its blocks on 1, 2 and 4 threads (interp::RunOptions::
// jobs), the model as analysis attaches it: the 2M-thread reduction and the
// tiled multiply of 256 x 256. Wall time is what counts.
void ReduceSharedJobs(benchmark::State &state) {
  Launch launch = reduction(1 << 21);
  run(state, program("reduce_shared.cu"), launch.config, launch.args, kUntracked, true,
      unsigned(state.range(0)));
}
BENCHMARK(ReduceSharedJobs)->Arg(1)->Arg(2)->Arg(4)->ArgName("jobs")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// The reduction of ReduceSharedJobs compiled natively: reduce_shared.cu's
// thread code as loops over a block's threads, split at each
// __syncthreads() (loop fission, as CPU translators of CUDA do), with no
// checks. What simulating the launch costs is measured against this:
// <false>, every thread's `if (tid < stride)` kept in the loop, as a
// translator emits it; <true>, the loop bound lowered to `stride`, as an
// optimiser may make of it (the faster floor).
template <bool Unswitched> void ReduceSharedNative(benchmark::State &state) {
  constexpr unsigned kBlock = 256;
  const unsigned n = 1u << 21, blocks = n / kBlock;
  std::vector<int> in(n, 1), blockSums(blocks);
  for (auto _ : state) {
    for (unsigned block = 0; block < blocks; ++block) {
      int partial[kBlock];
      for (unsigned tid = 0; tid < kBlock; ++tid) {
        unsigned i = block * kBlock + tid;
        partial[tid] = i < n ? in[i] : 0;
      }
      for (unsigned stride = kBlock / 2; stride > 0; stride >>= 1)
        for (unsigned tid = 0; tid < (Unswitched ? stride : kBlock); ++tid)
          if (tid < stride)
            partial[tid] += partial[tid + stride];
      blockSums[block] = partial[0];
    }
    benchmark::DoNotOptimize(blockSums.data());
    benchmark::ClobberMemory();
  }
  if (blockSums[0] != int(kBlock))
    state.SkipWithError("the native reduction summed wrong");
}
BENCHMARK_TEMPLATE(ReduceSharedNative, false)->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();
BENCHMARK_TEMPLATE(ReduceSharedNative, true)->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();

// saxpy over 4M elements (one per thread: every thread reads and writes its
// own y), run by the compiled engine with the model as `run` attaches it
// (model 3), blocks on 1, 2 and 4 threads: the stores compiled code makes
// in blocks run in parallel, which claim nothing (interp/ParallelBlocks.h).
void SaxpyCompiledJobs(benchmark::State &state) {
  const uint64_t n = uint64_t(1) << 22;
  interp::LaunchConfig config;
  config.grid = {uint32_t(n / 256), 1, 1};
  config.block = {256, 1, 1};
  std::vector<interp::ArgumentValue> args = {
      interp::ArgumentValue::scalar(n),
      interp::ArgumentValue::scalar(std::bit_cast<uint32_t>(2.0f)),
      interp::ArgumentValue::buffer(floats(n, 1.0f)),
      interp::ArgumentValue::buffer(floats(n, 3.0f))};
  const ir::Program &prog = program("saxpy.cu");
  jit::codeCacheOf(prog).compiled(prog, prog.kernels[0].function);
  run(state, prog, config, args, state.range(1), false, unsigned(state.range(0)),
      interp::Engine::Compiled);
}
BENCHMARK(SaxpyCompiledJobs)->ArgsProduct({{1, 2, 4}, {0, 3}})->ArgNames({"jobs", "model"})->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void MatmulTiledJobs(benchmark::State &state) {
  Launch launch = matmul(256);
  run(state, program("matmul_tiled.cu"), launch.config, launch.args, kUntracked, true,
      unsigned(state.range(0)));
}
BENCHMARK(MatmulTiledJobs)->Arg(1)->Arg(2)->Arg(4)->ArgName("jobs")->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
