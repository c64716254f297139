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
      if (free_.empty()) {
        slots = std::make_unique<Page>();
      } else {
        slots = std::move(free_.back());
        free_.pop_back();
      }
      touched_.push_back(page);
    }
    return (*slots)[index & (kPageSlots - 1)];
  }

  // A slot at() created before: no page to allocate, no bounds to grow.
  Slot &existing(uint64_t index) { return (*pages_[index >> kPageBits])[index & (kPageSlots - 1)]; }

  // Every slot back to Slot{}; the pages touched since the last reset are
  // cleared and kept for reuse (by any index), so a reset costs what was
  // used since the last one, however large the array once was.
  void reset() {
    for (uint64_t page : touched_) {
      pages_[page]->fill(Slot{});
      free_.push_back(std::move(pages_[page]));
    }
    touched_.clear();
  }

  // Bytes of the allocated pages (not of what slots own themselves).
  uint64_t retainedBytes() const { return (touched_.size() + free_.size()) * sizeof(Page); }

private:
  using Page = std::array<Slot, kPageSlots>;
  std::vector<std::unique_ptr<Page>> pages_;
  std::vector<uint64_t> touched_; // pages in use since the last reset, in first-touch order
  std::vector<std::unique_ptr<Page>> free_; // cleared pages for reuse
};

} // namespace simulee::memmodel
