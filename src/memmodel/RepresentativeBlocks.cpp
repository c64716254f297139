#include "memmodel/RepresentativeBlocks.h"

#include <bit>
#include <type_traits>

namespace simulee::memmodel {

namespace {

// After this many blocks without one repeating an earlier block's shared
// memory, the launch's blocks are told apart by their index (or use no
// shared memory): buffering the rest would cost and save nothing.
constexpr uint64_t kBlocksToFindARepeat = 8;

// Distinguishes the kinds of event in the hashed stream.
enum Tag : uint64_t {
  kAccessTag = 1,
  kMaskTag,
  kReleaseTag,
  kArriveTag,
  kDivergenceTag,
  kWarpSyncTag,
  kFenceTag,
  kNamedArriveTag,
  kNamedReleaseTag,
  kOutOfBoundsTag,
  kUndefinedTag,
  kOutputTag,
  kClockTag
};

} // namespace

RepresentativeBlocks::RepresentativeBlocks(MemoryModel &model, uint64_t maxBufferedAccesses)
    : model_(model), maxBufferedAccesses_(maxBufferedAccesses) {}

void RepresentativeBlocks::onBlockBegin(uint32_t block) {
  ++blocks_;
  currentBlock_ = block;
  live_ = launchLive_;
  if (live_) {
    model_.onBlockBegin(block);
    return;
  }
  accesses_.clear();
  others_.clear();
  sharedAccesses_ = 0;
  hash_ = {0x243F6A8885A308D3ull, 0x13198A2E03707344ull};
  valueNames_.clear();
}

void RepresentativeBlocks::onAccess(const interp::AccessEvent &event) {
  if (live_) {
    model_.onAccess(event);
    return;
  }
  // Fields past these widths would not fit the buffer (thread, size) or the
  // packed words of a shared access below: no CUDA block or shared variable
  // has them; exact anyway. Global memory's buffer ids and offsets are wide
  // (a program's allocations under exec start at ir::kFirstBoundBuffer).
  const bool shared = event.space == interp::MemSpace::Shared;
  if (event.thread > 0xffff || event.sizeBytes > 0xffff || event.count > interp::kWarpSize ||
      (shared && (event.buffer > 0xffff || event.offset > 0xffffffff))) {
    goLive();
    model_.onAccess(event);
    return;
  }
  accesses_.push_back(Buffered{event.offset, event.step, event.value, event.instruction,
                               event.buffer, uint16_t(event.thread), uint16_t(event.sizeBytes),
                               event.space, event.valueKnown, event.kind, uint8_t(event.count)});
  if (shared) {
    ++sharedAccesses_;
    // Each record starts with its tag in the low byte, and its fields do not
    // overlap, so that unequal streams are unequal word sequences.
    mix(kAccessTag | uint64_t(event.thread) << 8 | uint64_t(event.kind) << 24 |
        uint64_t(event.valueKnown) << 26 | uint64_t(event.buffer) << 32 |
        uint64_t(event.sizeBytes) << 48);
    mix(uint64_t(event.instruction) << 32 | event.offset);
    mix(event.step);
    if (event.kind == interp::AccessKind::Write && event.valueKnown)
      mix(valueName(event));
  }
  if (accesses_.size() >= maxBufferedAccesses_)
    goLive();
}

// A stored value as the model can tell it apart: it compares only writes of
// one size at one address (writesSameValue), so the value is named by where
// it first appears among the distinct values written there in this block.
// Equal values get equal names, unequal ones unequal names, whatever the
// data. An address written with too many distinct values names them by
// themselves.
uint64_t RepresentativeBlocks::valueName(const interp::AccessEvent &event) {
  return valueNames_.name(
      uint64_t(event.buffer) << 48 ^ uint64_t(event.sizeBytes) << 40 ^ event.offset, event.value);
}

// Too large a block to buffer: what it did so far, then the rest as it
// comes, all in full.
void RepresentativeBlocks::goLive() {
  replay(/*duplicate=*/false);
  live_ = true;
}

template <class Event> void RepresentativeBlocks::other(const Event &event) {
  if (live_) {
    deliver(event);
    return;
  }
  if constexpr (std::is_same_v<Event, interp::MaskChangeEvent>) {
    mix(kMaskTag);
    mix(uint64_t(event.warp) << 32 | event.active);
    mix(event.step);
  } else if constexpr (std::is_same_v<Event, interp::BarrierReleaseEvent>) {
    mix(kReleaseTag | uint64_t(event.barrierInstrs.size()) << 8 | uint64_t(event.epoch) << 32);
    for (uint32_t instr : event.barrierInstrs)
      mix(instr);
  } else if constexpr (std::is_same_v<Event, interp::BarrierArriveEvent>) {
    mix(kArriveTag | uint64_t(event.barrierInstr) << 32);
    mix(uint64_t(event.warp) << 32 | event.mask);
    mix(event.step);
  } else if constexpr (std::is_same_v<Event, interp::BarrierDivergenceEvent>) {
    mix(kDivergenceTag | uint64_t(event.cause) << 8 | uint64_t(event.warp) << 32);
    mix(uint64_t(event.barrierInstr) << 32 | event.otherInstr);
    mix(uint64_t(event.waitingThread) << 32 | event.otherThread);
  } else if constexpr (std::is_same_v<Event, interp::WarpSyncEvent> ||
                       std::is_same_v<Event, interp::FenceEvent>) {
    mix((std::is_same_v<Event, interp::FenceEvent> ? kFenceTag : kWarpSyncTag) |
        uint64_t(event.warp) << 32);
    mix(event.mask);
    mix(event.step);
  } else if constexpr (std::is_same_v<Event, interp::NamedBarrierArriveEvent>) {
    mix(kNamedArriveTag | uint64_t(event.waits) << 8 | uint64_t(event.barrierId) << 32);
    mix(uint64_t(event.warp) << 32 | event.barrierInstr);
    mix(event.step);
  } else if constexpr (std::is_same_v<Event, interp::NamedBarrierReleaseEvent>) {
    mix(kNamedReleaseTag | uint64_t(event.waiters.size()) << 8 |
        uint64_t(event.barrierId) << 32);
    for (uint32_t warp : event.waiters)
      mix(warp);
  } else if constexpr (std::is_same_v<Event, interp::OutOfBoundsEvent>) {
    const interp::AccessEvent &access = event.access;
    mix(kOutOfBoundsTag | uint64_t(access.space) << 8 | uint64_t(access.kind) << 16 |
        uint64_t(access.instruction) << 32);
    mix(uint64_t(access.thread) << 32 | access.buffer);
    mix(access.offset);
  } else if constexpr (std::is_same_v<Event, interp::OutputEvent>) {
    mix(kOutputTag | uint64_t(event.instruction) << 32);
    mix(event.thread);
  } else if constexpr (std::is_same_v<Event, interp::ClockReadEvent>) {
    mix(kClockTag | uint64_t(event.warp) << 32);
  } else {
    static_assert(std::is_same_v<Event, interp::UndefinedBehaviorEvent>);
    mix(kUndefinedTag | uint64_t(event.kind) << 8 | uint64_t(event.instruction) << 32);
    mix(uint64_t(event.thread) << 32 | event.width);
    mix(event.value);
  }
  others_.emplace_back(accesses_.size(), event);
}

void RepresentativeBlocks::deliver(const Other &event) {
  std::visit([&](const auto &one) { deliver(one); }, event);
}

template <class Event> void RepresentativeBlocks::deliver(const Event &e) {
  if constexpr (std::is_same_v<Event, interp::MaskChangeEvent>)
    model_.onMaskChange(e);
  else if constexpr (std::is_same_v<Event, interp::BarrierReleaseEvent>)
    model_.onBarrierRelease(e);
  else if constexpr (std::is_same_v<Event, interp::BarrierArriveEvent>)
    model_.onBarrierArrive(e);
  else if constexpr (std::is_same_v<Event, interp::BarrierDivergenceEvent>)
    model_.onBarrierDivergence(e);
  else if constexpr (std::is_same_v<Event, interp::WarpSyncEvent>)
    model_.onWarpSync(e);
  else if constexpr (std::is_same_v<Event, interp::FenceEvent>)
    model_.onFence(e);
  else if constexpr (std::is_same_v<Event, interp::NamedBarrierArriveEvent>)
    model_.onNamedBarrierArrive(e);
  else if constexpr (std::is_same_v<Event, interp::NamedBarrierReleaseEvent>)
    model_.onNamedBarrierRelease(e);
  else if constexpr (std::is_same_v<Event, interp::OutOfBoundsEvent>)
    model_.onOutOfBounds(e);
  else if constexpr (std::is_same_v<Event, interp::OutputEvent>)
    model_.onOutput(e);
  else if constexpr (std::is_same_v<Event, interp::ClockReadEvent>)
    model_.onClockRead(e);
  else
    model_.onUndefinedBehavior(e);
}

void RepresentativeBlocks::onMaskChange(const interp::MaskChangeEvent &e) { other(e); }
void RepresentativeBlocks::onBarrierRelease(const interp::BarrierReleaseEvent &e) { other(e); }
void RepresentativeBlocks::onBarrierArrive(const interp::BarrierArriveEvent &e) { other(e); }
void RepresentativeBlocks::onBarrierDivergence(const interp::BarrierDivergenceEvent &e) {
  other(e);
}
void RepresentativeBlocks::onWarpSync(const interp::WarpSyncEvent &e) { other(e); }
void RepresentativeBlocks::onFence(const interp::FenceEvent &e) { other(e); }
void RepresentativeBlocks::onOutput(const interp::OutputEvent &e) { other(e); }
void RepresentativeBlocks::onClockRead(const interp::ClockReadEvent &e) { other(e); }
void RepresentativeBlocks::onNamedBarrierArrive(const interp::NamedBarrierArriveEvent &e) {
  other(e);
}
void RepresentativeBlocks::onNamedBarrierRelease(const interp::NamedBarrierReleaseEvent &e) {
  other(e);
}
void RepresentativeBlocks::onOutOfBounds(const interp::OutOfBoundsEvent &e) { other(e); }
void RepresentativeBlocks::onUndefinedBehavior(const interp::UndefinedBehaviorEvent &e) {
  other(e);
}

interp::AccessEvent RepresentativeBlocks::eventOf(const Buffered &access) const {
  interp::AccessEvent event{access.space,
                            access.kind,
                            access.buffer,
                            access.offset,
                            access.sizeBytes,
                            currentBlock_,
                            access.thread,
                            access.thread / interp::kWarpSize,
                            access.thread % interp::kWarpSize,
                            access.step,
                            access.instruction,
                            access.count};
  event.value = access.value;
  event.valueKnown = access.valueKnown;
  return event;
}

// The buffered block to the model in its order; a duplicate's shared
// accesses unkept. With no fitness figures to feed, an unkept access tells
// the model only that its warp reached its variable: a run of them by one
// warp to one variable, with no other event between, goes as one.
void RepresentativeBlocks::replay(bool duplicate) {
  model_.onBlockBegin(currentBlock_);
  const bool runs = !model_.options().fitnessFigures;
  const Buffered *runStart = nullptr;
  uint32_t runLength = 0; // the accesses the run stands for
  auto endRun = [&] {
    if (!runStart)
      return;
    interp::AccessEvent run = eventOf(*runStart);
    run.count = runLength;
    model_.onUnkeptAccess(run);
    runStart = nullptr;
  };
  size_t next = 0;
  for (size_t i = 0; i < accesses_.size(); ++i) {
    if (next < others_.size() && others_[next].first == i) {
      endRun();
      for (; next < others_.size() && others_[next].first == i; ++next)
        deliver(others_[next].second);
    }
    const Buffered &buffered = accesses_[i];
    if (!duplicate || buffered.space != interp::MemSpace::Shared) {
      endRun();
      model_.onAccess(eventOf(buffered));
    } else if (!runs) {
      model_.onUnkeptAccess(eventOf(buffered));
    } else if (runStart && runStart->buffer == buffered.buffer &&
               runStart->thread / interp::kWarpSize == buffered.thread / interp::kWarpSize) {
      runLength += buffered.count;
    } else {
      endRun();
      runStart = &buffered;
      runLength = buffered.count;
    }
  }
  endRun();
  for (; next < others_.size(); ++next)
    deliver(others_[next].second);
  accesses_.clear();
  others_.clear();
}

void RepresentativeBlocks::onBlockEnd(uint32_t block) {
  if (!live_) {
    bool duplicate = sharedAccesses_ > 0 && !seen_.insert(hash_).second;
    duplicates_ += duplicate;
    replay(duplicate);
    if (duplicates_ == 0 && blocks_ >= kBlocksToFindARepeat)
      launchLive_ = true;
  }
  live_ = false;
  model_.onBlockEnd(block);
}

void RepresentativeBlocks::finish() {
  if (!live_ && (!accesses_.empty() || !others_.empty()))
    replay(/*duplicate=*/false);
  live_ = true;
}

} // namespace simulee::memmodel
