// The session layer's optional hooks for the Python module: the search's
// history, cancellation, an extra event observer, the model after a launch,
// and buffer contents given as bytes.
#include "interp/Interpreter.h"
#include "ir/Loader.h"
#include "session/Analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

using namespace simulee;

namespace {

const char *kReduce = R"(
__global__ void reduce(const float *in, float *out, int n) {
  __shared__ float sd[256];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sd[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sd[tid] += sd[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sd[0];
}
)";

const char *kSpin = "__global__ void spin(volatile int *flag) { while (flag[0] == 0) {} }\n";

ir::Program load(const char *source) {
  Result<ir::Program> program = ir::loadProgramFromCuda(source, "hooks.cu");
  EXPECT_TRUE(program.ok()) << program.error().message;
  return std::move(*program);
}

session::LaunchSpec launchOf(uint32_t threads, std::vector<session::ArgumentSpec> args) {
  session::LaunchSpec spec;
  spec.config.block = interp::Dim3{threads, 1, 1};
  spec.args = std::move(args);
  return spec;
}

class ArrivalCounter final : public interp::ExecutionListener {
public:
  void onBarrierArrive(const interp::BarrierArriveEvent &event) override {
    ++arrivals;
    warps.push_back(event.warp);
  }
  int arrivals = 0;
  std::vector<uint32_t> warps;
};

TEST(SessionHooks, SearchHistoryListsEveryLaunchInEvaluationOrder) {
  ir::Program program = load(kReduce);
  session::SearchSettings settings;
  settings.search.generations = 3;
  settings.search.jobs = 2;
  std::vector<session::SearchStep> history;
  settings.history = &history;
  Result<session::KernelAnalysis> analysis =
      session::searchKernel(program, program.kernels[0], {}, settings, {});
  ASSERT_TRUE(analysis.ok()) << analysis.error().message;
  ASSERT_EQ(history.size(), analysis->counts.simulated());
  uint64_t judged = 0;
  for (size_t i = 0; i < history.size(); ++i) {
    if (i) {
      EXPECT_GE(history[i].generation, history[i - 1].generation);
    }
    EXPECT_LE(history[i].generation, 3u);
    EXPECT_EQ(history[i].outcome == "judged", history[i].fitness.valid);
    judged += history[i].outcome == "judged";
    EXPECT_EQ(history[i].launch.args.size(), 3u);
  }
  EXPECT_EQ(judged, analysis->counts.judged);
}

TEST(SessionHooks, CancelledSearchFailsAsInterrupted) {
  ir::Program program = load(kReduce);
  std::atomic<bool> cancel{true};
  session::AnalysisOptions options;
  options.cancel = &cancel;
  Result<session::KernelAnalysis> analysis =
      session::searchKernel(program, program.kernels[0], {}, {}, options);
  ASSERT_FALSE(analysis.ok());
  EXPECT_EQ(analysis.error().message, interp::kInterrupted);
}

TEST(SessionHooks, CancelStopsALaunchThatWouldRunForHours) {
  ir::Program program = load(kSpin);
  std::atomic<bool> cancel{false};
  session::AnalysisOptions options;
  options.cancel = &cancel;
  options.budgetInstrs = uint64_t(1) << 40;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  auto started = std::chrono::steady_clock::now();
  Result<session::KernelAnalysis> analysis = session::analyzeLaunch(
      program, program.kernels[0], launchOf(1024, {{"flag", "zeros:1"}}), options);
  canceller.join();
  ASSERT_FALSE(analysis.ok());
  EXPECT_EQ(analysis.error().message, interp::kInterrupted);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

TEST(SessionHooks, ObserverSeesEveryWarpArriveAtEveryBarrier) {
  ir::Program program = load(kReduce);
  ArrivalCounter counter;
  bool sawModel = false;
  session::AnalysisOptions options;
  options.observer = &counter;
  options.representation = memmodel::Representation::Full;
  options.onModel = [&](const memmodel::MemoryModel &model) {
    sawModel = true;
    EXPECT_FALSE(model.tuples().empty());
  };
  Result<session::KernelAnalysis> analysis =
      session::analyzeLaunch(program, program.kernels[0], launchOf(64, {{"n", "64"}}), options);
  ASSERT_TRUE(analysis.ok()) << analysis.error().message;
  EXPECT_TRUE(sawModel);
  // One barrier before the loop and one per step (6 for 64 threads), two warps each.
  EXPECT_EQ(counter.arrivals, 2 * 7);
  EXPECT_EQ(std::count(counter.warps.begin(), counter.warps.end(), 1u), 7);
}

TEST(SessionHooks, BufferBytesGivenDirectlyAreTheArgument) {
  ir::Program program = load(kReduce);
  std::vector<float> values(64, 0.5f);
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  session::ArgumentSpec in{"in", "array:64"};
  in.bytes = bytes;
  Result<session::KernelAnalysis> analysis = session::analyzeLaunch(
      program, program.kernels[0], launchOf(64, {in, {"out", "zeros:1"}, {"n", "64"}}), {});
  ASSERT_TRUE(analysis.ok()) << analysis.error().message;
  float sum = 0;
  std::memcpy(&sum, analysis->arguments[1].bytes.data(), sizeof sum);
  EXPECT_EQ(sum, 32.0f);
  EXPECT_EQ(analysis->arguments[0].bytes, bytes);
}

} // namespace
