// Test helper: feeds hand-written event sequences to a listener, deriving
// warp and lane from the thread id, so tests read like the scenario.
#pragma once

#include "interp/Events.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace simulee::testing {

class SyntheticRun {
public:
  explicit SyntheticRun(interp::ExecutionListener &listener) : listener_(listener) {}
  ~SyntheticRun() { finish(); }

  // Ends the current block (if any) and begins `block`.
  SyntheticRun &block(uint32_t block) {
    finish();
    current_ = block;
    listener_.onBlockBegin(block);
    return *this;
  }
  // Accesses after this go to `space`, buffer `buffer`.
  SyntheticRun &in(interp::MemSpace space, uint32_t buffer = 0) {
    space_ = space;
    buffer_ = buffer;
    return *this;
  }
  SyntheticRun &mask(uint32_t warp, uint64_t step, interp::LaneMask active) {
    listener_.onMaskChange({current_.value_or(0), warp, step, active});
    return *this;
  }
  SyntheticRun &read(uint32_t thread, uint64_t step, uint32_t instr, uint64_t offset = 0,
                     uint32_t size = 4) {
    return access(interp::AccessKind::Read, thread, step, instr, offset, size);
  }
  SyntheticRun &write(uint32_t thread, uint64_t step, uint32_t instr, uint64_t offset = 0,
                      uint32_t size = 4) {
    return access(interp::AccessKind::Write, thread, step, instr, offset, size);
  }
  // A store of `value` (known to listeners, as the interpreter's plain stores are).
  SyntheticRun &store(uint32_t thread, uint64_t step, uint32_t instr, uint64_t offset,
                      uint64_t value, uint32_t size = 4) {
    storedValue_ = value;
    hasStoredValue_ = true;
    access(interp::AccessKind::Write, thread, step, instr, offset, size);
    hasStoredValue_ = false;
    return *this;
  }
  SyntheticRun &atomic(uint32_t thread, uint64_t step, uint32_t instr, uint64_t offset = 0,
                       uint32_t size = 4) {
    return access(interp::AccessKind::Atomic, thread, step, instr, offset, size);
  }
  SyntheticRun &access(interp::AccessKind kind, uint32_t thread, uint64_t step, uint32_t instr,
                       uint64_t offset, uint32_t size) {
    interp::AccessEvent event{space_,
                              kind,
                              buffer_,
                              offset,
                              size,
                              current_.value_or(0),
                              thread,
                              thread / interp::kWarpSize,
                              thread % interp::kWarpSize,
                              step,
                              instr};
    event.value = storedValue_;
    event.valueKnown = hasStoredValue_;
    listener_.onAccess(event);
    return *this;
  }
  SyntheticRun &barrier(uint32_t epoch, std::vector<uint32_t> instrs) {
    listener_.onBarrierRelease({current_.value_or(0), epoch, std::move(instrs)});
    return *this;
  }
  SyntheticRun &warpSync(uint32_t warp, uint64_t step, interp::LaneMask mask) {
    listener_.onWarpSync({current_.value_or(0), warp, step, mask});
    return *this;
  }
  void finish() {
    if (current_)
      listener_.onBlockEnd(*current_);
    current_.reset();
  }

private:
  interp::ExecutionListener &listener_;
  std::optional<uint32_t> current_;
  interp::MemSpace space_ = interp::MemSpace::Global;
  uint32_t buffer_ = 0;
  uint64_t storedValue_ = 0;
  bool hasStoredValue_ = false;
};

constexpr interp::LaneMask kAllLanes = 0xFFFFFFFFu;
constexpr interp::LaneMask lanes(std::initializer_list<unsigned> list) {
  interp::LaneMask mask = 0;
  for (unsigned lane : list)
    mask |= interp::LaneMask(1) << lane;
  return mask;
}

} // namespace simulee::testing
