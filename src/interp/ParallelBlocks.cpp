#include "interp/ParallelBlocks.h"

#include <cstring>

namespace simulee::interp {

namespace {

// Slots looked at for one key before the table counts as full.
constexpr unsigned kMaxProbes = 64;

uint64_t slotHash(uint64_t key) {
  key ^= key >> 33;
  key *= 0xFF51AFD7ED558CCDull;
  key ^= key >> 33;
  return key;
}

} // namespace

GlobalClaims::GlobalClaims(unsigned capacityLog2)
    : capacityLog2_(capacityLog2), slots_(new Slot[size_t(1) << capacityLog2]),
      usedSlots_(new uint64_t[size_t(1) << (capacityLog2 - 1)]) {}

std::atomic<uint64_t> *GlobalClaims::stateOf(uint64_t key) {
  const uint64_t mask = (uint64_t(1) << capacityLog2_) - 1;
  uint64_t index = slotHash(key) & mask;
  for (unsigned probe = 0; probe < kMaxProbes; ++probe, index = (index + 1) & mask) {
    Slot &slot = slots_[index];
    uint64_t found = slot.key.load(std::memory_order_acquire);
    if (found == 0) {
      uint64_t place = used_.fetch_add(1, std::memory_order_relaxed);
      if (place >= (uint64_t(1) << (capacityLog2_ - 1)))
        return nullptr;
      if (slot.key.compare_exchange_strong(found, key, std::memory_order_acq_rel)) {
        usedSlots_[place] = index;
        return &slot.state;
      }
      // Another thread took the slot first (it clears the slot too; twice
      // is harmless), and `found` is its key.
      usedSlots_[place] = index;
    }
    if (found == key)
      return &slot.state;
  }
  return nullptr;
}

bool GlobalClaims::claimGranule(uint64_t granule, bool writes, uint32_t block) {
  std::atomic<uint64_t> *state = stateOf(granule + 1);
  if (!state) {
    full_.store(true, std::memory_order_relaxed);
    return false;
  }
  const uint64_t mine = uint64_t(block) << 32;
  uint64_t seen = state->load(std::memory_order_acquire);
  for (;;) {
    uint64_t kind = seen & 3;
    bool byMe = uint32_t(seen >> 32) == block;
    uint64_t next;
    if (kind == kWritten)
      return byMe;
    if (writes) {
      if (kind == kReadByMany || (kind == kReadByOne && !byMe))
        return false;
      next = mine | kWritten;
    } else {
      if (kind == kReadByMany || (kind == kReadByOne && byMe))
        return true;
      next = kind == kReadByOne ? kReadByMany : mine | kReadByOne;
    }
    if (state->compare_exchange_weak(seen, next, std::memory_order_acq_rel,
                                     std::memory_order_acquire))
      return true;
  }
}

bool GlobalClaims::claim(const uint8_t *bytes, uint64_t size, bool writes, uint32_t block) {
  if (size == 0)
    return true;
  uint64_t first = reinterpret_cast<uintptr_t>(bytes) >> 2;
  uint64_t last = (reinterpret_cast<uintptr_t>(bytes) + size - 1) >> 2;
  for (uint64_t granule = first; granule <= last; ++granule)
    if (!claimGranule(granule, writes, block))
      return false;
  return true;
}

void GlobalClaims::clear() {
  uint64_t used = std::min(used_.load(std::memory_order_relaxed),
                           uint64_t(1) << (capacityLog2_ - 1));
  for (uint64_t i = 0; i < used; ++i) {
    slots_[usedSlots_[i]].key.store(0, std::memory_order_relaxed);
    slots_[usedSlots_[i]].state.store(0, std::memory_order_relaxed);
  }
  used_.store(0, std::memory_order_relaxed);
  full_.store(false, std::memory_order_relaxed);
}

void UndoLog::save(uint8_t *bytes, uint64_t size) {
  Entry &entry = entries_.emplace_back(Entry{bytes, size, 0});
  if (size <= sizeof(entry.old)) {
    std::memcpy(&entry.old, bytes, size);
    return;
  }
  entry.old = saved_.size();
  saved_.insert(saved_.end(), bytes, bytes + size);
}

void UndoLog::undo() {
  for (auto entry = entries_.rbegin(); entry != entries_.rend(); ++entry)
    std::memcpy(entry->bytes,
                entry->size <= sizeof(entry->old)
                    ? reinterpret_cast<const uint8_t *>(&entry->old)
                    : saved_.data() + entry->old,
                entry->size);
  clear();
}

void UndoLog::clear() {
  entries_.clear();
  saved_.clear();
}

void BlockEvents::replay(ExecutionListener &listener) {
  size_t access = 0;
  auto accessesUpTo = [&](size_t end) {
    for (; access < end; ++access)
      listener.onAccess(accesses_[access]);
  };
  for (const auto &[before, event] : others_) {
    accessesUpTo(before);
    std::visit(
        [&](const auto &e) {
          using E = std::decay_t<decltype(e)>;
          if constexpr (std::is_same_v<E, BlockBegin>) listener.onBlockBegin(e.block);
          else if constexpr (std::is_same_v<E, BlockEnd>) listener.onBlockEnd(e.block);
          else if constexpr (std::is_same_v<E, MaskChangeEvent>) listener.onMaskChange(e);
          else if constexpr (std::is_same_v<E, BarrierReleaseEvent>) listener.onBarrierRelease(e);
          else if constexpr (std::is_same_v<E, BarrierArriveEvent>) listener.onBarrierArrive(e);
          else if constexpr (std::is_same_v<E, BarrierDivergenceEvent>) listener.onBarrierDivergence(e);
          else if constexpr (std::is_same_v<E, WarpSyncEvent>) listener.onWarpSync(e);
          else if constexpr (std::is_same_v<E, FenceEvent>) listener.onFence(e);
          else if constexpr (std::is_same_v<E, NamedBarrierArriveEvent>) listener.onNamedBarrierArrive(e);
          else if constexpr (std::is_same_v<E, NamedBarrierReleaseEvent>) listener.onNamedBarrierRelease(e);
          else if constexpr (std::is_same_v<E, OutOfBoundsEvent>) listener.onOutOfBounds(e);
          else if constexpr (std::is_same_v<E, AssertionEvent>) listener.onAssertionFailed(e);
          else if constexpr (std::is_same_v<E, OutputEvent>) listener.onOutput(e);
          else if constexpr (std::is_same_v<E, ClockReadEvent>) listener.onClockRead(e);
          else listener.onUndefinedBehavior(e);
        },
        event);
  }
  accessesUpTo(accesses_.size());
  clear();
}

void BlockEvents::clear() {
  accesses_.clear();
  others_.clear();
}

uint64_t BlockEvents::bytes() const {
  return accesses_.size() * sizeof(AccessEvent) + others_.size() * sizeof(others_[0]);
}

} // namespace simulee::interp
