// Order between blocks through a fenced atomic (DESIGN.md, "Fences and
// atomics"): a thread that executes a device-scope fence (__threadfence) and
// then an atomic read-modify-write on an address releases what it and its
// block did before the fence; an atomic on that address by another block,
// later in the simulation (later in the address's modification order),
// acquires every release made on it so far. The acquiring thread's later
// accesses, and its block's accesses in later barrier intervals, happen after
// the released ones, as in the single-pass reduction whose last block sums
// the partials the others wrote and fenced. Blocks run one after another, so
// the simulation's order of atomics on an address is a modification order.
#pragma once

#include "interp/Events.h"
#include "memmodel/Access.h"

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace simulee::memmodel {

class ReleaseOrder {
public:
  // A new block runs: the fences of the last one are forgotten.
  void beginBlock();
  void onFence(uint32_t visitOrder, uint32_t warp, uint64_t step, interp::LaneMask mask);
  // An atomic access to global memory: acquires, then releases if its thread
  // fenced before it.
  void onAtomic(const Access &atomic);
  // Whether `prior`, of another block, happens before `now` through a release
  // `now`'s block acquired.
  bool ordered(const Access &prior, const Access &now) const;

private:
  struct Release {
    uint32_t thread = 0;
    uint32_t fenceVisit = 0;
    uint64_t fenceStep = 0;
    uint64_t atomicStep = 0;
    uint64_t sequence = 0; // its place among the address's releases
  };
  // One thread's acquire: what its later accesses in that visit order see.
  struct ThreadAcquire {
    uint32_t visitOrder = 0;
    uint64_t step = 0;
    uint64_t sequence = 0; // releases on the address before it: sequence < this
  };
  // A block's acquires on one address: its accesses in later visit orders see
  // the most any acquire of an earlier visit order saw; a thread sees its own
  // acquires before it in the same visit order too.
  struct Acquires {
    std::map<uint32_t, uint64_t> byVisitOrder; // the largest sequence acquired in each
    std::unordered_map<uint32_t, std::vector<ThreadAcquire>> byThread; // in time order
  };
  struct Fence {
    uint32_t visitOrder = 0;
    uint64_t step = 0;
  };
  static uint64_t addressOf(const Access &access);
  static bool covers(const Release &release, const Access &prior);

  std::unordered_map<uint32_t, Fence> fences_; // the running block's, by thread
  struct AddressReleases {
    uint64_t count = 0;
    std::unordered_map<uint32_t, std::vector<Release>> byBlock;
  };
  std::unordered_map<uint64_t, AddressReleases> releases_;
  // By block, then address.
  std::unordered_map<uint32_t, std::unordered_map<uint64_t, Acquires>> acquires_;
};

} // namespace simulee::memmodel
