// The 16 named barriers of a block (PTX `bar.sync id, count`, `bar.arrive
// id, count`, `barrier.sync id`): how many threads arrived at each since it
// last completed. Warps arrive whole (the ISA counts a warp's arrival as
// warpSize threads), so a count is a multiple of 32.
#pragma once

#include <array>
#include <cstdint>

namespace simulee::interp {

class NamedBarriers {
public:
  static constexpr uint32_t kBarriers = 16;

  void reset() { arrived_.fill(Arrivals{}); }

  // Counts `threads` arriving at `id`, which completes at `expected` threads
  // (the first arrival's count). True when this arrival completes it; the
  // barrier then starts over.
  bool arrive(uint32_t id, uint32_t expected, uint32_t threads) {
    Arrivals &barrier = arrived_[id];
    if (barrier.threads == 0)
      barrier.expected = expected;
    barrier.threads += threads;
    if (barrier.threads < barrier.expected)
      return false;
    barrier = Arrivals{};
    return true;
  }

  bool anyPending() const {
    for (const Arrivals &barrier : arrived_)
      if (barrier.threads)
        return true;
    return false;
  }

private:
  struct Arrivals {
    uint32_t threads = 0;
    uint32_t expected = 0;
  };
  std::array<Arrivals, kBarriers> arrived_{};
};

} // namespace simulee::interp
