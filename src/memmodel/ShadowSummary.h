// The compact representation of the model (ThreadSanitizer-style shadow): per
// 8-byte granule, one group per distinct (instruction, action, byte mask)
// that touched it, keeping just the earlier accesses the rules of DESIGN.md
// can still tell apart: a 32-byte GroupCell while the group has seen one
// access, a pooled WitnessGroup from its second. Memory per address is
// bounded by the number of instructions touching it, never by the number of
// threads; a word each thread touches once costs 16 bytes (a twin cell).
// Which verdicts are exact, and the one approximation, are in
// ShadowSummary.cpp next to the retention code.
#pragma once

#include "memmodel/AccessStore.h"
#include "memmodel/Granule.h"
#include "memmodel/PagedArray.h"
#include "memmodel/RegionTable.h"

#include <array>
#include <cstdint>
#include <vector>

namespace simulee::memmodel {

// One earlier access of a group, packed into one word: the thread of the
// group's block and its lockstep step. Layout next to of() in
// ShadowSummary.cpp.
struct Witness {
  uint64_t word = 0; // 0 = no witness

  static Witness of(uint32_t thread, uint64_t step);
  bool empty() const { return word == 0; }
  uint32_t thread() const;
  uint32_t warp() const { return thread() / interp::kWarpSize; }
  unsigned lane() const { return thread() % interp::kWarpSize; }
  uint64_t step() const;
};

// Lanes of one warp remembered per visit order and group (newest first).
constexpr unsigned kLaneWitnesses = 3;

// The value every store of some accesses wrote, while they all wrote one
// (same-value races): the witnesses of those accesses carry it only then.
struct UniformValue {
  uint64_t value = 0;
  enum class State : uint8_t { None, Uniform, Mixed } state = State::None;

  void add(const Access &access);
  bool known() const { return state == State::Uniform; }
};

// The accesses of a group in one visit order of its block.
struct VisitWitnesses {
  uint32_t visitOrder = 0;
  // What this visit order's accesses stored: a group's stores in a loop
  // write a new value each iteration, one per barrier interval.
  UniformValue stored;
  // Distinct threads of the warp that accessed last, newest first.
  std::array<Witness, kLaneWitnesses> latestWarp{};
  // The newest access by a warp other than latestWarp's, if any.
  Witness otherWarp;

  bool empty() const { return latestWarp[0].empty(); }
  // Keeps `access` (of this visit order); false when it had to drop a
  // witness that no retained one stands for.
  bool add(const Access &access);
};

// What identifies a group: its instruction, action and byte mask.
struct GroupIdentity {
  uint32_t instruction = 0;
  interp::AccessKind action = interp::AccessKind::Read;
  ByteMask bytes = 0;
};

// Every access of one group to one granule, as far as the rules can still
// use it: the pooled form of a group, from its second access on.
struct WitnessGroup {
  static constexpr uint32_t kNoBlock = ~0u;

  uint32_t block = 0; // the block of `current` and `previous`
  // A block other than `block` that made this access too (global memory).
  uint32_t otherBlock = kNoBlock;
  uint32_t otherBlockVisit = 0; // otherBlockWitness's visit order
  Witness otherBlockWitness;
  UniformValue otherBlockStored;    // what otherBlockWitness's visit order stored
  VisitWitnesses current, previous; // previous: visit order current - 1

  // Keeps `access`; false when a witness was dropped (see VisitWitnesses).
  bool add(const Access &access);
  // Shows the visitor every retained witness `access` can be related to.
  void showTo(const GroupIdentity &identity, const Access &access, const GranuleKey &key,
              PriorAccessVisitor &visitor) const;
};

// One group in a granule's chain, 32 bytes; the first group of a granule
// sits in the granule's own slot. A group one access has made so far holds
// that access whole (single); from its second access on, its witnesses live
// in a pooled WitnessGroup. Most granules of a large launch see one access
// per group, so most never need the pool. Two singles of one instruction,
// block, visit order and step on disjoint bytes of at most 4 each (two
// threads of a warp storing neighbouring words) share one cell (a twin),
// so a word each thread touches once costs 16 bytes. Bit layout next to
// GroupCell's accessors in ShadowSummary.cpp.
struct GroupCell {
  uint32_t instruction = 0;
  uint32_t block = 0;          // single: its access's block
  uint32_t visitAndBytes = 0;  // single: visit order (24 bits); the byte mask (8)
  uint32_t next = 0;           // the granule's next cell (overflow index + 1), 0 = last
  uint64_t packed = 0;         // state, action; single: value known, step, thread; pooled: index
  uint64_t value = 0;          // single: the value it stored, if known

  enum class State : uint8_t { Empty, Single, Pooled, Twin };
  // The layout (ShadowSummary.cpp): visit order bits of visitAndBytes, and
  // where the state, action and value-known bit sit in `packed`.
  static constexpr unsigned kVisitBits = 24;
  static constexpr unsigned kStateShift = 62, kActionShift = 60, kValueKnownBit = 59;

  State state() const { return State(packed >> kStateShift); }
  interp::AccessKind action() const { return interp::AccessKind(packed >> kActionShift & 3); }
  ByteMask bytes() const { return ByteMask(visitAndBytes >> kVisitBits); }
  GroupIdentity identity() const { return {instruction, action(), bytes()}; }
  bool matches(const Access &access, ByteMask mask) const {
    return instruction == access.instruction && bytes() == mask && action() == access.action;
  }
};
static_assert(sizeof(GroupCell) == 32, "a group cell is 32 bytes");

class ShadowSummary final : public AccessStore {
public:
  void record(const Access &access, PriorAccessVisitor &visitor) override;
  void endBlock(uint32_t block) override { regions_.releaseScope(block); }
  void forgetAll() override { regions_.releaseAll(); }
  uint64_t granuleCount() const override { return granuleCount_; }

  // Size figures for measurements and tests.
  uint64_t groupCount() const { return groupCount_; }
  // Groups that saw a second access and moved to the pool.
  uint64_t pooledGroupCount() const { return pooledCount_; }
  // Group cells in use: one per granule touched, plus one per further group
  // in a chain that is not its predecessor's twin.
  uint64_t cellCount() const { return granuleCount_ + chainedCount_; }
  // Accesses whose storing dropped a witness no retained one stands for; 0
  // means every verdict so far is exactly the full log's (see the .cpp).
  uint64_t droppedWitnesses() const { return droppedWitnesses_; }

private:
  // One buffer's groups: per granule its first cell, the further cells of
  // every chain, and the pooled groups; all paged, so nothing is copied as
  // they grow and memory follows what was touched.
  struct Region {
    PagedArray<GroupCell, 7> firstCell;
    PagedArray<GroupCell, 9> moreCells;
    PagedArray<WitnessGroup, 6> pooled;
    uint32_t moreCount = 0, pooledCount = 0;

    void reset() {
      firstCell.reset();
      moreCells.reset();
      pooled.reset();
      moreCount = pooledCount = 0;
    }
    uint64_t retainedBytes() const {
      return firstCell.retainedBytes() + moreCells.retainedBytes() + pooled.retainedBytes();
    }
  };

  void recordInGranule(Region &region, const GranuleKey &key, ByteMask mask, const Access &access,
                       PriorAccessVisitor &visitor);
  // The index in moreCells of a new cell for a chain (`next` holds it + 1).
  uint32_t newChainedCell(Region &region);
  // Splits a twin into its two singles, the second right after the first
  // in the chain (where it was created); returns the second.
  GroupCell &split(Region &region, GroupCell &twin);
  // Keeps `access` in `cell`, a group it belongs to (or an empty cell).
  void keep(Region &region, GroupCell &cell, const Access &access, ByteMask mask);

  RegionTable<Region> regions_;
  uint64_t granuleCount_ = 0; // granules ever touched, released ones included
  uint64_t groupCount_ = 0;
  uint64_t pooledCount_ = 0;
  uint64_t chainedCount_ = 0;
  uint64_t droppedWitnesses_ = 0;
};

} // namespace simulee::memmodel
