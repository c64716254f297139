#include "memmodel/ValueNames.h"

namespace simulee::memmodel {

namespace {

uint64_t slotHash(uint64_t address, uint64_t value, bool count) {
  uint64_t h = (address ^ (value * 0x9E3779B97F4A7C15ull) ^ (count ? 0x5bd1e995ull : 0)) *
               0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

} // namespace

// The slot of (address, value, count), or the empty slot where it belongs.
ValueNames::Slot *ValueNames::find(uint64_t address, uint64_t value, bool count) {
  const uint64_t mask = slots_.size() - 1;
  for (uint64_t i = slotHash(address, value, count) & mask;; i = (i + 1) & mask) {
    Slot &slot = slots_[i];
    if (slot.generation != generation_)
      return &slot;
    if (slot.address == address && slot.value == value && slot.count == count)
      return &slot;
  }
}

void ValueNames::grow() {
  std::vector<Slot> old;
  old.swap(slots_);
  slots_.assign(old.size() * 2, Slot{});
  for (const Slot &slot : old)
    if (slot.generation == generation_)
      *find(slot.address, slot.value, slot.count) = slot;
}

uint64_t ValueNames::name(uint64_t address, uint64_t value) {
  if ((used_ + 2) * 2 > slots_.size())
    grow();
  Slot *named = find(address, value, false);
  if (named->generation == generation_)
    return named->name;
  // Counts sit at value 0 of their own kind of slot.
  Slot *count = find(address, 0, true);
  if (count->generation != generation_) {
    *count = Slot{address, 0, generation_, 0, 1};
    ++used_;
  }
  uint32_t next = count->name;
  if (next == kMostNamed)
    return value ^ kUnnamed;
  count->name = next + 1;
  // `named` is still the first free slot of the value's probe sequence,
  // unless the count just took it.
  *(named == count ? find(address, value, false) : named) =
      Slot{address, value, generation_, next, 0};
  ++used_;
  return next;
}

void ValueNames::clear() {
  used_ = 0;
  if (++generation_ == 0) { // wrapped: every slot is older than generation 1
    slots_.assign(slots_.size(), Slot{});
    generation_ = 1;
  }
}

} // namespace simulee::memmodel
