// The state of one warp: its SIMT reconvergence stack, call frames, register
// file (slot-major: regs[slot * 32 + lane]) and per-lane private stacks.
#pragma once

#include "interp/Events.h"

#include <array>
#include <cstdint>
#include <vector>

namespace simulee::interp {

constexpr LaneMask kAllLanes = 0xffffffffu;

// One path of the warp: lanes `mask` execute from `pc` until they reach
// `reconv` (the branch's immediate post-dominator), where the entry below
// them, which holds their union, takes over.
struct StackEntry {
  uint32_t pc;
  uint32_t reconv; // ir::kNoReconvergence: the path ends by returning
  LaneMask mask;
  uint32_t frame;  // index into Warp::frames
  bool waiting = false;     // parked at a barrier (pc is already past it)
  bool gridBarrier = false; // waiting at a grid-wide barrier (Op::GridBarrier)
  int8_t namedBarrier = -1; // waiting at this named barrier (bar.sync id, count), not barrier 0
  uint32_t barrierInstr = 0;
};

struct Frame {
  uint32_t function;
  size_t regBase;     // index of slot 0, lane 0 in Warp::regs
  uint32_t returnDst; // caller slot that receives the return value
  std::array<uint32_t, kWarpSize> savedLocalTop; // caller's private stack tops
};

// A __syncthreads_count/and/or result owed to lanes parked at the barrier.
struct PendingBarrierResult {
  size_t regIndex; // Warp::regs index of the destination slot's lane 0
  LaneMask mask;
  uint8_t kind;    // ir::BarrierKind
  uint8_t width;
};

struct Warp {
  enum class State : uint8_t { Ready, AtBarrier, AtNamedBarrier, AtGridBarrier, Done };

  uint32_t index = 0;
  uint32_t firstThread = 0; // linear id of lane 0 in the block
  LaneMask fullMask = 0;    // lanes that exist (a partial last warp has fewer)
  LaneMask liveMask = 0;    // lanes that have not exited
  State state = State::Ready;
  uint64_t step = 0;        // lockstep steps executed
  uint64_t givenBlockAt = 0; // step at which the block last ran this warp (Launch::givesWay)
  LaneMask announced = 0;   // last mask reported to the listener
  uint32_t exitInstr = 0;   // where lanes last exited
  std::array<uint32_t, 3> tid[kWarpSize];

  std::vector<StackEntry> stack;
  std::vector<Frame> frames;
  std::vector<uint64_t> regs;
  std::vector<PendingBarrierResult> pendingResults;
  std::array<uint32_t, kWarpSize> localTop{};
  std::array<std::vector<uint8_t>, kWarpSize> local;
};

} // namespace simulee::interp
