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
//
// Bookkeeping is one word per address in a dense shadow (RegionTable), so a
// record costs no hashing. The thread count is exact, except in a block
// that touches more than kMaxSharedAddresses addresses with two or more
// threads each: beyond that, a thread coming back to such an address after
// another thread counts again (the figures only guide the search).
#pragma once

#include "interp/Events.h"
#include "memmodel/PagedArray.h"
#include "memmodel/RegionTable.h"

#include <array>
#include <cstdint>
#include <vector>

namespace simulee::memmodel {

class FitnessFigures {
public:
  // Addresses per block whose accessing threads are tracked as a set.
  static constexpr uint32_t kMaxSharedAddresses = 1u << 18; // 32 MiB of sets

  void record(const interp::AccessEvent &access);
  // Blocks run one after another: distinct-thread bookkeeping is per block,
  // and the block's shared memory is never addressed again.
  void endBlock(uint32_t block);

  uint64_t distinctAddresses() const { return distinctAddresses_; }
  uint64_t accessingThreadsSum() const { return accessingThreadsSum_; }
  uint64_t minAddress() const { return any_ ? minAddress_ : 0; }
  uint64_t maxAddress() const { return any_ ? maxAddress_ : 0; }

  // distinct addresses / accessing threads summed; 1.0 when nothing accessed.
  double ratio() const;
  // maxAddress - minAddress, 0 when nothing accessed.
  uint64_t range() const { return maxAddress() - minAddress(); }

private:
  // The threads of one block, one bit each (blocks hold at most 1024).
  using ThreadSet = std::array<uint64_t, 1024 / 64>;

  // Per byte offset of one buffer, its AddressRecord word (see the .cpp).
  struct Region {
    PagedArray<uint64_t, 9> records;
    void reset() { records.reset(); }
    uint64_t retainedBytes() const { return records.retainedBytes(); }
  };

  bool isNewThreadOfAddress(uint64_t &record, uint32_t thread);

  RegionTable<Region> regions_;
  std::vector<ThreadSet> threadSets_; // this block's, indexed by the records
  uint32_t blockSerial_ = 1;          // of the running block; 0 = never
  uint64_t distinctAddresses_ = 0;
  uint64_t accessingThreadsSum_ = 0;
  uint64_t minAddress_ = 0, maxAddress_ = 0;
  bool any_ = false;
};

} // namespace simulee::memmodel
