// The values one block stores at each address, named in the order they first
// appear there (RepresentativeBlocks' renaming of stored values): equal values
// get equal names and unequal ones unequal names, whatever the data.
//
// A flat open-addressing table of two kinds of slot, (address, value) -> name
// and (address) -> how many values are named there, emptied for the next
// block in constant time by a generation number: a block's thousands of
// stores cost no allocation.
#pragma once

#include <cstdint>
#include <vector>

namespace simulee::memmodel {

class ValueNames {
public:
  // Addresses name at most this many values; later ones are named by
  // themselves (value ^ kUnnamed, never a small index).
  static constexpr uint32_t kMostNamed = 32;
  static constexpr uint64_t kUnnamed = uint64_t(1) << 63;

  ValueNames() : slots_(64) {}
  // The name of `value` stored at `address`.
  uint64_t name(uint64_t address, uint64_t value);
  // Forgets every name (the next block).
  void clear();

private:
  // `generation` is 0 for a slot never used; a slot of an older generation
  // is empty. `count` marks a slot holding the number of values named at
  // `address` in `name` rather than a value's name.
  struct Slot {
    uint64_t address = 0, value = 0;
    uint32_t generation = 0;
    uint32_t name : 31 = 0;
    uint32_t count : 1 = 0;
  };
  Slot *find(uint64_t address, uint64_t value, bool count);
  void grow();

  std::vector<Slot> slots_; // a power of two
  uint32_t generation_ = 1;
  uint64_t used_ = 0; // slots of this generation
};

} // namespace simulee::memmodel
