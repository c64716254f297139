// Which pairs of atomic accesses a kernel means as one step
// (ir/AtomicUnits.h): each kernel below holds one pattern, or a pair that is
// correct whatever comes between (and so must be no candidate).
#include "ir/AtomicUnits.h"
#include "ir/Loader.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

using namespace simulee;

namespace {

const char *kSource = R"(
__global__ void checkThenAct(int *count, int cap) {
  if (atomicAdd(count, 0) < cap)
    atomicAdd(count, 1);
}
__global__ void lostUpdate(int *total, int add) {
  int seen = atomicAdd(total, 0);
  atomicExch(total, seen + add);
}
__global__ void reread(int *level, int *out) {
  if (atomicAdd(level, 0) > 0)
    out[threadIdx.x] = atomicAdd(level, 0);
}
__global__ void sentinel(int *pool) {
  int count = atomicExch(pool, -1);
  atomicExch(pool, count + 1);
}
__global__ void readBack(int *slot, int *out) {
  atomicExch(slot, (int)threadIdx.x);
  out[threadIdx.x] = atomicAdd(slot, 0);
}
__device__ __noinline__ void checkThenActInHelper(int *flag) {
  if (atomicAdd(flag, 0) == 0)
    atomicExch(flag, 1);
}
__global__ void throughHelper(int *flag) { checkThenActInHelper(flag); }

// Correct whatever comes between: no candidate.
__global__ void casLoop(int *total, int add) {
  int seen = atomicAdd(total, 0), assumed;
  do {
    assumed = seen;
    seen = atomicCAS(total, assumed, assumed + add);
  } while (seen != assumed);
}
__global__ void loneAdd(int *count, int *out) { out[threadIdx.x] = atomicAdd(count, 1); }
__global__ void monotonic(int *best, int *bits, int v) {
  if (v > atomicAdd(best, 0))
    atomicMax(best, v);
  if ((atomicAdd(bits, 0) & 4) == 0)
    atomicOr(bits, 4);
}
__global__ void ticketReset(unsigned *retired, int *out) {
  unsigned ticket = atomicInc(retired, gridDim.x);
  if (ticket == gridDim.x - 1)
    atomicExch((int *)retired, 0);
  out[blockIdx.x] = ticket;
}
__global__ void spinLock(int *lock, int *data) {
  while (atomicCAS(lock, 0, 1) != 0) {}
  data[0] += 1;
  atomicExch(lock, 0);
}
__global__ void poll(int *flag, int *out) {
  while (atomicAdd(flag, 0) == 0) {}
  out[threadIdx.x] = 1;
}
__global__ void undoneIncrement(int *count, int cap) {
  if (atomicAdd(count, 1) >= cap)
    atomicSub(count, 1);
}
__global__ void electAndCompare(int *slot, int *winner) {
  atomicExch(slot, (int)threadIdx.x);
  if (atomicAdd(slot, 0) == (int)threadIdx.x)
    winner[0] = threadIdx.x;
}

// Plain reads that seed a compare-and-swap of their address, and two that
// do not.
__global__ void seedThroughLoop(float *total, float add) {
  unsigned *word = (unsigned *)total;
  unsigned found = *word, guess;
  do {
    guess = found;
    found = atomicCAS(word, guess, __float_as_uint(__uint_as_float(guess) + add));
  } while (found != guess);
}
__global__ void seedAsFloat(float *best, float v) {
  float guess = *best;
  if (v > guess)
    atomicCAS((int *)best, __float_as_int(guess), __float_as_int(v));
}
__global__ void readOfAnotherAddress(int *a, int *b) {
  int seen = *a;
  atomicCAS(b, seen, seen + 1);
}
__global__ void readAsTheNewValue(int *a) {
  int seen = *a;
  atomicCAS(a, 0, seen + 1);
}
)";

using Patterns = std::set<std::string>;

Patterns patternsOf(const ir::Program &program, const std::string &name) {
  const ir::KernelInfo *kernel = program.findKernel(name);
  EXPECT_NE(kernel, nullptr) << name;
  Patterns patterns;
  if (!kernel)
    return patterns;
  for (const ir::AtomicUnit &unit : kernel->atomicUnits) {
    EXPECT_NE(program.instructions[unit.first].atomicRole, ir::AtomicRole::None) << name;
    EXPECT_NE(program.instructions[unit.second].atomicRole, ir::AtomicRole::None) << name;
    patterns.insert(ir::atomicityPatternName(unit.pattern));
  }
  return patterns;
}

class AtomicUnits : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    Result<ir::Program> loaded = ir::loadProgramFromCuda(kSource, "atomic_units.cu");
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    program_ = new ir::Program(std::move(*loaded));
  }
  static void TearDownTestSuite() {
    delete program_;
    program_ = nullptr;
  }
  static ir::Program *program_;
};

ir::Program *AtomicUnits::program_ = nullptr;

TEST_F(AtomicUnits, EachPatternIsFoundWhereTheSecondAccessDependsOnTheFirst) {
  EXPECT_EQ(patternsOf(*program_, "checkThenAct"), Patterns{"check-then-act"});
  EXPECT_EQ(patternsOf(*program_, "lostUpdate"), Patterns{"read-write-write"});
  EXPECT_EQ(patternsOf(*program_, "reread"), Patterns{"read-write-read"});
  EXPECT_EQ(patternsOf(*program_, "sentinel"), Patterns{"write-read-write"});
  EXPECT_EQ(patternsOf(*program_, "readBack"), Patterns{"write-write-read"});
  // A pair inside a function the kernel calls belongs to the kernel.
  EXPECT_EQ(patternsOf(*program_, "throughHelper"), Patterns{"check-then-act"});
}

TEST_F(AtomicUnits, PairsCorrectWhateverComesBetweenAreNoCandidates) {
  for (const char *kernel : {"casLoop", "loneAdd", "monotonic", "ticketReset", "spinLock", "poll",
                             "undoneIncrement", "electAndCompare"})
    EXPECT_EQ(patternsOf(*program_, kernel), Patterns{}) << kernel;
}

TEST_F(AtomicUnits, RolesSayWhatEachAtomicDoesToMemory) {
  std::set<ir::AtomicRole> roles;
  for (const ir::InstructionInfo &info : program_->instructions)
    roles.insert(info.atomicRole);
  // atomicAdd(p, 0) reads; atomicAdd(p, 1) and atomicCAS update; atomicMax
  // and atomicOr update one way only; a plain load or store is no atomic.
  EXPECT_TRUE(roles.count(ir::AtomicRole::Reads));
  EXPECT_TRUE(roles.count(ir::AtomicRole::Updates));
  EXPECT_TRUE(roles.count(ir::AtomicRole::UpdatesMonotonic));
  EXPECT_TRUE(roles.count(ir::AtomicRole::None));
}

// Whether some load of the function whose name holds `kernel` seeds a
// compare-and-swap.
bool seedsSwap(const ir::Program &program, const std::string &kernel) {
  bool any = false;
  for (const ir::InstructionInfo &info : program.instructions) {
    const auto *load = llvm::dyn_cast_or_null<llvm::LoadInst>(info.llvm);
    if (load && load->getFunction()->getName().contains(kernel))
      any |= ir::seedsCompareAndSwap(*load);
  }
  return any;
}

TEST_F(AtomicUnits, APlainReadSeedsACompareAndSwapOfItsAddressOnlyAsTheExpectedValue) {
  EXPECT_TRUE(seedsSwap(*program_, "seedThroughLoop"));
  EXPECT_TRUE(seedsSwap(*program_, "seedAsFloat"));
  EXPECT_FALSE(seedsSwap(*program_, "readOfAnotherAddress"));
  EXPECT_FALSE(seedsSwap(*program_, "readAsTheNewValue"));
}

} // namespace
