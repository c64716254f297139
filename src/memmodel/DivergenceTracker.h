// Per-warp record of which lanes ran together, answering DESIGN.md's
// "Diverged, precisely": accesses by lane a at step s1 and lane b at step
// s2 >= s1 are ordered iff some step in [s1, s2] had both lanes active. Also
// remembers __syncwarp masks for the independent-thread semantics.
//
// Fed by MaskChangeEvents of the block being simulated (blocks run one after
// another, so one block's warps at a time). Each warp keeps its current mask
// and the step it took effect, plus lastCommonStep[a][b]: the last step of any
// closed mask interval that contained both lanes. A query made while the later
// access executes (s2 = now) is then O(1): both lanes active now, or
// lastCommonStep[a][b] >= s1. Closing an interval costs popcount(mask)^2,
// or one write when the whole warp ran.
#pragma once

#include "interp/Events.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace simulee::memmodel {

class DivergenceTracker {
public:
  // Forgets every warp: a new block begins.
  void beginBlock();

  void onMaskChange(uint32_t warp, uint64_t step, interp::LaneMask active);
  void onWarpSync(uint32_t warp, uint64_t step, interp::LaneMask mask);

  // Some step in [s1, s2] had both lanes active. s2 is the step of an access
  // executing now (s2 >= the step of the warp's last mask change).
  bool hadCommonActiveStep(uint32_t warp, unsigned laneA, uint64_t s1, unsigned laneB,
                           uint64_t s2) const;
  // A __syncwarp whose mask held both lanes ran at a step in (s1, s2].
  bool warpSyncBetween(uint32_t warp, unsigned laneA, uint64_t s1, unsigned laneB,
                       uint64_t s2) const;

  // The step of the last __syncwarp whose mask held both lanes, if any.
  std::optional<uint64_t> lastWarpSync(uint32_t warp, unsigned laneA, unsigned laneB) const;

  interp::LaneMask activeMask(uint32_t warp) const;

private:
  // Steps are stored +1 so that 0 means "never".
  // Row a holds lane a's pairs. Rows not in `valid` are stale (from an
  // earlier block) and read as all zero, so a new block clears nothing.
  // A whole warp's mark is one word, `allLanes`: a warp's steps only grow,
  // so a pair's last mark is the larger of its row's and that word.
  struct LanePairSteps {
    std::array<std::array<uint64_t, interp::kWarpSize>, interp::kWarpSize> rows;
    interp::LaneMask valid = 0;
    uint64_t allLanes = 0;

    uint64_t at(unsigned a, unsigned b) const {
      uint64_t row = valid >> a & 1 ? rows[a][b] : 0;
      return row > allLanes ? row : allLanes;
    }
    void clear() { valid = 0, allLanes = 0; }
  };

  struct WarpState {
    uint32_t blockSerial = 0; // state is stale unless equal to blockSerial_
    interp::LaneMask active = 0;
    uint64_t activeSince = 0;
    LanePairSteps lastCommonStepPlus1;
    LanePairSteps lastSyncStepPlus1;
  };

  WarpState &stateOf(uint32_t warp);
  const WarpState *findState(uint32_t warp) const;
  static void markPairs(LanePairSteps &table, interp::LaneMask lanes, uint64_t stepPlus1);

  std::vector<std::unique_ptr<WarpState>> warps_;
  uint32_t blockSerial_ = 1;
};

} // namespace simulee::memmodel
