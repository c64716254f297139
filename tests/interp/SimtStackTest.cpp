// SIMT semantics seen through the interpreter's events: which lanes run each
// path of a divergent branch, reconvergence, loops with divergent exits,
// early returns, barriers reached by part of a block, lockstep step numbers
// and warp syncs. Kernels: tests/interp/kernels/simt_*.cu at -O0 (the
// analysis default, which keeps every branch).
#include "TestSupport.h"

#include "interp/Events.h"

#include <bit>
#include <map>
#include <set>
#include <tuple>

namespace simulee::interp_test {
namespace {

using interp::AccessEvent;
using interp::AccessKind;
using interp::ArgumentValue;
using interp::BarrierDivergenceEvent;
using interp::Dim3;
using interp::LaneMask;

// An access together with the warp's announced lane mask when it happened.
struct RecordedAccess {
  AccessEvent event;
  LaneMask activeMask;
};

// Records every event; keeps the current mask per (block, warp) so each
// access carries the mask it executed under.
class Recorder : public interp::ExecutionListener {
public:
  std::vector<RecordedAccess> accesses;
  std::vector<interp::MaskChangeEvent> maskChanges;
  std::vector<BarrierDivergenceEvent> divergences;
  std::vector<interp::BarrierReleaseEvent> releases;
  std::vector<interp::WarpSyncEvent> warpSyncs;
  std::vector<interp::OutOfBoundsEvent> outOfBounds;

  void onAccess(const AccessEvent &e) override {
    accesses.push_back({e, current_[{e.block, e.warp}]});
  }
  void onMaskChange(const interp::MaskChangeEvent &e) override {
    maskChanges.push_back(e);
    current_[{e.block, e.warp}] = e.active;
  }
  void onBarrierRelease(const interp::BarrierReleaseEvent &e) override { releases.push_back(e); }
  void onBarrierDivergence(const BarrierDivergenceEvent &e) override { divergences.push_back(e); }
  void onWarpSync(const interp::WarpSyncEvent &e) override { warpSyncs.push_back(e); }
  void onOutOfBounds(const interp::OutOfBoundsEvent &e) override { outOfBounds.push_back(e); }

  // Accesses of `kind` to global parameter buffer `param`.
  std::vector<RecordedAccess> to(uint32_t param, AccessKind kind) const {
    std::vector<RecordedAccess> found;
    for (const RecordedAccess &a : accesses)
      if (a.event.space == interp::MemSpace::Global && a.event.buffer == param &&
          a.event.kind == kind)
        found.push_back(a);
    return found;
  }

  // The one mask every access in `list` ran under; 0 if they differ or none.
  static LaneMask commonMask(const std::vector<RecordedAccess> &list) {
    if (list.empty())
      return 0;
    for (const RecordedAccess &a : list)
      if (a.activeMask != list.front().activeMask)
        return 0;
    return list.front().activeMask;
  }

  // The lanes that made the accesses in `list`.
  static LaneMask lanesOf(const std::vector<RecordedAccess> &list) {
    LaneMask lanes = 0;
    for (const RecordedAccess &a : list)
      lanes |= LaneMask(1) << a.event.lane;
    return lanes;
  }

private:
  std::map<std::pair<uint32_t, uint32_t>, LaneMask> current_;
};

// Lanes l of a 32-lane warp with pred(l).
template <class Pred> LaneMask lanesWhere(Pred pred) {
  LaneMask mask = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (pred(l))
      mask |= LaneMask(1) << l;
  return mask;
}

std::vector<ArgumentValue> intBuffers(size_t count, size_t elements, int fill = 0) {
  std::vector<ArgumentValue> args;
  for (size_t i = 0; i < count; ++i)
    args.push_back(bufferArg(std::vector<int>(elements, fill)));
  return args;
}

// Runs `kernel` of `file` at -O0 with `recorder` attached.
::testing::AssertionResult runRecorded(const std::string &file, const std::string &kernelName,
                                       Dim3 grid, Dim3 block, std::vector<ArgumentValue> &args,
                                       Recorder &recorder, std::string *error = nullptr) {
  const ir::Program *program = loadTestProgram(file, 0);
  if (!program)
    return ::testing::AssertionFailure() << "could not load " << file;
  const ir::KernelInfo *kernel = program->findKernel(kernelName);
  if (!kernel)
    return ::testing::AssertionFailure() << "no kernel " << kernelName;
  interp::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  interp::RunOptions options;
  options.listener = &recorder;
  Result<interp::RunStats> stats = interp::runKernel(*program, *kernel, config, args, options);
  if (!stats.ok()) {
    if (error)
      *error = stats.error().message;
    return ::testing::AssertionFailure() << stats.error().message;
  }
  return ::testing::AssertionSuccess();
}

TEST(SimtStack, NestedDivergenceRunsEachPathUnderItsOwnMask) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(5, 32);
  ASSERT_TRUE(runRecorded("simt_control.cu", "nestedDivergence", {1, 1, 1}, {32, 1, 1}, args, r));
  LaneMask quad = lanesWhere([](unsigned l) { return l % 4 == 0; });
  LaneMask evenOther = lanesWhere([](unsigned l) { return l % 4 == 2; });
  LaneMask even = quad | evenOther;
  EXPECT_EQ(Recorder::commonMask(r.to(0, AccessKind::Write)), quad);
  EXPECT_EQ(Recorder::commonMask(r.to(1, AccessKind::Write)), evenOther);
  // The inner branch reconverges before the outer one does.
  EXPECT_EQ(Recorder::commonMask(r.to(2, AccessKind::Write)), even);
  EXPECT_EQ(Recorder::commonMask(r.to(3, AccessKind::Write)), ~even);
  // Reconvergence after the outer branch restores the full warp.
  EXPECT_EQ(Recorder::commonMask(r.to(4, AccessKind::Write)), interp::LaneMask(0xffffffffu));
  EXPECT_EQ(Recorder::lanesOf(r.to(0, AccessKind::Write)), quad);
  EXPECT_EQ(r.to(4, AccessKind::Write).size(), 32u);

  std::set<LaneMask> announced;
  for (const interp::MaskChangeEvent &e : r.maskChanges)
    announced.insert(e.active);
  for (LaneMask expected : {quad, evenOther, ~even, LaneMask(0xffffffffu)})
    EXPECT_TRUE(announced.count(expected)) << std::hex << "mask " << expected << " never announced";
  ASSERT_FALSE(r.maskChanges.empty());
  EXPECT_EQ(r.maskChanges.back().active, LaneMask(0xffffffffu));
}

TEST(SimtStack, NestedDivergenceInPartialWarpUsesOnlyLiveLanes) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(5, 48);
  ASSERT_TRUE(runRecorded("simt_control.cu", "nestedDivergence", {1, 1, 1}, {48, 1, 1}, args, r));
  // Warp 1 holds threads 32..47: lanes 0..15.
  std::vector<RecordedAccess> after;
  for (const RecordedAccess &a : r.to(4, AccessKind::Write))
    if (a.event.warp == 1)
      after.push_back(a);
  EXPECT_EQ(Recorder::commonMask(after), LaneMask(0xffff));
  EXPECT_EQ(valuesOf<int>(args[4].bytes), std::vector<int>(48, 5));
}

TEST(SimtStack, LaneDependentLoopExitsLaneByLane) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(2, 32);
  ASSERT_TRUE(runRecorded("simt_control.cu", "laneDependentLoop", {1, 1, 1}, {32, 1, 1}, args, r));
  std::vector<int> visits = valuesOf<int>(args[0].bytes), out = valuesOf<int>(args[1].bytes);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(visits[t], t) << "thread " << t;
    EXPECT_EQ(out[t], t * (t - 1) / 2) << "thread " << t;
  }
  // Lane t writes visits[t] once per iteration, and only while it loops.
  std::map<uint32_t, int> writesPerLane;
  for (const RecordedAccess &a : r.to(0, AccessKind::Write)) {
    ++writesPerLane[a.event.lane];
    EXPECT_TRUE(a.activeMask & (LaneMask(1) << a.event.lane));
  }
  for (uint32_t lane = 1; lane < 32; ++lane)
    EXPECT_EQ(writesPerLane[lane], int(lane)) << "lane " << lane;
  EXPECT_EQ(writesPerLane.count(0), 0u);
  // Every loop trip after the first has one lane fewer active.
  std::set<LaneMask> loopMasks;
  for (const RecordedAccess &a : r.to(0, AccessKind::Write))
    loopMasks.insert(a.activeMask);
  EXPECT_EQ(loopMasks.size(), 31u);
  EXPECT_EQ(Recorder::commonMask(r.to(1, AccessKind::Write)), LaneMask(0xffffffffu));
}

TEST(SimtStack, BreakAndContinueSkipTheRightIterations) {
  Recorder r;
  std::vector<ArgumentValue> args = {bufferArg(std::vector<int>(32 * 16, 0)),
                                     bufferArg(std::vector<int>(32, 0))};
  ASSERT_TRUE(runRecorded("simt_control.cu", "breakContinue", {1, 1, 1}, {32, 1, 1}, args, r));
  std::vector<int> touched = valuesOf<int>(args[0].bytes), out = valuesOf<int>(args[1].bytes);
  for (int t = 0; t < 32; ++t) {
    std::vector<int> expectedTouched(16, 0);
    int sum = 0;
    for (int i = 0; i < 16; ++i) {
      if (i == t % 5)
        continue;
      if (i > t % 11)
        break;
      expectedTouched[i] = 1;
      sum += i;
    }
    for (int i = 0; i < 16; ++i)
      EXPECT_EQ(touched[t * 16 + i], expectedTouched[i]) << "thread " << t << " iteration " << i;
    EXPECT_EQ(out[t], sum) << "thread " << t;
  }
  size_t expectedWrites = 0;
  for (int value : touched)
    expectedWrites += value;
  EXPECT_EQ(r.to(0, AccessKind::Write).size(), expectedWrites);
  EXPECT_EQ(Recorder::commonMask(r.to(1, AccessKind::Write)), LaneMask(0xffffffffu));
}

TEST(SimtStack, EarlyReturnedLanesExecuteNothingAfterwards) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(3, 32, -9);
  ASSERT_TRUE(runRecorded("simt_control.cu", "earlyReturns", {1, 1, 1}, {32, 1, 1}, args, r));
  LaneMask logged = lanesWhere([](unsigned l) { return l % 3 != 0; });
  LaneMask tailed = lanesWhere([](unsigned l) { return l % 4 != 1; });
  // Returning early from the device function.
  std::vector<RecordedAccess> logs = r.to(0, AccessKind::Write);
  EXPECT_EQ(logs.size(), size_t(std::popcount(logged)));
  EXPECT_EQ(Recorder::lanesOf(logs), logged);
  EXPECT_EQ(Recorder::commonMask(logs), logged);
  // Back in the kernel the warp is whole again.
  EXPECT_EQ(Recorder::commonMask(r.to(1, AccessKind::Write)), LaneMask(0xffffffffu));
  // Returning early from the kernel.
  std::vector<RecordedAccess> tails = r.to(2, AccessKind::Write);
  EXPECT_EQ(tails.size(), size_t(std::popcount(tailed)));
  EXPECT_EQ(Recorder::lanesOf(tails), tailed);
  EXPECT_EQ(Recorder::commonMask(tails) & ~tailed, 0u);

  std::vector<int> log = valuesOf<int>(args[0].bytes), out = valuesOf<int>(args[1].bytes),
                   tail = valuesOf<int>(args[2].bytes);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(log[t], t % 3 == 0 ? -9 : t);
    EXPECT_EQ(out[t], t % 3 == 0 ? -1 : 2 * t);
    EXPECT_EQ(tail[t], t % 4 == 1 ? -9 : 7);
  }
}

TEST(SimtStack, SwitchOnLaneSplitsWarpFourWays) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(5, 32);
  ASSERT_TRUE(runRecorded("simt_control.cu", "switchOnLane", {1, 1, 1}, {32, 1, 1}, args, r));
  for (uint32_t c = 0; c < 4; ++c) {
    LaneMask expected = lanesWhere([c](unsigned l) { return l % 4 == c; });
    std::vector<RecordedAccess> writes = r.to(c, AccessKind::Write);
    EXPECT_EQ(writes.size(), 8u) << "case " << c;
    EXPECT_EQ(Recorder::commonMask(writes), expected) << "case " << c;
    std::vector<int> values = valuesOf<int>(args[c].bytes);
    for (unsigned l = 0; l < 32; ++l)
      EXPECT_EQ(values[l], l % 4 == c ? int(10 + c) : 0) << "case " << c << " lane " << l;
  }
  EXPECT_EQ(Recorder::commonMask(r.to(4, AccessKind::Write)), LaneMask(0xffffffffu));
}

TEST(SimtStack, BarrierInHalfWarpReportsPartialWarpAndTerminates) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(1, 32, -1);
  ASSERT_TRUE(runRecorded("simt_sync.cu", "barrierInHalfWarp", {1, 1, 1}, {32, 1, 1}, args, r));
  ASSERT_FALSE(r.divergences.empty());
  const BarrierDivergenceEvent &e = r.divergences.front();
  EXPECT_EQ(e.cause, BarrierDivergenceEvent::Cause::PartialWarp);
  EXPECT_EQ(e.warp, 0u);
  EXPECT_LT(e.waitingThread, 16u);
  EXPECT_GE(e.otherThread, 16u);
  std::vector<int> out = valuesOf<int>(args[0].bytes);
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(out[t], t) << "every thread finishes";
}

TEST(SimtStack, ThreadsExitedBeforeBarrierAreReported) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(1, 64, -1);
  ASSERT_TRUE(runRecorded("simt_sync.cu", "barrierAfterExit", {1, 1, 1}, {64, 1, 1}, args, r));
  bool exited = false;
  for (const BarrierDivergenceEvent &e : r.divergences)
    if (e.cause == BarrierDivergenceEvent::Cause::ExitedThreads) {
      exited = true;
      EXPECT_LT(e.waitingThread, 32u);
      EXPECT_GE(e.otherThread, 32u);
    }
  EXPECT_TRUE(exited);
  std::vector<int> out = valuesOf<int>(args[0].bytes);
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(out[t], t < 32 ? t + 100 : -1) << "thread " << t;
}

TEST(SimtStack, NamedBarrierCountNeverReachedIsReportedAndTerminates) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(1, 64, -1);
  ASSERT_TRUE(
      runRecorded("simt_sync.cu", "incompleteNamedBarrier", {1, 1, 1}, {64, 1, 1}, args, r));
  ASSERT_EQ(r.divergences.size(), 1u);
  const BarrierDivergenceEvent &e = r.divergences.front();
  EXPECT_EQ(e.cause, BarrierDivergenceEvent::Cause::IncompleteNamedBarrier);
  EXPECT_LT(e.waitingThread, 32u);
  std::vector<int> out = valuesOf<int>(args[0].bytes);
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(out[t], t) << "every thread finishes";
}

TEST(SimtStack, ConvergentBarrierReportsNoDivergence) {
  Recorder r;
  std::vector<int> in(64);
  for (int t = 0; t < 64; ++t)
    in[t] = t % 3 == 0 ? 5 : -5;
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(std::vector<int>(64, 0))};
  ASSERT_TRUE(runRecorded("simt_sync.cu", "countPositive", {1, 1, 1}, {64, 1, 1}, args, r));
  EXPECT_TRUE(r.divergences.empty());
  EXPECT_EQ(r.releases.size(), 1u);
  // __syncthreads_count gives every thread the block-wide count.
  EXPECT_EQ(valuesOf<int>(args[1].bytes), std::vector<int>(64, 22));
}

TEST(SimtStack, SyncthreadsCountIsPerBlock) {
  Recorder r;
  std::vector<int> in(96);
  for (int t = 0; t < 96; ++t)
    in[t] = t < 48 ? 1 : (t % 2 ? 1 : 0);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(std::vector<int>(96, 0))};
  ASSERT_TRUE(runRecorded("simt_sync.cu", "countPositive", {2, 1, 1}, {48, 1, 1}, args, r));
  std::vector<int> out = valuesOf<int>(args[1].bytes);
  for (int t = 0; t < 96; ++t)
    EXPECT_EQ(out[t], t < 48 ? 48 : 24) << "thread " << t;
}

TEST(SimtStack, LockstepStepsIncreasePerWarpAndAreSharedByLanes) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(2, 64);
  ASSERT_TRUE(runRecorded("simt_sync.cu", "lockstepAccesses", {1, 1, 1}, {64, 1, 1}, args, r));
  // (warp, step) -> instruction, and lanes seen at that step.
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> instrAt;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::set<uint64_t>> stepsOf; // warp, instr, kind
  std::map<uint32_t, std::pair<uint64_t, uint32_t>> last; // warp -> (step, instruction)
  for (const RecordedAccess &a : r.accesses) {
    const AccessEvent &e = a.event;
    auto [it, fresh] = instrAt.emplace(std::make_pair(e.warp, e.step), e.instruction);
    EXPECT_EQ(it->second, e.instruction) << "two instructions share step " << e.step;
    stepsOf[{e.warp, e.instruction, uint32_t(e.kind)}].insert(e.step);
    if (auto prev = last.find(e.warp); prev != last.end()) {
      EXPECT_GE(e.step, prev->second.first) << "warp " << e.warp << " went back in steps";
      if (e.instruction != prev->second.second) {
        EXPECT_GT(e.step, prev->second.first) << "warp " << e.warp;
      }
    }
    last[e.warp] = {e.step, e.instruction};
  }
  // a[t] = t, the read of a[t^1], b[t] = ...: each one step, all 32 lanes.
  size_t accessInstructions = 0;
  for (const auto &[key, steps] : stepsOf) {
    EXPECT_EQ(steps.size(), 1u) << "instruction " << std::get<1>(key) << " in several steps";
    ++accessInstructions;
  }
  EXPECT_EQ(accessInstructions, 6u); // three accesses, two warps
  EXPECT_EQ(r.accesses.size(), 3u * 64u);
  std::vector<int> b = valuesOf<int>(args[1].bytes);
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(b[t], (t ^ 1) + 1);
}

TEST(SimtStack, SyncwarpEmitsWarpSyncBetweenTheAccesses) {
  Recorder r;
  std::vector<ArgumentValue> args = intBuffers(1, 32);
  ASSERT_TRUE(runRecorded("simt_sync.cu", "warpSyncHandOff", {1, 1, 1}, {32, 1, 1}, args, r));
  ASSERT_EQ(r.warpSyncs.size(), 1u);
  const interp::WarpSyncEvent &sync = r.warpSyncs.front();
  EXPECT_EQ(sync.mask, LaneMask(0xffffffffu));
  EXPECT_EQ(sync.warp, 0u);
  uint64_t sharedWrite = 0, sharedRead = 0;
  for (const RecordedAccess &a : r.accesses) {
    if (a.event.space != interp::MemSpace::Shared)
      continue;
    (a.event.kind == AccessKind::Write ? sharedWrite : sharedRead) = a.event.step;
  }
  EXPECT_LT(sharedWrite, sync.step);
  EXPECT_LT(sync.step, sharedRead);
  std::vector<int> out = valuesOf<int>(args[0].bytes);
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(out[t], ((t + 1) % 32) * 3);
}

} // namespace
} // namespace simulee::interp_test
