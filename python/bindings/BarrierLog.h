// Who waited at which barrier when, for one launch: the interpreter's
// barrier arrival and release events in the order they happened. Attached
// to a single launch as session::AnalysisOptions::observer; read by
// Model.barriers() and simulee.plot.barrier_timeline.
#pragma once

#include "interp/Events.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace simulee::python {

struct BarrierArrival {
  uint64_t sequence = 0; // position among all barrier events of the launch
  uint32_t block = 0;
  uint32_t warp = 0;
  uint64_t step = 0; // the warp's lockstep step at the barrier
  uint32_t barrierInstr = 0;
  interp::LaneMask lanes = 0;   // lanes that arrived
  uint32_t visitOrder = 0;      // the barrier interval this arrival ends
  uint64_t releaseSequence = 0; // sequence of the release that let it go (0: none)
};

class BarrierLog final : public interp::ExecutionListener {
public:
  void onBlockBegin(uint32_t block) override { epoch_[block] = 0; }
  // After a grid-wide barrier: the block goes on in a new barrier interval.
  void onBlockResume(uint32_t block, uint32_t epoch) override { epoch_[block] = epoch; }
  void onBarrierArrive(const interp::BarrierArriveEvent &event) override {
    arrivals_.push_back(BarrierArrival{++sequence_, event.block, event.warp, event.step,
                                       event.barrierInstr, event.mask, epoch_[event.block], 0});
    waiting_.push_back(arrivals_.size() - 1);
  }
  void onBarrierRelease(const interp::BarrierReleaseEvent &event) override {
    epoch_[event.block] = event.epoch;
    ++sequence_;
    for (std::size_t index : waiting_)
      arrivals_[index].releaseSequence = sequence_;
    waiting_.clear();
  }

  const std::vector<BarrierArrival> &arrivals() const { return arrivals_; }

private:
  std::vector<BarrierArrival> arrivals_;
  std::vector<std::size_t> waiting_; // arrivals of the running block not yet released
  std::unordered_map<uint32_t, uint32_t> epoch_;
  uint64_t sequence_ = 0;
};

} // namespace simulee::python
