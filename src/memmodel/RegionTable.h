// The dense shadow of the model, one Region per (space, buffer, scope): the
// per-access lookup finds the region through a last-hit cache (consecutive
// accesses mostly hit one buffer) and then indexes it directly, instead of
// hashing every granule. Shared-memory regions belong to one block and are
// recycled when it ends (shared memory never meets another block's).
#pragma once

#include "interp/Events.h"
#include "memmodel/Granule.h"
#include "support/ThreadCache.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace simulee::memmodel {

struct RegionKey {
  interp::MemSpace space = interp::MemSpace::Global;
  uint32_t buffer = 0;
  uint32_t scope = kGridScope;

  bool operator==(const RegionKey &) const = default;
};

struct RegionKeyHash {
  size_t operator()(const RegionKey &key) const {
    uint64_t h = (uint64_t(key.buffer) << 32 | key.scope) * 0x9E3779B97F4A7C15ull;
    return size_t(h ^ uint64_t(key.space) * 0xC2B2AE3D27D4EB4Full);
  }
};

// Regions outlive their table, per thread: a search simulates hundreds of
// launches on each thread, and each launch's model would otherwise fault in
// fresh pages for the same shadows (the kernel's page clearing cost more
// than the recording). A table's regions go back, reset, to its thread's
// pool, which the next table of the thread draws from; bounded in bytes.
template <class Region> class RegionPool {
public:
  static std::unique_ptr<Region> take() {
    Pool *pool = ThreadCache<Pool>::get();
    if (!pool || pool->spare.empty())
      return std::make_unique<Region>();
    std::unique_ptr<Region> region = std::move(pool->spare.back());
    pool->spare.pop_back();
    pool->bytes -= region->retainedBytes();
    return region;
  }

  // `region` must be reset.
  static void give(std::unique_ptr<Region> region) {
    Pool *pool = ThreadCache<Pool>::get();
    uint64_t bytes = region->retainedBytes();
    if (!pool || pool->bytes + bytes > kMaxBytes || pool->spare.size() >= kMaxRegions)
      return;
    pool->bytes += bytes;
    pool->spare.push_back(std::move(region));
  }

private:
  static constexpr uint64_t kMaxBytes = uint64_t(64) << 20;
  static constexpr size_t kMaxRegions = 64;
  struct Pool {
    std::vector<std::unique_ptr<Region>> spare;
    uint64_t bytes = 0;
  };
};

// Region: default-constructible, with reset() returning it to that state
// (keeping its allocations for the next block's shared memory) and
// retainedBytes() saying how much that keeps.
template <class Region> class RegionTable {
public:
  RegionTable() = default;
  RegionTable(const RegionTable &) = delete;
  RegionTable &operator=(const RegionTable &) = delete;
  ~RegionTable() {
    // A region already reset (a recycled shared one) resets again for free.
    for (std::unique_ptr<Region> &region : owned_) {
      region->reset();
      RegionPool<Region>::give(std::move(region));
    }
  }

  Region &find(const RegionKey &key) {
    if (last_ && lastKey_ == key)
      return *last_;
    auto [it, inserted] = byKey_.try_emplace(key, nullptr);
    if (inserted)
      it->second = acquire();
    last_ = it->second;
    lastKey_ = key;
    return *last_;
  }

  // Recycles every region.
  void releaseAll() {
    for (auto &[key, region] : byKey_) {
      region->reset();
      spare_.push_back(region);
    }
    byKey_.clear();
    last_ = nullptr;
  }

  // Recycles the shared-memory regions of `block`: it has ended.
  void releaseScope(uint32_t block) {
    for (auto it = byKey_.begin(); it != byKey_.end();) {
      if (it->first.space != interp::MemSpace::Shared || it->first.scope != block) {
        ++it;
        continue;
      }
      it->second->reset();
      spare_.push_back(it->second);
      it = byKey_.erase(it);
    }
    last_ = nullptr;
  }

private:
  Region *acquire() {
    if (!spare_.empty()) {
      Region *region = spare_.back();
      spare_.pop_back();
      return region;
    }
    owned_.push_back(RegionPool<Region>::take());
    return owned_.back().get();
  }

  std::vector<std::unique_ptr<Region>> owned_;
  std::vector<Region *> spare_;
  std::unordered_map<RegionKey, Region *, RegionKeyHash> byKey_;
  RegionKey lastKey_;
  Region *last_ = nullptr;
};

} // namespace simulee::memmodel
