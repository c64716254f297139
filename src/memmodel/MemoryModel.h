// The Memory-Access Model of ONE launch, recorded from the interpreter's
// events: Memory Units per address holding Unit Tuples (memmodel/Access.h),
// visit orders advanced per block at each released barrier, lane divergence
// per warp, plus the fitness figures the search reads.
//
// The model decides no bug kind. As each access arrives it is shown the
// earlier overlapping accesses of its Memory Units (full log or shadow
// summary) and keeps, for each distinct combination of ordering facts, one
// example AccessPair; across each barrier instance it keeps the set of
// BarrierCrossings. detect/ applies DESIGN.md's rules to those afterwards
// (detect depends on memmodel, never the reverse), which keeps the rules in
// one place and the model's memory bounded by the number of distinct facts.
#pragma once

#include "interp/Events.h"
#include "memmodel/AccessPair.h"
#include "memmodel/AccessStore.h"
#include "memmodel/AtomicityTracker.h"
#include "memmodel/DivergenceTracker.h"
#include "memmodel/BarrierEvidence.h"
#include "memmodel/FitnessFigures.h"
#include "memmodel/FullTupleLog.h"
#include "memmodel/NamedBarrierOrder.h"
#include "memmodel/ReleaseOrder.h"
#include "memmodel/SharedInitTracker.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace simulee::memmodel {

enum class Representation : uint8_t { Full, Summary, Auto };

struct ModelOptions {
  Representation representation = Representation::Auto;
  // Volta-and-later semantics (the default): one warp's lanes are ordered
  // only by __syncwarp (or a barrier), not by lockstep. Read by the detectors.
  bool independentThreads = true;
  // Auto: Summary when the launch has more threads than this (launchThreads
  // given), else Full until this many accesses were recorded or one address
  // holds this many tuples, then Summary.
  uint64_t summaryThresholdThreads = 4096;
  uint64_t summaryThresholdAccesses = 1u << 20;
  uint64_t summaryThresholdUnitTuples = 1024; // the full log is quadratic per unit
  uint64_t launchThreads = 0; // total threads of the launch, 0 = unknown
  // A searched launch that overruns a buffer is not judged (it is repaired
  // and run again, or skipped): after its first overrun only further
  // overruns are recorded, which is all its repair reads.
  bool onlyOverrunsAfterOverrun = false;
  // The figures a search ranks launches by (fitness()); off, they stay at
  // nothing accessed and cost nothing: a launch nobody ranks need not pay
  // their word per accessed byte offset.
  bool fitnessFigures = true;
  // Off: no access is recorded at all (no races, no barrier evidence, no
  // uninitialized reads); only what the interpreter reports itself is kept:
  // out-of-bounds accesses, undefined behaviour and barrier divergence. The
  // cheaper checks of `simulee exec`'s repeated launches.
  bool recordAccesses = true;
  // Instructions (by id) whose accesses no other thread's access can
  // conflict with (interp::untrackedInstructions): counted and shown to the
  // barrier evidence and the fitness figures, but kept in no Memory Unit.
  // They take part in no pair and no barrier crossing, so the findings are
  // the same; the full log's tuples lack them.
  std::vector<bool> untracked = {};
  // The kernel's pairs of atomic accesses meant as one step
  // (ir::KernelInfo::atomicUnits), what atomicityTriples() watches, and the
  // program's instructions, whose atomicRole says what each atomic does and
  // isVolatile which accesses are strong (it must outlive the model). No
  // units: nothing is watched.
  std::vector<ir::AtomicUnit> atomicUnits = {};
  const std::vector<ir::InstructionInfo> *instructions = nullptr;
};

// The tuple log as columns (one entry per tuple), for the Python API.
struct TupleColumns {
  std::vector<uint8_t> space, action;
  std::vector<uint32_t> buffer;
  std::vector<uint64_t> offset;
  std::vector<uint32_t> sizeBytes, visitOrder, block, thread, warp, lane;
  std::vector<uint64_t> step;
  std::vector<uint32_t> instruction, activeMask;
};

class MemoryModel final : public interp::ExecutionListener {
public:
  explicit MemoryModel(ModelOptions options = {});

  bool wantsAccesses() const override { return options_.recordAccesses; }
  void onBlockBegin(uint32_t block) override;
  void onBlockEnd(uint32_t block) override;
  // Grid barriers: a block stops there as if it ended (its findings so far
  // are judged), keeping what it wrote of its shared memory; once every block
  // has arrived, no earlier access can pair with a later one.
  void onBlockSuspend(uint32_t block) override;
  void onBlockResume(uint32_t block, uint32_t epoch) override;
  void onGridBarrierRelease(const interp::GridBarrierReleaseEvent &event) override;
  void onAccess(const interp::AccessEvent &event) override;
  // An access that can add nothing the model does not know (one of a block
  // equivalent to an earlier one, memmodel/RepresentativeBlocks.h): counted
  // and shown to the barrier evidence and the fitness figures like any, but
  // related to no other and kept in no Memory Unit. With no fitness figures
  // kept, it may stand for several such accesses of its warp to its variable
  // in a row (AccessEvent::count), which show the barrier evidence nothing more.
  void onUnkeptAccess(const interp::AccessEvent &event);
  void onMaskChange(const interp::MaskChangeEvent &event) override;
  void onBarrierRelease(const interp::BarrierReleaseEvent &event) override;
  void onBarrierDivergence(const interp::BarrierDivergenceEvent &event) override;
  void onWarpSync(const interp::WarpSyncEvent &event) override;
  void onFence(const interp::FenceEvent &event) override;
  // Printed output is something a barrier orders (BarrierEvidence).
  void onOutput(const interp::OutputEvent &event) override;
  // A clock read next to a barrier makes it a timing barrier (BarrierInstance::timed).
  void onClockRead(const interp::ClockReadEvent &event) override;
  void onNamedBarrierArrive(const interp::NamedBarrierArriveEvent &event) override;
  void onNamedBarrierRelease(const interp::NamedBarrierReleaseEvent &event) override;
  void onOutOfBounds(const interp::OutOfBoundsEvent &event) override;
  void onUndefinedBehavior(const interp::UndefinedBehaviorEvent &event) override;
  void onAssertionFailed(const interp::AssertionEvent &event) override;

  const ModelOptions &options() const { return options_; }
  // Full or Summary: what Auto chose (it may switch to Summary mid-run).
  Representation representation() const;

  // One example per distinct (space, instructions, actions, relation,
  // ordering facts), first seen first; relation is DifferentBlocks or
  // SameVisitOrder. Pairs of one thread, and pairs whose actions cannot
  // conflict (two reads, two atomics: actionsCanConflict), are never
  // recorded, neither as pairs nor as barrier crossings.
  const std::vector<AccessPair> &accessPairs() const { return pairs_; }
  // Executed barrier instances, folded by (instructions, crossings);
  // complete once the block that executed them has ended.
  const std::vector<BarrierInstance> &barrierInstances() const { return barriers_; }
  // First event per (barrierInstr, otherInstr) / per instruction.
  const std::vector<interp::BarrierDivergenceEvent> &barrierDivergences() const {
    return divergences_;
  }
  const std::vector<interp::OutOfBoundsEvent> &outOfBounds() const { return outOfBounds_; }
  // The end (offset + size) of the farthest overrun of a buffer over the
  // whole launch, 0 when none: how large a buffer would have held them all.
  uint64_t overrunEnd(interp::MemSpace space, uint32_t buffer) const;
  // Reads of shared bytes no thread of the block ever wrote (see
  // SharedInitTracker.h): the first per instruction, complete once the
  // block that made them has ended.
  const std::vector<interp::AccessEvent> &uninitializedReads() const { return uninitialized_; }
  // First event per instruction.
  const std::vector<interp::UndefinedBehaviorEvent> &undefinedBehavior() const {
    return undefinedBehavior_;
  }
  // The failed `assert` that stopped the launch, if one did.
  const std::optional<interp::AssertionEvent> &assertion() const { return assertion_; }

  // Pairs of one thread's atomic accesses meant as one step with another
  // thread's atomic access able to fall between them (AtomicityTracker.h),
  // one example per distinct (instructions, relation).
  const std::vector<AtomicityTriple> &atomicityTriples() const;

  // Every Unit Tuple in arrival order; empty in Summary representation.
  const std::vector<Access> &tuples() const;
  TupleColumns tupleColumns() const;

  const FitnessFigures &fitness() const { return fitness_; }
  uint64_t accessCount() const { return accessCount_; }
  uint64_t granuleCount() const { return store_->granuleCount(); }

private:
  class PairRecorder;
  struct OpenBarrier {
    std::vector<uint32_t> barrierInstrs;
    uint32_t epoch = 0;
    BarrierCrossingSet crossings;
    // The visit order that ended at the barrier, or the one it started, read
    // a clock.
    bool timed = false;
  };

  void record(const interp::AccessEvent &event, bool keep);
  void switchToBlock(uint32_t block);
  void closeOpenBarrier();
  void foldBlockBarriers();
  void maybeSwitchToSummary();
  void relate(const Access &prior, const Access &now);
  bool bothVolatile(const Access &a, const Access &b) const;
  void recordPair(const Access &earlier, const Access &later, PairRelation relation,
                  const WarpOrdering &ordering);

  ModelOptions options_;
  std::unique_ptr<AccessStore> store_;
  FullTupleLog *fullLog_ = nullptr; // store_ when it is the full log
  DivergenceTracker divergence_;
  NamedBarrierOrder namedBarriers_;
  ReleaseOrder releaseOrder_;
  std::unique_ptr<AtomicityTracker> atomicity_; // null when no unit is watched
  FitnessFigures fitness_;

  std::optional<uint32_t> currentBlock_;
  uint32_t currentEpoch_ = 0;
  std::optional<OpenBarrier> openBarrier_;
  // The current block's closed barrier instances: folded into barriers_ when
  // the block ends and their evidence is known.
  std::vector<OpenBarrier> blockBarriers_;
  BarrierEvidence evidence_;
  uint64_t accessCount_ = 0;
  bool recordingAccesses_; // see ModelOptions::onlyOverrunsAfterOverrun, recordAccesses

  std::vector<AccessPair> pairs_;
  std::unordered_map<uint64_t, uint32_t> pairIndexByFacts_;
  static constexpr unsigned kKnownFactsBits = 10;
  std::array<uint64_t, 1u << kKnownFactsBits> knownFacts_{}; // key + 1 of kept pairs, 0 = none
  std::vector<BarrierInstance> barriers_;
  std::vector<interp::BarrierDivergenceEvent> divergences_;
  std::vector<interp::OutOfBoundsEvent> outOfBounds_;
  std::unordered_map<uint64_t, uint64_t> overrunEnds_; // by space << 32 | buffer
  std::vector<interp::UndefinedBehaviorEvent> undefinedBehavior_;
  std::optional<interp::AssertionEvent> assertion_;
  std::unordered_set<uint64_t> divergenceSeen_, outOfBoundsSeen_, undefinedBehaviorSeen_,
      uninitializedSeen_;
  SharedInitTracker sharedInit_;
  std::unordered_map<uint32_t, SharedInitTracker> suspendedInit_; // by block at a grid barrier
  std::vector<interp::AccessEvent> uninitialized_;
};

} // namespace simulee::memmodel
