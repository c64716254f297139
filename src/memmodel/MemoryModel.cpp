#include "memmodel/MemoryModel.h"

#include "memmodel/ShadowSummary.h"
#include "support/Assert.h"

#include <algorithm>

namespace simulee::memmodel {

using interp::MemSpace;

// Shows each earlier overlapping access to the model together with the new one.
class MemoryModel::PairRecorder final : public PriorAccessVisitor {
public:
  PairRecorder(MemoryModel &model, const Access &now) : model_(model), now_(now) {}
  void visit(const Access &prior) override { model_.relate(prior, now_); }

private:
  MemoryModel &model_;
  const Access &now_;
};

namespace {

bool startsInSummary(const ModelOptions &options) {
  if (options.representation == Representation::Summary)
    return true;
  return options.representation == Representation::Auto && options.launchThreads != 0 &&
         options.launchThreads > options.summaryThresholdThreads;
}

Access tupleOf(const interp::AccessEvent &event, uint32_t visitOrder, interp::LaneMask active) {
  Access access;
  access.space = event.space;
  access.action = event.kind;
  access.buffer = event.buffer;
  access.offset = event.offset;
  access.sizeBytes = event.sizeBytes;
  access.visitOrder = visitOrder;
  access.block = event.block;
  access.thread = event.thread;
  access.warp = event.warp;
  access.lane = event.lane;
  access.step = event.step;
  access.instruction = event.instruction;
  access.activeMask = active;
  access.value = event.value;
  access.valueKnown = event.valueKnown;
  return access;
}

// The facts that decide every rule about a pair, packed as the key under
// which one example pair is kept (24 + 24 + 2 + 2 + 2 + 2 + 5 = 61 bits).
uint64_t factsKey(const Access &earlier, const Access &later, PairRelation relation,
                  const WarpOrdering &o) {
  uint64_t key = earlier.instruction;
  key = key << 24 | later.instruction;
  key = key << 2 | uint64_t(earlier.action);
  key = key << 2 | uint64_t(later.action);
  key = key << 2 | uint64_t(later.space);
  key = key << 2 | uint64_t(relation);
  key = key << 4 | uint64_t(o.sameWarp) << 3 | uint64_t(o.commonActiveStep) << 2 |
        uint64_t(o.warpSyncBetween) << 1 | uint64_t(o.sameStep);
  key = key << 1 | uint64_t(writesSameValue(earlier, later));
  return key;
}

} // namespace

MemoryModel::MemoryModel(ModelOptions options)
    : options_(options), recordingAccesses_(options.recordAccesses) {
  if (!options_.atomicUnits.empty() && options_.instructions && options_.recordAccesses)
    atomicity_ = std::make_unique<AtomicityTracker>(options_.atomicUnits, *options_.instructions);
  if (startsInSummary(options_)) {
    store_ = std::make_unique<ShadowSummary>();
    return;
  }
  auto log = std::make_unique<FullTupleLog>();
  fullLog_ = log.get();
  store_ = std::move(log);
}

Representation MemoryModel::representation() const {
  return fullLog_ ? Representation::Full : Representation::Summary;
}

const std::vector<AtomicityTriple> &MemoryModel::atomicityTriples() const {
  static const std::vector<AtomicityTriple> none;
  return atomicity_ ? atomicity_->triples() : none;
}

const std::vector<Access> &MemoryModel::tuples() const {
  static const std::vector<Access> none;
  return fullLog_ ? fullLog_->tuples() : none;
}

TupleColumns MemoryModel::tupleColumns() const {
  TupleColumns columns;
  for (const Access &a : tuples()) {
    columns.space.push_back(uint8_t(a.space));
    columns.action.push_back(uint8_t(a.action));
    columns.buffer.push_back(a.buffer);
    columns.offset.push_back(a.offset);
    columns.sizeBytes.push_back(a.sizeBytes);
    columns.visitOrder.push_back(a.visitOrder);
    columns.block.push_back(a.block);
    columns.thread.push_back(a.thread);
    columns.warp.push_back(a.warp);
    columns.lane.push_back(a.lane);
    columns.step.push_back(a.step);
    columns.instruction.push_back(a.instruction);
    columns.activeMask.push_back(a.activeMask);
  }
  return columns;
}

void MemoryModel::switchToBlock(uint32_t block) {
  if (currentBlock_ == block)
    return;
  if (currentBlock_)
    onBlockEnd(*currentBlock_);
  currentBlock_ = block;
  currentEpoch_ = 0;
  evidence_.beginBlock();
  sharedInit_.beginBlock();
  divergence_.beginBlock();
  namedBarriers_.beginBlock();
  releaseOrder_.beginBlock();
}

void MemoryModel::onBlockBegin(uint32_t block) { switchToBlock(block); }

void MemoryModel::onBlockEnd(uint32_t block) {
  closeOpenBarrier();
  evidence_.endVisitOrder(currentEpoch_);
  foldBlockBarriers();
  sharedInit_.blockEnd([&](const interp::AccessEvent &read) {
    if (uninitializedSeen_.insert(read.instruction).second)
      uninitialized_.push_back(read);
  });
  if (options_.fitnessFigures)
    fitness_.endBlock(block);
  store_->endBlock(block);
  if (atomicity_)
    atomicity_->endBlock();
  currentBlock_.reset();
}

void MemoryModel::onBlockSuspend(uint32_t block) {
  switchToBlock(block);
  onBlockEnd(block);
  suspendedInit_.insert_or_assign(block, sharedInit_);
}

void MemoryModel::onBlockResume(uint32_t block, uint32_t epoch) {
  switchToBlock(block);
  currentEpoch_ = epoch;
  if (auto suspended = suspendedInit_.find(block); suspended != suspendedInit_.end()) {
    sharedInit_ = std::move(suspended->second);
    suspendedInit_.erase(suspended);
  }
}

void MemoryModel::onGridBarrierRelease(const interp::GridBarrierReleaseEvent &) {
  if (currentBlock_)
    onBlockEnd(*currentBlock_);
  store_->forgetAll();
  if (atomicity_)
    atomicity_->forgetAll();
}

void MemoryModel::onMaskChange(const interp::MaskChangeEvent &event) {
  switchToBlock(event.block);
  divergence_.onMaskChange(event.warp, event.step, event.active);
}

void MemoryModel::onWarpSync(const interp::WarpSyncEvent &event) {
  switchToBlock(event.block);
  divergence_.onWarpSync(event.warp, event.step, event.mask);
}

void MemoryModel::onFence(const interp::FenceEvent &event) {
  switchToBlock(event.block);
  releaseOrder_.onFence(currentEpoch_, event.warp, event.step, event.mask, event.deviceScope);
}

void MemoryModel::onOutput(const interp::OutputEvent &event) {
  switchToBlock(event.block);
  evidence_.recordOutput();
}

void MemoryModel::onClockRead(const interp::ClockReadEvent &event) {
  switchToBlock(event.block);
  evidence_.recordClockRead();
}

void MemoryModel::onNamedBarrierArrive(const interp::NamedBarrierArriveEvent &event) {
  switchToBlock(event.block);
  namedBarriers_.arrive(event.warp, event.step, event.barrierId);
}

void MemoryModel::onNamedBarrierRelease(const interp::NamedBarrierReleaseEvent &event) {
  switchToBlock(event.block);
  namedBarriers_.release(event.barrierId, event.waiters);
}

void MemoryModel::onBarrierRelease(const interp::BarrierReleaseEvent &event) {
  switchToBlock(event.block);
  bool clockBefore = evidence_.clockReadNow();
  closeOpenBarrier();
  evidence_.endVisitOrder(currentEpoch_);
  currentEpoch_ = event.epoch;
  openBarrier_ = OpenBarrier{event.barrierInstrs, event.epoch, {}, clockBefore};
}

// A barrier instance's crossings are complete once the next one starts or the
// block ends: accesses two visit orders apart never meet across it.
void MemoryModel::closeOpenBarrier() {
  if (!openBarrier_)
    return;
  openBarrier_->timed |= evidence_.clockReadNow();
  blockBarriers_.push_back(std::move(*openBarrier_));
  openBarrier_.reset();
}

// At the end of a block every instance's evidence is known; instances with
// the same barriers, crossings, evidence and sides become one entry.
void MemoryModel::foldBlockBarriers() {
  for (OpenBarrier &closed : blockBarriers_) {
    bool evidence = evidence_.isEvidence(closed.epoch);
    bool ordersNothing = evidence_.ordersNothing(closed.epoch);
    auto same = [&](const BarrierInstance &known) {
      return known.barrierInstrs == closed.barrierInstrs && known.crossings == closed.crossings &&
             known.evidence == evidence && known.ordersNothing == ordersNothing &&
             known.timed == closed.timed;
    };
    auto found = std::find_if(barriers_.begin(), barriers_.end(), same);
    if (found != barriers_.end()) {
      ++found->count;
      continue;
    }
    barriers_.push_back(BarrierInstance{std::move(closed.barrierInstrs), closed.crossings, evidence,
                                        ordersNothing, closed.timed, currentBlock_.value_or(0),
                                        closed.epoch, 1});
  }
  blockBarriers_.clear();
}

void MemoryModel::onBarrierDivergence(const interp::BarrierDivergenceEvent &event) {
  uint64_t key = uint64_t(event.barrierInstr) << 32 | event.otherInstr;
  if (divergenceSeen_.insert(key).second)
    divergences_.push_back(event);
}

uint64_t MemoryModel::overrunEnd(interp::MemSpace space, uint32_t buffer) const {
  auto found = overrunEnds_.find(uint64_t(space) << 32 | buffer);
  return found == overrunEnds_.end() ? 0 : found->second;
}

void MemoryModel::onOutOfBounds(const interp::OutOfBoundsEvent &event) {
  if (outOfBoundsSeen_.insert(event.access.instruction).second)
    outOfBounds_.push_back(event);
  const interp::AccessEvent &access = event.access;
  uint64_t &end = overrunEnds_[uint64_t(access.space) << 32 | access.buffer];
  end = std::max(end, access.offset + access.sizeBytes);
  if (options_.onlyOverrunsAfterOverrun)
    recordingAccesses_ = false;
}

void MemoryModel::onUndefinedBehavior(const interp::UndefinedBehaviorEvent &event) {
  if (undefinedBehaviorSeen_.insert(event.instruction).second)
    undefinedBehavior_.push_back(event);
}

void MemoryModel::onAssertionFailed(const interp::AssertionEvent &event) {
  if (!assertion_)
    assertion_ = event;
}

void MemoryModel::onAccess(const interp::AccessEvent &event) {
  record(event, !(event.instruction < options_.untracked.size() &&
                  options_.untracked[event.instruction]));
}

void MemoryModel::onUnkeptAccess(const interp::AccessEvent &event) { record(event, false); }

void MemoryModel::record(const interp::AccessEvent &event, bool keep) {
  // Local memory is private to its thread: it can take part in no rule.
  if (event.space == MemSpace::Local || !recordingAccesses_)
    return;
  switchToBlock(event.block);
  // An event standing for several accesses (a quiet instruction's lanes, a
  // run of a repeating block's) shows the barrier evidence all it needs to
  // know: its warp reached the variable. It is one the model keeps no access
  // of, and ranks no launch.
  SIMULEE_ASSERT(event.count == 1 || (!keep && !options_.fitnessFigures),
                 "an access standing for several is one the model neither keeps nor ranks");
  if (options_.fitnessFigures)
    fitness_.record(event);
  evidence_.record(event.space, event.buffer, event.warp);
  accessCount_ += event.count;
  if (!keep)
    return;
  if (event.space == MemSpace::Shared)
    sharedInit_.record(event);
  Access now = tupleOf(event, currentEpoch_, divergence_.activeMask(event.warp));
  if (now.action == interp::AccessKind::Atomic)
    releaseOrder_.onAtomic(now, divergence_);
  if (atomicity_ && interp::isAtomic(now.action))
    atomicity_->onAtomic(now, divergence_, releaseOrder_);
  PairRecorder recorder(*this, now);
  store_->record(now, recorder);
  if (fullLog_)
    maybeSwitchToSummary();
}

// Auto with an unknown launch size: the full log until it grows too large
// (or one Memory Unit makes it quadratic),
// then its tuples are replayed into a summary (their pairs are known already).
void MemoryModel::maybeSwitchToSummary() {
  if (!fullLog_ || options_.representation != Representation::Auto)
    return;
  if (accessCount_ < options_.summaryThresholdAccesses &&
      fullLog_->largestUnit() <= options_.summaryThresholdUnitTuples)
    return;
  struct Ignore final : PriorAccessVisitor {
    void visit(const Access &) override {}
  } ignore;
  auto summary = std::make_unique<ShadowSummary>();
  const std::vector<Access> &tuples = fullLog_->tuples();
  for (size_t i = 0; i < tuples.size(); ++i) {
    if (i > 0 && tuples[i - 1].block != tuples[i].block)
      summary->endBlock(tuples[i - 1].block); // blocks ran one after another
    summary->record(tuples[i], ignore);
  }
  fullLog_ = nullptr;
  store_ = std::move(summary);
}

// Volatile accesses are PTX's relaxed accesses at system scope, strong: two
// of them by different blocks are no data race (the flags and tile states
// blocks publish to each other, as in a decoupled look-back). Within a
// block they stay plain, so that warp-synchronous code (a volatile
// reduction with no __syncwarp) still shows the order it assumes.
bool MemoryModel::bothVolatile(const Access &a, const Access &b) const {
  const std::vector<ir::InstructionInfo> *instructions = options_.instructions;
  return instructions && a.instruction < instructions->size() &&
         b.instruction < instructions->size() && (*instructions)[a.instruction].isVolatile &&
         (*instructions)[b.instruction].isVolatile;
}

void MemoryModel::relate(const Access &prior, const Access &now) {
  if (prior.sameThreadAs(now) || atomicInOneBlock(prior, now))
    return;
  if (prior.block != now.block) {
    if (!releaseOrder_.ordered(prior, now, divergence_) && !bothVolatile(prior, now))
      recordPair(prior, now, PairRelation::DifferentBlocks, {});
    return;
  }
  // Within a block visit orders only grow; two or more barriers apart, the
  // pair is ordered and no barrier's necessity hangs on it.
  if (prior.visitOrder > now.visitOrder || now.visitOrder - prior.visitOrder > 1)
    return;
  bool sameVisitOrder = prior.visitOrder == now.visitOrder;
  if (!sameVisitOrder && (!openBarrier_ || openBarrier_->epoch != now.visitOrder))
    return;
  // A named barrier between two warps orders them within a visit order.
  if (prior.warp != now.warp && namedBarriers_.ordersBefore(prior.warp, prior.step, now.warp))
    return;
  WarpOrdering ordering;
  if (prior.warp == now.warp) {
    ordering.sameWarp = true;
    ordering.commonActiveStep =
        divergence_.hadCommonActiveStep(now.warp, prior.lane, prior.step, now.lane, now.step);
    ordering.warpSyncBetween =
        divergence_.warpSyncBetween(now.warp, prior.lane, prior.step, now.lane, now.step);
    ordering.sameStep = prior.step == now.step;
  }
  if (sameVisitOrder) {
    // A release `now`'s thread acquired (a block barrier of libcu++, a flag
    // handed between warps with release and acquire atomics).
    if (releaseOrder_.ordered(prior, now, divergence_))
      return;
    recordPair(prior, now, PairRelation::SameVisitOrder, ordering);
    return;
  }
  openBarrier_->crossings.insert(BarrierCrossing{prior.action, now.action, ordering.sameWarp,
                                                 ordering.commonActiveStep,
                                                 ordering.warpSyncBetween});
}

// Most pairs repeat facts already kept: a direct-mapped cache of known keys
// answers them before the hash map is consulted.
void MemoryModel::recordPair(const Access &earlier, const Access &later, PairRelation relation,
                             const WarpOrdering &ordering) {
  uint64_t key = factsKey(earlier, later, relation, ordering);
  uint64_t &cached = knownFacts_[(key * 0x9E3779B97F4A7C15ull) >> (64 - kKnownFactsBits)];
  if (cached == key + 1)
    return;
  cached = key + 1;
  if (pairIndexByFacts_.try_emplace(key, uint32_t(pairs_.size())).second)
    pairs_.push_back(AccessPair{earlier, later, relation, ordering});
}

} // namespace simulee::memmodel
