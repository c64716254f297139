// Blocks of one launch on several cores (RunOptions::jobs), with the same
// memory contents and the same events, in the same order, as one core.
//
// Blocks run in chunks of consecutive blocks, the chunk's blocks at once on
// worker threads. Each block's events are recorded (BlockEvents) and passed
// to the listener in block order once the whole chunk is known to equal a
// sequential run: no block of the chunk read or wrote global memory another
// block of the same chunk wrote (GlobalClaims, checked before each access is
// performed), no block failed, and the chunk stayed within the launch's
// instruction budget. Blocks of earlier chunks ended before the chunk began,
// as they would have sequentially, so only blocks of one chunk are compared.
// A chunk that is not known so is undone (UndoLog: every global write saved
// its old bytes first) and run again block after block; so is the rest of a
// launch whose blocks keep communicating. Accesses no other thread's access
// can conflict with (interp::untrackedInstructions) claim nothing.
#pragma once

#include "interp/Events.h"
#include "interp/Launch.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace simulee::interp {

// Who touched each 4-byte granule of global memory during the running chunk,
// keyed by the host address of its bytes. Many threads claim at once; each
// claim is a compare-and-swap on one slot. Capacity is fixed: a full table
// refuses the claim, which voids the chunk like a conflict would.
class GlobalClaims {
public:
  explicit GlobalClaims(unsigned capacityLog2);
  // Claims bytes [bytes, bytes + size) for `block`; false when a block other
  // than `block` wrote one of its granules in this chunk, or (a write) read
  // one, or the table is full.
  bool claim(const uint8_t *bytes, uint64_t size, bool writes, uint32_t block);
  // Forgets every claim (between chunks: no thread claims then).
  void clear();
  bool full() const { return full_.load(std::memory_order_relaxed); }
  unsigned capacityLog2() const { return capacityLog2_; }

private:
  // A slot: `key` is the granule's address / 4 + 1 (0: empty slot); `state`
  // packs who touched it:
  //   bits 0-1   kNone, kReadByOne, kReadByMany or kWritten
  //   bits 32-63 the reading (kReadByOne) or writing (kWritten) block
  // A claimed key's state starts at 0 (kNone) and changes by compare-and-swap
  // only, so a thread that finds the key before its claimant set a state
  // sees kNone and competes like any other.
  enum : uint64_t { kNone = 0, kReadByOne = 1, kReadByMany = 2, kWritten = 3 };
  struct Slot {
    std::atomic<uint64_t> key{0};
    std::atomic<uint64_t> state{0};
  };
  bool claimGranule(uint64_t granule, bool writes, uint32_t block);
  std::atomic<uint64_t> *stateOf(uint64_t key);

  unsigned capacityLog2_;
  std::unique_ptr<Slot[]> slots_;
  std::atomic<bool> full_{false};
  // The slots claimed, to clear only those; at most half the table.
  std::atomic<uint64_t> used_{0};
  std::unique_ptr<uint64_t[]> usedSlots_;
};

// The old bytes of every global write of one worker in the running chunk, so
// that a chunk can be undone.
class UndoLog {
public:
  void save(uint8_t *bytes, uint64_t size);
  // Restores the saved bytes, latest first, and forgets them.
  void undo();
  void clear();

private:
  // The old bytes of a write of at most 8 in `old` itself, of a longer one
  // (memcpy, memset) in saved_ from offset `old` on.
  struct Entry {
    uint8_t *bytes;
    uint64_t size, old;
  };
  std::vector<Entry> entries_;
  std::vector<uint8_t> saved_;
};

// The events of one block, recorded by a worker and passed on later.
class BlockEvents final : public ExecutionListener {
public:
  void onBlockBegin(uint32_t block) override { other(BlockBegin{block}); }
  void onBlockEnd(uint32_t block) override { other(BlockEnd{block}); }
  void onAccess(const AccessEvent &event) override { accesses_.push_back(event); }
  void onMaskChange(const MaskChangeEvent &event) override { other(event); }
  void onBarrierRelease(const BarrierReleaseEvent &event) override { other(event); }
  void onBarrierArrive(const BarrierArriveEvent &event) override { other(event); }
  void onBarrierDivergence(const BarrierDivergenceEvent &event) override { other(event); }
  void onWarpSync(const WarpSyncEvent &event) override { other(event); }
  void onFence(const FenceEvent &event) override { other(event); }
  void onNamedBarrierArrive(const NamedBarrierArriveEvent &event) override { other(event); }
  void onNamedBarrierRelease(const NamedBarrierReleaseEvent &event) override { other(event); }
  void onOutOfBounds(const OutOfBoundsEvent &event) override { other(event); }
  void onAssertionFailed(const AssertionEvent &event) override { other(event); }
  void onUndefinedBehavior(const UndefinedBehaviorEvent &event) override { other(event); }
  void onOutput(const OutputEvent &event) override { other(event); }
  void onClockRead(const ClockReadEvent &event) override { other(event); }

  // Passes every event on in the order it came, and forgets them.
  void replay(ExecutionListener &listener);
  void clear();
  // Bytes the recorded events take (what a chunk may hold).
  uint64_t bytes() const;

private:
  struct BlockBegin {
    uint32_t block;
  };
  struct BlockEnd {
    uint32_t block;
  };
  using Other = std::variant<BlockBegin, BlockEnd, MaskChangeEvent, BarrierReleaseEvent,
                             BarrierArriveEvent, BarrierDivergenceEvent, WarpSyncEvent, FenceEvent,
                             NamedBarrierArriveEvent, NamedBarrierReleaseEvent, OutOfBoundsEvent,
                             AssertionEvent, UndefinedBehaviorEvent, OutputEvent, ClockReadEvent>;
  template <class Event> void other(const Event &event) {
    others_.emplace_back(accesses_.size(), Other(event));
  }

  std::vector<AccessEvent> accesses_;
  std::vector<std::pair<size_t, Other>> others_; // with the number of accesses before each
};

// The caller's external memory shared by worker threads: its lookups made one
// at a time (a launch that allocates from the heap never runs in parallel).
class SerializedExternalMemory final : public ExternalMemory {
public:
  explicit SerializedExternalMemory(ExternalMemory &inner) : inner_(inner) {}
  uint64_t allocate(uint64_t sizeBytes, uint32_t instruction) override {
    std::lock_guard lock(mutex_);
    return inner_.allocate(sizeBytes, instruction);
  }
  bool release(uint32_t buffer) override {
    std::lock_guard lock(mutex_);
    return inner_.release(buffer);
  }
  std::vector<uint8_t> *heapBuffer(uint32_t buffer) override {
    std::lock_guard lock(mutex_);
    return inner_.heapBuffer(buffer);
  }
  uint64_t fromProgramAddress(uint64_t address) override {
    std::lock_guard lock(mutex_);
    return inner_.fromProgramAddress(address);
  }

private:
  ExternalMemory &inner_;
  std::mutex mutex_;
};

} // namespace simulee::interp
