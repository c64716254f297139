// The lanes of one warp instruction share the lookup of the buffer their
// pointers name (interp::ResolveCache): lanes into other buffers, past
// either end of the cached one, or into their own stacks must resolve as if
// each looked its buffer up alone.
#include "TestSupport.h"

#include "interp/Events.h"
#include "interp/Interpreter.h"
#include "ir/Loader.h"

#include <cstring>
#include <memory>

namespace simulee::interp_test {
namespace {

const char *kSource = R"(
// Even lanes read `a`, odd lanes `b`; lane 4 reads three elements before `a`,
// lane 7 one past the end of `b`; each lane also reads its own stack.
__global__ void mixed(const int *a, const int *b, int *out, int n) {
  int lane = threadIdx.x;
  int mine[4] = {lane, lane + 1, lane + 2, lane + 3};
  const int *from = lane % 2 ? b : a;
  int at = lane / 2;
  if (lane == 4) at = -3;
  if (lane == 7) at = n;
  out[lane] = from[at] + mine[lane % 4];
}
)";

class OutOfBoundsRecorder : public interp::ExecutionListener {
public:
  std::vector<interp::OutOfBoundsEvent> events;
  void onOutOfBounds(const interp::OutOfBoundsEvent &e) override { events.push_back(e); }
};

interp::ArgumentValue ints(const std::vector<int> &values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return interp::ArgumentValue::buffer(std::move(bytes));
}

TEST(ResolveCache, LanesIntoOtherBuffersPastTheEndsOrOnTheirStacksResolveAlone) {
  Result<ir::Program> program = ir::loadProgramFromCuda(kSource, "resolve_cache.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::KernelInfo *kernel = program->findKernel("_Z5mixedPKiS0_Pii");
  ASSERT_NE(kernel, nullptr);
  const int n = 16;
  std::vector<int> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 100 + i;
    b[i] = 200 + i;
  }
  std::vector<interp::ArgumentValue> args = {ints(a), ints(b), ints(std::vector<int>(32)),
                                             interp::ArgumentValue::scalar(uint64_t(n))};
  interp::LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {32, 1, 1};
  OutOfBoundsRecorder recorder;
  interp::RunOptions options;
  options.listener = &recorder;
  Result<interp::RunStats> stats = interp::runKernel(*program, *kernel, config, args, options);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  std::vector<int> out(32);
  std::memcpy(out.data(), args[2].bytes.data(), 32 * 4);
  for (int lane = 0; lane < 32; ++lane) {
    if (lane == 4 || lane == 7)
      continue; // out of bounds: the read yields 0
    int expected = (lane % 2 ? b : a)[lane / 2] + lane + lane % 4;
    EXPECT_EQ(out[lane], expected) << "lane " << lane;
  }
  EXPECT_EQ(out[4], 4 + 0);
  EXPECT_EQ(out[7], 7 + 3);
  ASSERT_EQ(recorder.events.size(), 2u);
  EXPECT_EQ(recorder.events[0].access.thread, 4u);
  EXPECT_EQ(int64_t(recorder.events[0].access.offset), -12);
  EXPECT_EQ(recorder.events[1].access.thread, 7u);
  EXPECT_EQ(recorder.events[1].access.offset, uint64_t(n) * 4);
  EXPECT_EQ(recorder.events[1].access.buffer, recorder.events[0].access.buffer + 1);
}

} // namespace
} // namespace simulee::interp_test
