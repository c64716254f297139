// Representative blocks (after GKLEE_p's parametric flows; issue 18,
// DESIGN.md "Representative blocks"): a listener in front of a MemoryModel
// that models the shared memory of one block per class of equivalent
// blocks, and every block's global memory.
//
// A block's shared-memory behaviour is its stream of shared accesses
// (instruction, kind, variable, offset, size, thread, step, and the stored
// value up to renaming: the n-th distinct value the block stores at an
// address is value n there), interleaved with its barrier, mask, warp-sync,
// named-barrier, fence and printf events, all relative to the block. Two
// blocks with equal streams produce the same shared-memory pairs, barrier
// crossings and uninitialized reads, with the same ordering facts and
// same-value answers: the later block adds
// nothing the model keeps (pairs are kept once per distinct facts, first
// seen first). So each block's events are buffered until it ends; if its
// stream equals an earlier block's (a 128-bit hash of it), its shared
// accesses reach the model as unkept (MemoryModel::onUnkeptAccess: counted,
// barrier evidence and fitness figures as before), and everything else as
// usual. Global memory, whose conflicts cross blocks, is always modelled.
//
// Blocks too large to buffer (more than `maxBufferedAccesses` accesses) are
// modelled in full as they run; so is the rest of a launch once its first
// blocks held no duplicate worth dropping.
#pragma once

#include "interp/Events.h"
#include "memmodel/MemoryModel.h"
#include "memmodel/ValueNames.h"

#include <bit>
#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace simulee::memmodel {

class RepresentativeBlocks final : public interp::ExecutionListener {
public:
  explicit RepresentativeBlocks(MemoryModel &model, uint64_t maxBufferedAccesses = 1u << 19);

  bool wantsAccesses() const override { return model_.wantsAccesses(); }
  void onBlockBegin(uint32_t block) override;
  void onBlockEnd(uint32_t block) override;
  void onAccess(const interp::AccessEvent &event) override;
  void onMaskChange(const interp::MaskChangeEvent &event) override;
  void onBarrierRelease(const interp::BarrierReleaseEvent &event) override;
  void onBarrierArrive(const interp::BarrierArriveEvent &event) override;
  void onBarrierDivergence(const interp::BarrierDivergenceEvent &event) override;
  void onWarpSync(const interp::WarpSyncEvent &event) override;
  void onFence(const interp::FenceEvent &event) override;
  void onNamedBarrierArrive(const interp::NamedBarrierArriveEvent &event) override;
  void onNamedBarrierRelease(const interp::NamedBarrierReleaseEvent &event) override;
  void onOutOfBounds(const interp::OutOfBoundsEvent &event) override;
  void onUndefinedBehavior(const interp::UndefinedBehaviorEvent &event) override;
  void onOutput(const interp::OutputEvent &event) override;
  void onClockRead(const interp::ClockReadEvent &event) override;
  // It stops the launch, so the block's buffered events never reach the
  // model: it goes there at once.
  void onAssertionFailed(const interp::AssertionEvent &event) override {
    model_.onAssertionFailed(event);
  }

  // Passes on what is still buffered (a launch that stopped inside a block
  // never ends it), in full.
  void finish();

  // Blocks run, and those whose shared memory was modelled (the rest
  // repeated an earlier block's).
  uint64_t blocks() const { return blocks_; }
  uint64_t modelledBlocks() const { return blocks_ - duplicates_; }

private:
  using Other =
      std::variant<interp::MaskChangeEvent, interp::BarrierReleaseEvent, interp::BarrierArriveEvent,
                   interp::BarrierDivergenceEvent, interp::WarpSyncEvent, interp::FenceEvent,
                   interp::NamedBarrierArriveEvent, interp::NamedBarrierReleaseEvent,
                   interp::OutOfBoundsEvent, interp::UndefinedBehaviorEvent, interp::OutputEvent,
                   interp::ClockReadEvent>;

  template <class Event> void other(const Event &event);
  void deliver(const Other &event);
  template <class Event> void deliver(const Event &event);
  uint64_t valueName(const interp::AccessEvent &event);
  void mix(uint64_t word) {
    hash_.first = (hash_.first ^ word) * 0x9E3779B97F4A7C15ull;
    hash_.first ^= hash_.first >> 29;
    hash_.second = std::rotl((hash_.second + word) * 0xC2B2AE3D27D4EB4Full, 31);
  }
  void replay(bool duplicate);
  void goLive();

  MemoryModel &model_;
  uint64_t maxBufferedAccesses_;
  bool live_ = false;      // passing events straight on (this block or the launch)
  bool launchLive_ = false;
  uint32_t currentBlock_ = 0;
  // An access of the current block, in 40 bytes instead of an event's 72
  // (the block is the current one, warp and lane follow from the thread):
  // the buffer's traffic is most of what buffering costs.
  struct Buffered {
    uint64_t offset, step, value;
    uint32_t instruction, buffer;
    uint16_t thread, sizeBytes;
    // Space and kind apart: read together from an event whose producer
    // stored them one byte each, they would wait for both stores.
    interp::MemSpace space;
    bool valueKnown;
    interp::AccessKind kind;
    uint8_t count; // AccessEvent::count: at most a warp's lanes
  };
  interp::AccessEvent eventOf(const Buffered &access) const;

  // The current block's events: accesses in order, the others with the
  // number of accesses before them.
  std::vector<Buffered> accesses_;
  std::vector<std::pair<uint64_t, Other>> others_;
  uint64_t sharedAccesses_ = 0;
  std::pair<uint64_t, uint64_t> hash_{};
  // The distinct values stored at each (variable, size, offset), in order.
  ValueNames valueNames_;
  std::set<std::pair<uint64_t, uint64_t>> seen_;      // hashes of modelled blocks
  uint64_t blocks_ = 0, duplicates_ = 0;
};

} // namespace simulee::memmodel
