#include "memmodel/DivergenceTracker.h"

#include <bit>

namespace simulee::memmodel {

using interp::LaneMask;

void DivergenceTracker::beginBlock() { ++blockSerial_; }

DivergenceTracker::WarpState &DivergenceTracker::stateOf(uint32_t warp) {
  if (warp >= warps_.size())
    warps_.resize(warp + 1);
  // Each warp's state on its own, uninitialised but for its header: the
  // pair tables (16 KiB) are cleared row by row when first written.
  std::unique_ptr<WarpState> &slot = warps_[warp];
  if (!slot)
    slot = std::make_unique_for_overwrite<WarpState>();
  WarpState &state = *slot;
  if (state.blockSerial != blockSerial_) {
    // Lazily reset: a block touches only its own warps, and clearing 16 KiB
    // per warp for every block would dominate small blocks; rows are
    // cleared when first written (markPairs).
    state.blockSerial = blockSerial_;
    state.active = 0;
    state.activeSince = 0;
    state.lastCommonStepPlus1.clear();
    state.lastSyncStepPlus1.clear();
  }
  return state;
}

const DivergenceTracker::WarpState *DivergenceTracker::findState(uint32_t warp) const {
  if (warp >= warps_.size() || !warps_[warp] || warps_[warp]->blockSerial != blockSerial_)
    return nullptr;
  return warps_[warp].get();
}

void DivergenceTracker::markPairs(LanePairSteps &table, LaneMask lanes, uint64_t stepPlus1) {
  if (lanes == ~LaneMask(0)) {
    table.allLanes = stepPlus1;
    return;
  }
  for (LaneMask rows = lanes; rows; rows &= rows - 1) {
    unsigned a = unsigned(std::countr_zero(rows));
    std::array<uint64_t, interp::kWarpSize> &row = table.rows[a];
    if (!(table.valid >> a & 1)) {
      row.fill(0);
      table.valid |= LaneMask(1) << a;
    }
    for (LaneMask cols = lanes; cols; cols &= cols - 1)
      row[unsigned(std::countr_zero(cols))] = stepPlus1;
  }
}

void DivergenceTracker::onMaskChange(uint32_t warp, uint64_t step, LaneMask active) {
  WarpState &state = stateOf(warp);
  // The old mask ran steps [activeSince, step - 1]; an interval that ran no
  // step (two changes at one step) made no lanes meet.
  if (step > state.activeSince && state.active != 0)
    markPairs(state.lastCommonStepPlus1, state.active, step); // (step - 1) + 1
  state.active = active;
  state.activeSince = step;
}

void DivergenceTracker::onWarpSync(uint32_t warp, uint64_t step, LaneMask mask) {
  markPairs(stateOf(warp).lastSyncStepPlus1, mask, step + 1);
}

bool DivergenceTracker::hadCommonActiveStep(uint32_t warp, unsigned laneA, uint64_t s1,
                                            unsigned laneB, uint64_t s2) const {
  const WarpState *state = findState(warp);
  if (!state)
    return false;
  LaneMask both = (LaneMask(1) << laneA) | (LaneMask(1) << laneB);
  // The current interval covers [activeSince, s2]; it meets [s1, s2] because
  // s2 >= s1.
  if ((state->active & both) == both && s2 >= state->activeSince && s2 >= s1)
    return true;
  uint64_t lastPlus1 = state->lastCommonStepPlus1.at(laneA, laneB);
  return lastPlus1 != 0 && lastPlus1 - 1 >= s1;
}

bool DivergenceTracker::warpSyncBetween(uint32_t warp, unsigned laneA, uint64_t s1,
                                        unsigned laneB, uint64_t s2) const {
  const WarpState *state = findState(warp);
  if (!state)
    return false;
  uint64_t lastPlus1 = state->lastSyncStepPlus1.at(laneA, laneB);
  return lastPlus1 != 0 && lastPlus1 - 1 > s1 && lastPlus1 - 1 <= s2;
}

std::optional<uint64_t> DivergenceTracker::lastWarpSync(uint32_t warp, unsigned laneA,
                                                        unsigned laneB) const {
  const WarpState *state = findState(warp);
  uint64_t lastPlus1 = state ? state->lastSyncStepPlus1.at(laneA, laneB) : 0;
  return lastPlus1 == 0 ? std::nullopt : std::optional<uint64_t>(lastPlus1 - 1);
}

LaneMask DivergenceTracker::activeMask(uint32_t warp) const {
  const WarpState *state = findState(warp);
  return state ? state->active : 0;
}

} // namespace simulee::memmodel
