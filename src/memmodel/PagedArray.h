// A sparse array indexed by a 64-bit position (a granule or byte of one
// buffer): fixed-size pages allocated, zeroed, on first touch, so a lookup
// is two indexings and memory follows the touched part of the buffer.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace simulee::memmodel {

template <class Slot, unsigned kPageBits> class PagedArray {
public:
  static constexpr uint64_t kPageSlots = uint64_t(1) << kPageBits;

  // The slot at `index`; a value-initialized Slot if never written.
  Slot &at(uint64_t index) {
    uint64_t page = index >> kPageBits;
    if (page >= pages_.size())
      pages_.resize(page + 1);
    std::unique_ptr<Page> &slots = pages_[page];
    if (!slots) {
      slots = std::make_unique<Page>();
      touched_.push_back(page);
    }
    return (*slots)[index & (kPageSlots - 1)];
  }

  // Every slot back to Slot{}; touched pages stay allocated for reuse.
  void reset() {
    for (uint64_t page : touched_)
      pages_[page]->fill(Slot{});
  }

private:
  using Page = std::array<Slot, kPageSlots>;
  std::vector<std::unique_ptr<Page>> pages_;
  std::vector<uint64_t> touched_; // pages allocated, in first-touch order
};

} // namespace simulee::memmodel
