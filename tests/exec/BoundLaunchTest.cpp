// session::analyzeBoundLaunch, the hook `simulee exec` simulates each launch
// with: the kernel works on the caller's memory in place, arguments that
// alias one allocation are one buffer, the redundant-barrier re-check never
// touches that memory, and __device__ variables persist across launches.
#include "session/Analysis.h"

#include "ir/Loader.h"
#include "ir/PointerEncoding.h"

#include <gtest/gtest.h>

#include <cstring>

namespace simulee::session {
namespace {

uint64_t pointerTo(uint32_t allocation, int64_t offset = 0) {
  return ir::encodePointer(ir::PointerSpace::Global, ir::kFirstBoundBuffer + allocation, offset);
}

std::vector<uint8_t> ints(const std::vector<int32_t> &values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

int32_t intAt(const std::vector<uint8_t> &bytes, size_t index) {
  int32_t value;
  std::memcpy(&value, bytes.data() + index * 4, 4);
  return value;
}

ir::Program compile(const std::string &source) {
  Result<ir::Program> program = ir::loadProgramFromCuda(source, "bound.cu");
  EXPECT_TRUE(program) << (program ? "" : program.error().message);
  return std::move(*program);
}

BoundLaunch launchOf(interp::BoundMemory &memory, uint32_t threads,
                     std::vector<interp::ArgumentValue> values) {
  BoundLaunch launch;
  launch.config.grid = {1, 1, 1};
  launch.config.block = {threads, 1, 1};
  launch.values = std::move(values);
  launch.memory = &memory;
  return launch;
}

TEST(BoundLaunch, KernelUpdatesTheCallersMemoryInPlace) {
  ir::Program program = compile("__global__ void k(int *out, const int *in) {\n"
                                "  out[threadIdx.x] = in[threadIdx.x] + 1;\n}\n");
  std::vector<uint8_t> out(64 * 4, 0), in = ints(std::vector<int32_t>(64, 41));
  interp::BoundMemory memory;
  memory.allocations = {&out, &in};
  BoundLaunch launch = launchOf(
      memory, 64,
      {interp::ArgumentValue::scalar(pointerTo(0)), interp::ArgumentValue::scalar(pointerTo(1))});
  Result<KernelAnalysis> analysis =
      analyzeBoundLaunch(program, *program.findKernel("k"), launch, {});
  ASSERT_TRUE(analysis) << analysis.error().message;
  EXPECT_EQ(analysis->verdict, detect::Verdict::Clean);
  EXPECT_EQ(intAt(out, 0), 42);
  EXPECT_EQ(intAt(out, 63), 42);
}

TEST(BoundLaunch, ArgumentsIntoOneAllocationAreOneBuffer) {
  // In place shift: out and in are the same allocation, one element apart.
  ir::Program program = compile("__global__ void k(int *out, const int *in) {\n"
                                "  out[threadIdx.x] = in[threadIdx.x];\n}\n");
  std::vector<uint8_t> data(65 * 4, 0);
  interp::BoundMemory memory;
  memory.allocations = {&data};
  BoundLaunch launch = launchOf(memory, 64,
                                {interp::ArgumentValue::scalar(pointerTo(0)),
                                 interp::ArgumentValue::scalar(pointerTo(0, 4))});
  Result<KernelAnalysis> analysis =
      analyzeBoundLaunch(program, *program.findKernel("k"), launch, {});
  ASSERT_TRUE(analysis) << analysis.error().message;
  ASSERT_FALSE(analysis->findings.empty());
  EXPECT_EQ(analysis->findings[0].kind, detect::FindingKind::DataRace);
  EXPECT_EQ(analysis->findings[0].buffer, ir::kFirstBoundBuffer);
}

TEST(BoundLaunch, RedundantBarrierRecheckLeavesTheMemoryAsOneRunLeftIt) {
  ir::Program program = compile("__global__ void k(int *x) {\n"
                                "  x[threadIdx.x] += 1;\n  __syncthreads();\n"
                                "  x[threadIdx.x] += 1;\n}\n");
  std::vector<uint8_t> data(64 * 4, 0);
  interp::BoundMemory memory;
  memory.allocations = {&data};
  BoundLaunch launch = launchOf(memory, 64, {interp::ArgumentValue::scalar(pointerTo(0))});
  Result<KernelAnalysis> analysis =
      analyzeBoundLaunch(program, *program.findKernel("k"), launch, {});
  ASSERT_TRUE(analysis) << analysis.error().message;
  ASSERT_EQ(analysis->findings.size(), 1u);
  EXPECT_EQ(analysis->findings[0].kind, detect::FindingKind::RedundantBarrier);
  EXPECT_EQ(intAt(data, 0), 2);
  EXPECT_EQ(intAt(data, 63), 2);
}

TEST(BoundLaunch, DeviceVariablesPersistAcrossLaunches) {
  ir::Program program = compile("__device__ int counter;\n"
                                "__global__ void k() { atomicAdd(&counter, 1); }\n");
  ASSERT_EQ(program.globalVariables.size(), 1u);
  std::vector<std::vector<uint8_t>> globals = {std::vector<uint8_t>(4, 0)};
  interp::BoundMemory memory;
  memory.globalVariables = &globals;
  for (int i = 0; i < 2; ++i) {
    BoundLaunch launch = launchOf(memory, 32, {});
    ASSERT_TRUE(analyzeBoundLaunch(program, *program.findKernel("k"), launch, {}));
  }
  EXPECT_EQ(intAt(globals[0], 0), 64);
}

} // namespace
} // namespace simulee::session
