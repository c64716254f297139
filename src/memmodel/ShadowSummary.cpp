#include "memmodel/ShadowSummary.h"

#include "support/Assert.h"

#include <algorithm>

namespace simulee::memmodel {

// What the summary keeps, and why it reaches the full log's verdicts.
//
// Findings are deduplicated by (kind, space, instruction pair), so for a new
// access N the question per earlier instruction I is only "does SOME earlier
// access of I relate to N with racing facts?" (and per barrier instance:
// "does SOME access of the previous visit order?"). One WitnessGroup per
// (instruction, action, byte mask) and granule answers it, because every
// access of a group overlaps N alike:
//  - Different blocks (global memory): the group's current block and one
//    other block are remembered; whichever block N runs in, a witness of a
//    different block is shown if one ever accessed. Exact.
//  - Same block: the current and previous visit order are kept apart, so a
//    barrier's crossings never lose the previous order's accesses.
//  - Different warps: per visit order the warp that accessed last plus the
//    newest access of another warp. If any earlier access came from a warp
//    other than N's, one of the two is such a witness, and that pair alone
//    decides the verdict for (I, N's instruction). Exact.
//  - Same warp only (no other warp touched the group in that visit order):
//    up to kLaneWitnesses distinct threads, each with its newest access. A
//    thread's newest access stands for its older ones: "a common active step
//    in [s1, s2]" and "a __syncwarp in (s1, s2]" only get likelier as s1
//    shrinks, and the same-step-same-store pair is always the newest one.
//    Exact while no group sees more threads of one warp in a visit order.
//    Beyond that, the new access replaces the oldest witness whose lane ran
//    in the new access's step: under lockstep semantics every later lane
//    that misses one of them meets neither (reconvergence is nested), and
//    under independent threads a full-warp __syncwarp orders both or
//    neither. Only when no witness qualifies is the oldest one dropped
//    (counted in droppedWitnesses()); then a race may be missed, never
//    invented: every witness is a real access with its real facts.

// A Witness word:
//
//   63 62                                                    10 9          0
//  +--+--------------------------------------------------------+------------+
//  |1 |  lockstep step, 53 bits, saturating                     | thread id  |
//  +--+--------------------------------------------------------+------------+
//
// Bit 63 marks a present witness. The thread is the linear id in its block
// (blocks hold at most 1024 threads); warp and lane derive from it because
// warps are 32 consecutive linear ids. The block, visit order, instruction,
// action and bytes are the enclosing group's.
namespace {
constexpr unsigned kThreadBits = 10, kStepBits = 53;
constexpr uint64_t kPresent = uint64_t(1) << 63;
static_assert(kThreadBits + kStepBits + 1 == 64, "a witness is one word");

constexpr uint64_t lowBits(unsigned n) { return (uint64_t(1) << n) - 1; }
} // namespace

Witness Witness::of(uint32_t thread, uint64_t step) {
  SIMULEE_ASSERT(thread <= lowBits(kThreadBits), "thread id exceeds 10 bits");
  uint64_t savedStep = std::min(step, lowBits(kStepBits));
  return Witness{kPresent | savedStep << kThreadBits | thread};
}

uint32_t Witness::thread() const { return uint32_t(word & lowBits(kThreadBits)); }
uint64_t Witness::step() const { return (word >> kThreadBits) & lowBits(kStepBits); }

namespace {

// The slot of `witnesses` (newest first) that a new access by `access`
// overwrites, and whether that loses a witness nothing retained stands for.
struct Eviction {
  unsigned slot;
  bool dropsWitness;
};

Eviction chooseEviction(const std::array<Witness, kLaneWitnesses> &witnesses,
                        const Access &access) {
  for (unsigned i = 0; i < kLaneWitnesses; ++i)
    if (witnesses[i].empty() || witnesses[i].thread() == access.thread)
      return {i, false};
  for (unsigned i = kLaneWitnesses; i-- > 0;)
    if (access.activeMask >> witnesses[i].lane() & 1)
      return {i, false};
  return {kLaneWitnesses - 1, true};
}

} // namespace

void UniformValue::add(const Access &access) {
  if (!access.valueKnown)
    state = State::Mixed;
  else if (state == State::None)
    state = State::Uniform, value = access.value;
  else if (state == State::Uniform && value != access.value)
    state = State::Mixed;
}

bool VisitWitnesses::add(const Access &access) {
  stored.add(access);
  Witness witness = Witness::of(access.thread, access.step);
  if (!empty() && latestWarp[0].warp() != witness.warp()) {
    otherWarp = latestWarp[0];
    latestWarp = {};
    latestWarp[0] = witness;
    return true;
  }
  Eviction eviction = chooseEviction(latestWarp, access);
  std::copy_backward(latestWarp.begin(), latestWarp.begin() + eviction.slot,
                     latestWarp.begin() + eviction.slot + 1);
  latestWarp[0] = witness;
  return !eviction.dropsWitness;
}

bool WitnessGroup::add(const Access &access) {
  if (current.empty()) {
    block = access.block;
    current.visitOrder = access.visitOrder;
  } else if (block != access.block) {
    otherBlock = block;
    otherBlockWitness = current.latestWarp[0];
    otherBlockVisit = current.visitOrder;
    otherBlockStored = current.stored;
    block = access.block;
    current = VisitWitnesses{};
    current.visitOrder = access.visitOrder;
    previous = VisitWitnesses{};
  } else if (current.visitOrder != access.visitOrder) {
    // Visit orders only grow within a block; two or more apart, the old
    // accesses are ordered by a barrier and serve no rule.
    bool adjacent = current.visitOrder + 1 == access.visitOrder;
    previous = adjacent ? current : VisitWitnesses{};
    current = VisitWitnesses{};
    current.visitOrder = access.visitOrder;
  }
  return current.add(access);
}

// A GroupCell, 32 bytes in four words and two double words:
//
//   instruction    the group's instruction
//   block          single: the block of its access
//   visitAndBytes  31      24 23                        0
//                 +----------+---------------------------+
//                 | byte mask| single: visit order       |
//                 +----------+---------------------------+
//   next           the granule's next cell (overflow index + 1), 0 = last
//   packed         63 62 61 60 59 58                   10 9         0
//                 +-----+-----+--+----------------------+------------+
//   single:       |state|actn |vk| lockstep step, 49 bits| thread id  |
//   pooled:       |state|actn |   0        ...     | pooled group index (32) |
//                 +-----+-----+--+----------------------+------------+
//   value          single: the value it stored, if vk (value known)
//
// An access whose visit order or step does not fit (2^24 barriers, 2^49
// steps of one warp) goes to the pool at once, where both have room.
//
// A twin holds two singles, A (created first) and B, of one instruction,
// action, block, visit order and step, on disjoint byte masks, with values
// of at most 32 bits:
//
//   instruction, block, next   both's
//   visitAndBytes  A's byte mask (8) | the visit order (24), as a single's
//   packed         63 62 61 60  59  58  57    50 49      40 39      30 29      0
//                 +-----+-----+---+---+--------+----------+----------+----------+
//                 |state|actn |vkA|vkB| mask B | thread B | thread A | step (30)|
//                 +-----+-----+---+---+--------+----------+----------+----------+
//   value          A's value in the low 32 bits, B's in the high 32
//
// It holds exactly what the two singles would, and it sits where the chain
// had A, with B right after it, so every rule sees the same accesses in the
// same order. B is only twinned with A when A is the chain's last cell (B
// would be appended after it), and a twin whose half sees a second access
// is split back into the two singles in that order.
namespace {
constexpr unsigned kVisitBits = GroupCell::kVisitBits, kCellStepBits = 49;
constexpr unsigned kStateShift = GroupCell::kStateShift, kActionShift = GroupCell::kActionShift,
                   kValueKnownBit = GroupCell::kValueKnownBit;
static_assert(kValueKnownBit == kThreadBits + kCellStepBits, "a single's fields fill its word");

uint64_t cellTag(GroupCell::State state, interp::AccessKind action) {
  return uint64_t(state) << kStateShift | uint64_t(action) << kActionShift;
}

bool fitsSingle(const Access &access) {
  return access.visitOrder <= lowBits(kVisitBits) && access.step <= lowBits(kCellStepBits);
}

// Where a group's accesses lie: its granule, narrowed to its byte mask.
void locate(Access &access, const GroupIdentity &group, const GranuleKey &key) {
  access.space = key.space;
  access.action = group.action;
  access.buffer = key.buffer;
  access.offset = key.firstByte() + firstByteOf(group.bytes);
  access.sizeBytes = spanOf(group.bytes);
  access.instruction = group.instruction;
}

Access unpack(const GroupIdentity &group, const GranuleKey &key, Witness witness, uint32_t block,
              uint32_t visitOrder, bool valueKnown, uint64_t value) {
  Access access;
  locate(access, group, key);
  access.visitOrder = visitOrder;
  access.block = block;
  access.thread = witness.thread();
  access.warp = witness.warp();
  access.lane = witness.lane();
  access.step = witness.step();
  access.valueKnown = valueKnown;
  access.value = value;
  return access;
}

bool sameOrAdjacent(uint32_t prior, uint32_t now) { return prior == now || prior + 1 == now; }

constexpr unsigned kTwinStepBits = 30, kTwinThreadA = 30, kTwinThreadB = 40, kTwinMaskB = 50,
                   kTwinKnownB = 58;
static_assert(kTwinStepBits == kTwinThreadA && kTwinThreadA + kThreadBits == kTwinThreadB &&
                  kTwinThreadB + kThreadBits == kTwinMaskB && kTwinMaskB + 8 == kTwinKnownB &&
                  kTwinKnownB + 1 == kValueKnownBit,
              "a twin's fields fill its word");

uint64_t singleStep(const GroupCell &cell) {
  return (cell.packed >> kThreadBits) & lowBits(kCellStepBits);
}

// Whether `access`, on `mask`, can join the single `cell` as its twin.
bool canTwin(const GroupCell &cell, const Access &access, ByteMask mask) {
  return cell.state() == GroupCell::State::Single && cell.instruction == access.instruction &&
         cell.action() == access.action && (cell.bytes() & mask) == 0 &&
         cell.block == access.block &&
         (cell.visitAndBytes & lowBits(kVisitBits)) == access.visitOrder &&
         singleStep(cell) == access.step && access.step <= lowBits(kTwinStepBits) &&
         cell.value <= lowBits(32) && (!access.valueKnown || access.value <= lowBits(32));
}

// The single `a` and `b`'s access on `maskB` as one twin.
GroupCell twinOf(const GroupCell &a, const Access &b, ByteMask maskB) {
  GroupCell twin = a;
  twin.packed = cellTag(GroupCell::State::Twin, b.action) |
                (a.packed & uint64_t(1) << kValueKnownBit) |
                uint64_t(b.valueKnown) << kTwinKnownB | uint64_t(maskB) << kTwinMaskB |
                uint64_t(b.thread) << kTwinThreadB |
                (a.packed & lowBits(kThreadBits)) << kTwinThreadA | b.step;
  twin.value = a.value | (b.valueKnown ? b.value : 0) << 32;
  return twin;
}

// Half 0 (A) or 1 (B) of a twin as the single it stands for, `next` included.
GroupCell halfOf(const GroupCell &twin, unsigned half) {
  const uint64_t packed = twin.packed;
  ByteMask mask = half ? ByteMask(packed >> kTwinMaskB) : twin.bytes();
  uint64_t thread = packed >> (half ? kTwinThreadB : kTwinThreadA) & lowBits(kThreadBits);
  uint64_t known = packed >> (half ? kTwinKnownB : kValueKnownBit) & 1;
  GroupCell single = twin;
  single.visitAndBytes = uint32_t(mask) << kVisitBits | (twin.visitAndBytes & lowBits(kVisitBits));
  single.packed = cellTag(GroupCell::State::Single, twin.action()) | known << kValueKnownBit |
                  (packed & lowBits(kTwinStepBits)) << kThreadBits | thread;
  single.value = half ? twin.value >> 32 : twin.value & lowBits(32);
  return single;
}

// The single access a cell holds, as the Access it was recorded from (as far
// as a WitnessGroup reads one).
Access singleAccess(const GroupCell &cell) {
  Access access;
  access.action = cell.action();
  access.block = cell.block;
  access.visitOrder = cell.visitAndBytes & lowBits(kVisitBits);
  access.thread = uint32_t(cell.packed & lowBits(kThreadBits));
  access.warp = access.thread / interp::kWarpSize;
  access.lane = access.thread % interp::kWarpSize;
  access.step = singleStep(cell);
  access.instruction = cell.instruction;
  access.valueKnown = cell.packed >> kValueKnownBit & 1;
  access.value = cell.value;
  return access;
}

} // namespace

void WitnessGroup::showTo(const GroupIdentity &identity, const Access &access,
                          const GranuleKey &key, PriorAccessVisitor &visitor) const {
  auto show = [&](Witness witness, uint32_t fromBlock, uint32_t visitOrder,
                  const UniformValue &stored) {
    if (!witness.empty())
      visitor.visit(
          unpack(identity, key, witness, fromBlock, visitOrder, stored.known(), stored.value));
  };
  if (block != access.block) {
    // Accesses of other blocks differ in nothing the rules read.
    show(current.latestWarp[0], block, current.visitOrder, current.stored);
    return;
  }
  if (otherBlock != kNoBlock && otherBlock != access.block)
    show(otherBlockWitness, otherBlock, otherBlockVisit, otherBlockStored);
  for (const VisitWitnesses *visit : {&current, &previous}) {
    if (visit->empty() || !sameOrAdjacent(visit->visitOrder, access.visitOrder))
      continue;
    for (Witness witness : visit->latestWarp)
      show(witness, block, visit->visitOrder, visit->stored);
    show(visit->otherWarp, block, visit->visitOrder, visit->stored);
  }
}

namespace {

// A single shows what a WitnessGroup holding its one access would.
void showSingle(const GroupCell &cell, const Access &access, const GranuleKey &key,
                PriorAccessVisitor &visitor) {
  Access prior = singleAccess(cell);
  if (prior.block == access.block && !sameOrAdjacent(prior.visitOrder, access.visitOrder))
    return;
  locate(prior, cell.identity(), key);
  visitor.visit(prior);
}

} // namespace

void ShadowSummary::keep(Region &region, GroupCell &cell, const Access &access, ByteMask mask) {
  if (cell.state() == GroupCell::State::Empty) {
    cell.instruction = access.instruction;
    ++groupCount_;
    if (fitsSingle(access)) {
      cell.block = access.block;
      cell.visitAndBytes = uint32_t(mask) << kVisitBits | access.visitOrder;
      cell.packed = cellTag(GroupCell::State::Single, access.action) |
                    uint64_t(access.valueKnown) << kValueKnownBit |
                    access.step << kThreadBits | access.thread;
      cell.value = access.valueKnown ? access.value : 0;
      return;
    }
    cell.visitAndBytes = uint32_t(mask) << kVisitBits;
  }
  if (cell.state() != GroupCell::State::Pooled) {
    // The group's second access (or one too large for a single): its
    // witnesses move to the pool, the single's first.
    SIMULEE_ASSERT(region.pooledCount < UINT32_MAX, "witness group pool overflow");
    uint32_t index = region.pooledCount++;
    WitnessGroup &group = region.pooled.at(index);
    if (cell.state() == GroupCell::State::Single)
      group.add(singleAccess(cell));
    cell.block = 0;
    cell.visitAndBytes &= ~uint32_t(lowBits(kVisitBits));
    cell.packed = cellTag(GroupCell::State::Pooled, access.action) | index;
    cell.value = 0;
    ++pooledCount_;
  }
  if (!region.pooled.existing(uint32_t(cell.packed)).add(access))
    ++droppedWitnesses_;
}

uint32_t ShadowSummary::newChainedCell(Region &region) {
  SIMULEE_ASSERT(region.moreCount < UINT32_MAX, "group cell overflow");
  ++chainedCount_;
  return region.moreCount++;
}

GroupCell &ShadowSummary::split(Region &region, GroupCell &twin) {
  uint32_t index = newChainedCell(region);
  GroupCell &second = region.moreCells.at(index);
  second = halfOf(twin, 1);
  twin = halfOf(twin, 0);
  twin.next = index + 1;
  return second;
}

// Shows every group overlapping `mask` (in creation order, so the first
// example pair of each kind is the full log's), then keeps the access in its
// group, creating it at the chain's end (or as the twin of the last cell).
void ShadowSummary::recordInGranule(Region &region, const GranuleKey &key, ByteMask mask,
                                    const Access &access, PriorAccessVisitor &visitor) {
  GroupCell &first = region.firstCell.at(key.index);
  if (first.state() == GroupCell::State::Empty) {
    ++granuleCount_;
    keep(region, first, access, mask);
    return;
  }
  auto show = [&](const GroupCell &cell) {
    GroupIdentity identity = cell.identity();
    if (!(identity.bytes & mask) || !actionsCanConflict(identity.action, access.action))
      return;
    if (cell.state() == GroupCell::State::Single)
      showSingle(cell, access, key, visitor);
    else
      region.pooled.existing(uint32_t(cell.packed)).showTo(identity, access, key, visitor);
  };
  GroupCell *matching = nullptr, *last = nullptr, *matchingTwin = nullptr;
  unsigned matchingHalf = 0;
  for (GroupCell *cell = &first; cell;
       cell = cell->next ? &region.moreCells.existing(cell->next - 1) : nullptr) {
    if (cell->state() == GroupCell::State::Twin) {
      for (unsigned half : {0u, 1u}) {
        GroupCell single = halfOf(*cell, half);
        show(single);
        if (single.matches(access, mask))
          matchingTwin = cell, matchingHalf = half;
      }
    } else {
      show(*cell);
      if (cell->matches(access, mask))
        matching = cell;
    }
    last = cell;
  }
  if (matchingTwin) {
    GroupCell &second = split(region, *matchingTwin);
    matching = matchingHalf ? &second : matchingTwin;
  } else if (!matching) {
    if (canTwin(*last, access, mask)) {
      *last = twinOf(*last, access, mask);
      ++groupCount_;
      return;
    }
    uint32_t index = newChainedCell(region);
    matching = &region.moreCells.at(index);
    last->next = index + 1;
  }
  keep(region, *matching, access, mask);
}

void ShadowSummary::record(const Access &access, PriorAccessVisitor &visitor) {
  Region &region = regions_.find({access.space, access.buffer, scopeOf(access.space, access.block)});
  forEachGranule(access, [&](const GranuleKey &key, ByteMask mask) {
    recordInGranule(region, key, mask, access, visitor);
  });
}

} // namespace simulee::memmodel
