// The compare-and-swap loop edit (ir/ProgramEdit.h, CompareAndSwapLoop):
// where it applies, and that the edited kernel does what the code meant,
// one step per thread, when run.
#include "interp/Interpreter.h"
#include "ir/Loader.h"
#include "ir/ProgramEdit.h"

#include <llvm/IR/Instructions.h>

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

using namespace simulee;

namespace {

const char *kSource = R"(
__global__ void grant(int *granted, int *used, int limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int place = 0;
  if (atomicAdd(used, 0) < limit) {
    atomicAdd(used, 1);
    place = 1;
  }
  granted[i] = place;
}
__global__ void scaleTotal(unsigned *total) {
  unsigned seen = *total;
  *total = seen * 3u + 1u;
}
__global__ void raise(const float *value, float *largest) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float seen = *largest;
  if (value[i] > seen)
    *largest = value[i];
}
__global__ void logsBetween(int *used, int *log, int limit) {
  int seen = atomicAdd(used, 0);
  log[threadIdx.x] = seen;
  if (seen < limit)
    atomicAdd(used, 1);
}
__global__ void waitsBetween(int *used, int limit) {
  int seen = atomicAdd(used, 0);
  __syncthreads();
  if (seen < limit)
    atomicAdd(used, 1);
}
__global__ void asksNeighbourBetween(int *used, int limit) {
  int seen = atomicAdd(used, 0);
  int neighbour = __shfl_xor_sync(0xffffffffu, seen, 1);
  if (neighbour < limit)
    atomicAdd(used, 1);
}
__global__ void writesInLoop(int *used, int limit, int rounds) {
  int seen = atomicAdd(used, 0);
  for (int k = 0; k < rounds; ++k)
    if (seen < limit)
      atomicAdd(used, 1);
}
__global__ void ignoresRead(int *used, int *out) {
  int seen = atomicAdd(used, 0);
  atomicAdd(used, 1);
  out[threadIdx.x] = seen;
}
__global__ void otherAddress(int *used, int *other, int limit) {
  if (atomicAdd(used, 0) < limit)
    atomicAdd(other, 1);
}
)";

const ir::Program &program() {
  static std::unique_ptr<ir::Program> loaded = [] {
    Result<ir::Program> p = ir::loadProgramFromCuda(kSource, "program_edit.cu");
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p ? std::make_unique<ir::Program>(std::move(*p)) : nullptr;
  }();
  return *loaded;
}

// The first access to memory of `kernel` on source line `line` that reads
// (`write` false) or writes: a load or store, or an atomic for either.
uint32_t accessAt(const std::string &kernel, uint32_t line, bool write) {
  const ir::Program &p = program();
  for (uint32_t id = 0; id < p.instructions.size(); ++id) {
    const llvm::Instruction *inst = p.instructions[id].llvm;
    if (!inst || p.instructions[id].location.line != line ||
        inst->getFunction()->getName().find(kernel) == llvm::StringRef::npos)
      continue;
    bool reads = llvm::isa<llvm::LoadInst>(inst) || llvm::isa<llvm::AtomicRMWInst>(inst);
    bool writes = llvm::isa<llvm::StoreInst>(inst) || llvm::isa<llvm::AtomicRMWInst>(inst);
    if (write ? writes : reads)
      return id;
  }
  ADD_FAILURE() << "no access of " << kernel << " at line " << line;
  return 0;
}

ir::ProgramEdit casLoop(const std::string &kernel, uint32_t readLine, uint32_t writeLine) {
  return {ir::EditKind::CompareAndSwapLoop, accessAt(kernel, readLine, false),
          accessAt(kernel, writeLine, true)};
}

template <typename T> interp::ArgumentValue buffer(const std::vector<T> &values) {
  interp::ArgumentValue arg;
  arg.kind = interp::ArgumentValue::Kind::Buffer;
  arg.bytes.resize(values.size() * sizeof(T));
  std::memcpy(arg.bytes.data(), values.data(), arg.bytes.size());
  return arg;
}

interp::ArgumentValue scalar(int32_t value) {
  interp::ArgumentValue arg;
  arg.bits = uint32_t(value);
  return arg;
}

template <typename T> std::vector<T> valuesOf(const interp::ArgumentValue &arg) {
  std::vector<T> values(arg.bytes.size() / sizeof(T));
  std::memcpy(values.data(), arg.bytes.data(), arg.bytes.size());
  return values;
}

// Runs `kernel` of `code` on `blocks` blocks of 64 threads; the arguments
// hold what it left.
void run(const ir::Program &code, const std::string &kernel, uint32_t blocks,
         std::vector<interp::ArgumentValue> &args) {
  const ir::KernelInfo *k = nullptr;
  for (const ir::KernelInfo &candidate : code.kernels)
    if (candidate.name.find(kernel) != std::string::npos)
      k = &candidate;
  ASSERT_NE(k, nullptr) << kernel;
  interp::LaunchConfig config;
  config.grid = {blocks, 1, 1};
  config.block = {64, 1, 1};
  Result<interp::RunStats> stats = interp::runKernel(code, *k, config, args);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
}

TEST(CompareAndSwapLoop, ACheckThenActGrantsNoMoreThanTheLimit) {
  // Lines: the check at 5, the act at 6 (kSource starts with a newline).
  ir::ProgramEdit edit = casLoop("grant", 5, 6);
  ASSERT_TRUE(ir::editApplies(program(), edit));
  std::vector<interp::ArgumentValue> before = {buffer(std::vector<int>(128)),
                                               buffer(std::vector<int>(1)), scalar(40)};
  std::vector<interp::ArgumentValue> after = before;
  run(program(), "grant", 2, before);
  // As written, a whole warp checks before any of it takes a place.
  std::vector<int> granted = valuesOf<int>(before[0]);
  EXPECT_GT(std::accumulate(granted.begin(), granted.end(), 0), 40);

  Result<ir::Program> edited = ir::applyEdit(program(), edit);
  ASSERT_TRUE(edited.ok()) << edited.error().message;
  run(*edited, "grant", 2, after);
  granted = valuesOf<int>(after[0]);
  EXPECT_EQ(std::accumulate(granted.begin(), granted.end(), 0), 40);
  EXPECT_EQ(valuesOf<int>(after[1])[0], 40);
}

TEST(CompareAndSwapLoop, APlainReadAndWriteBackLosesNoUpdate) {
  ir::ProgramEdit edit = casLoop("scaleTotal", 12, 13);
  ASSERT_TRUE(ir::editApplies(program(), edit));
  Result<ir::Program> edited = ir::applyEdit(program(), edit);
  ASSERT_TRUE(edited.ok()) << edited.error().message;
  std::vector<interp::ArgumentValue> args = {buffer(std::vector<unsigned>{1})};
  run(*edited, "scaleTotal", 2, args);
  unsigned expected = 1;
  for (int step = 0; step < 128; ++step)
    expected = expected * 3u + 1u;
  EXPECT_EQ(valuesOf<unsigned>(args[0])[0], expected);
}

TEST(CompareAndSwapLoop, AFloatMaximumEndsAtTheLargestValue) {
  ir::ProgramEdit edit = casLoop("raise", 17, 19);
  ASSERT_TRUE(ir::editApplies(program(), edit));
  Result<ir::Program> edited = ir::applyEdit(program(), edit);
  ASSERT_TRUE(edited.ok()) << edited.error().message;
  std::vector<float> values(128);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float((i * 37) % 101) - 50.0f; // largest: 50, at no block's end
  std::vector<interp::ArgumentValue> args = {buffer(values), buffer(std::vector<float>{-1000.0f})};
  run(*edited, "raise", 2, args);
  EXPECT_EQ(valuesOf<float>(args[1])[0], 50.0f);
}

TEST(CompareAndSwapLoop, DoesNotApplyWhereRunningTheCodeAgainChangesMore) {
  // A store, a barrier or a shuffle between the read and the write would run
  // again on a retry; a write in a loop the read is not in would be checked
  // against a stale value.
  EXPECT_FALSE(ir::editApplies(program(), casLoop("logsBetween", 22, 25)));
  EXPECT_FALSE(ir::editApplies(program(), casLoop("waitsBetween", 28, 31)));
  EXPECT_FALSE(ir::editApplies(program(), casLoop("asksNeighbourBetween", 34, 37)));
  EXPECT_FALSE(ir::editApplies(program(), casLoop("writesInLoop", 40, 43)));
}

TEST(CompareAndSwapLoop, NeedsAWriteThatDependsOnTheReadAtItsAddress) {
  EXPECT_FALSE(ir::editApplies(program(), casLoop("ignoresRead", 46, 47)));
  EXPECT_FALSE(ir::editApplies(program(), casLoop("otherAddress", 51, 52)));
  // The pair in the wrong order is no loop either.
  ir::ProgramEdit backwards = casLoop("grant", 5, 6);
  std::swap(backwards.instruction, backwards.other);
  EXPECT_FALSE(ir::editApplies(program(), backwards));
}

} // namespace
