// The numbers the evolutionary search reads from one launch (DESIGN.md,
// "Evolutionary input search"): how many distinct addresses were accessed,
// how many distinct threads touched each (summed), and the address range.
//
// An address is the first byte of an access, identified by (space, buffer,
// byte offset), plus the block for shared memory (each block has its own).
// Local memory is private and not counted. A thread is a (block, thread)
// pair. min/max address are byte offsets with every buffer laid at offset 0
// (buffers overlaid, not laid end to end): the range says how far apart the
// touched bytes of a buffer are, whatever buffer they live in.
#pragma once

#include "interp/Events.h"
#include "memmodel/Granule.h"

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

namespace simulee::memmodel {

class FitnessFigures {
public:
  void record(const interp::AccessEvent &access);
  // Blocks run one after another: distinct-thread bookkeeping is per block.
  void endBlock();

  uint64_t distinctAddresses() const { return threadsPerAddress_.size(); }
  uint64_t accessingThreadsSum() const { return accessingThreadsSum_; }
  uint64_t minAddress() const { return any_ ? minAddress_ : 0; }
  uint64_t maxAddress() const { return any_ ? maxAddress_ : 0; }

  // distinct addresses / accessing threads summed; 1.0 when nothing accessed.
  double ratio() const;
  // maxAddress - minAddress, 0 when nothing accessed.
  uint64_t range() const { return maxAddress() - minAddress(); }

private:
  // GranuleKey with `index` holding the byte offset itself.
  using AddressKey = GranuleKey;
  struct ThreadAtAddress {
    AddressKey address;
    uint32_t thread;
    bool operator==(const ThreadAtAddress &) const = default;
  };
  struct ThreadAtAddressHash {
    size_t operator()(const ThreadAtAddress &key) const {
      return GranuleKeyHash()(key.address) ^ (size_t(key.thread) * 0x9E3779B97F4A7C15ull);
    }
  };

  std::unordered_map<AddressKey, uint64_t, GranuleKeyHash> threadsPerAddress_;
  std::unordered_set<ThreadAtAddress, ThreadAtAddressHash> seenInBlock_;
  uint64_t accessingThreadsSum_ = 0;
  uint64_t minAddress_ = 0, maxAddress_ = 0;
  bool any_ = false;
};

} // namespace simulee::memmodel
