// The compact representation of the model (ThreadSanitizer-style shadow): per
// 8-byte granule, one fixed-size WitnessGroup per distinct (instruction,
// action, byte mask) that touched it, keeping just the earlier accesses the
// rules of DESIGN.md can still tell apart. Memory per address is bounded by
// the number of instructions touching it, never by the number of threads.
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

// The accesses of a group in one visit order of its block.
struct VisitWitnesses {
  uint32_t visitOrder = 0;
  // Distinct threads of the warp that accessed last, newest first.
  std::array<Witness, kLaneWitnesses> latestWarp{};
  // The newest access by a warp other than latestWarp's, if any.
  Witness otherWarp;

  bool empty() const { return latestWarp[0].empty(); }
  // Keeps `access` (of this visit order); false when it had to drop a
  // witness that no retained one stands for.
  bool add(const Access &access);
};

// Every access of one (instruction, action, byte mask) to one granule, as
// far as the rules can still use it.
struct WitnessGroup {
  static constexpr uint32_t kNoBlock = ~0u;

  uint32_t instruction = 0;
  interp::AccessKind action = interp::AccessKind::Read;
  ByteMask bytes = 0;
  uint32_t block = 0; // the block of `current` and `previous`
  // A block other than `block` that made this access too (global memory).
  uint32_t otherBlock = kNoBlock;
  // The granule's next group (its index in the region's pool + 1), 0 = last:
  // a granule's groups form a chain in creation order.
  uint32_t next = 0;
  uint32_t otherBlockVisit = 0; // otherBlockWitness's visit order
  Witness otherBlockWitness;
  VisitWitnesses current, previous; // previous: visit order current - 1
  // The value every store of the group wrote, while they all wrote one
  // (same-value races); witnesses carry it only then.
  uint64_t value = 0;
  enum class Values : uint8_t { None, Uniform, Mixed } values = Values::None;

  bool matches(const Access &access, ByteMask mask) const {
    return instruction == access.instruction && action == access.action && bytes == mask;
  }
  // Keeps `access`; false when a witness was dropped (see VisitWitnesses).
  bool add(const Access &access);
  // Shows the visitor every retained witness `access` can be related to.
  void showTo(const Access &access, const GranuleKey &key, PriorAccessVisitor &visitor) const;
};

class ShadowSummary final : public AccessStore {
public:
  void record(const Access &access, PriorAccessVisitor &visitor) override;
  void endBlock(uint32_t block) override { regions_.releaseScope(block); }
  uint64_t granuleCount() const override { return granuleCount_; }

  // Size figures for measurements and tests.
  uint64_t groupCount() const { return groupCount_; }
  // Accesses whose storing dropped a witness no retained one stands for; 0
  // means every verdict so far is exactly the full log's (see the .cpp).
  uint64_t droppedWitnesses() const { return droppedWitnesses_; }

private:
  // One buffer's groups: a pool, and per granule the head of its chain
  // (pool index + 1, 0 = untouched).
  struct Region {
    PagedArray<uint32_t, 9> firstGroup;
    std::vector<WitnessGroup> groups;

    void reset() {
      firstGroup.reset();
      groups.clear();
    }
    uint64_t retainedBytes() const {
      return firstGroup.retainedBytes() + groups.capacity() * sizeof(WitnessGroup);
    }
  };

  void recordInGranule(Region &region, const GranuleKey &key, ByteMask mask, const Access &access,
                       PriorAccessVisitor &visitor);

  RegionTable<Region> regions_;
  uint64_t granuleCount_ = 0; // granules ever touched, released ones included
  uint64_t groupCount_ = 0;
  uint64_t droppedWitnesses_ = 0;
};

} // namespace simulee::memmodel
