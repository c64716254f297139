// The interpreter's only output channel besides memory contents: events for
// every memory access, lane-mask change, barrier and warp sync. Listeners
// (memmodel) record them; the interpreter knows nothing about bug kinds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simulee::interp {

using LaneMask = uint32_t;
constexpr unsigned kWarpSize = 32;

enum class MemSpace : uint8_t { Global, Shared, Local, Constant };
// BlockAtomic: an atomic whose scope is its block (atomicAdd_block,
// cuda::thread_scope_block) on global memory: atomic for the threads of its
// block, an ordinary read and write for any other.
enum class AccessKind : uint8_t { Read, Write, Atomic, BlockAtomic };
inline bool isAtomic(AccessKind kind) {
  return kind == AccessKind::Atomic || kind == AccessKind::BlockAtomic;
}

inline const char *memSpaceName(MemSpace space) {
  switch (space) {
  case MemSpace::Global: return "global";
  case MemSpace::Shared: return "shared";
  case MemSpace::Local: return "local";
  case MemSpace::Constant: return "constant";
  }
  return "?";
}

inline const char *accessKindName(AccessKind kind) {
  switch (kind) {
  case AccessKind::Read: return "read";
  case AccessKind::Write: return "write";
  case AccessKind::Atomic: return "atomic";
  case AccessKind::BlockAtomic: return "block-scoped atomic";
  }
  return "?";
}

// One lane's access to memory. `buffer` names the variable inside `space`
// (see Launch::bufferName); `offset` is a byte offset inside that buffer.
struct AccessEvent {
  MemSpace space;
  AccessKind kind;
  uint32_t buffer;
  uint64_t offset;
  uint32_t sizeBytes;
  uint32_t block;       // linear block id in the grid
  uint32_t thread;      // linear thread id in the block
  uint32_t warp;        // warp index in the block (thread / 32)
  uint32_t lane;        // thread % 32
  uint64_t step;        // the warp's lockstep step number, see below
  uint32_t instruction; // Program-wide instruction id (ir::Program::instructions)
  // The accesses this event stands for: 1, or for a quiet instruction
  // (RunOptions::quietAccesses) made by compiled code, the warp's active
  // lanes, this event being the first lane's (and, passed on to the model
  // by memmodel::RepresentativeBlocks, a run of a repeating block's).
  uint32_t count = 1;
  // Plain stores of at most 8 bytes: the bits written (low `sizeBytes`
  // bytes), so that listeners can tell same-value writes apart.
  uint64_t value = 0;
  bool valueKnown = false;
};

// Every instruction a warp executes is one lockstep step; `step` counts them
// per warp from 0 and never goes back. Lane masks only change between steps
// and each change is announced by a MaskChangeEvent before the next access,
// so a listener can tell whether two lanes were ever active in the same step
// between two accesses (DESIGN.md, "Diverged, precisely").
struct MaskChangeEvent {
  uint32_t block;
  uint32_t warp;
  uint64_t step;   // first step executed under the new mask
  LaneMask active; // lanes executing from `step` on
};

// A barrier released: every live warp of `block` arrived (or exited).
// Accesses after it carry the new visit order `epoch` (epochs start at 0).
struct BarrierReleaseEvent {
  uint32_t block;
  uint32_t epoch;                       // visit order that starts now
  std::vector<uint32_t> barrierInstrs;  // instruction ids the threads waited at
};

// A warp reached a barrier with only part of its live lanes, or threads of a
// block waited at different barriers, or some exited while others waited.
struct BarrierDivergenceEvent {
  // IncompleteNamedBarrier: warps wait at a named barrier whose thread count
  // the block never reaches (a deadlock on hardware).
  // GridBarrierNotReached: blocks wait at a grid-wide barrier (this_grid().sync())
  // that another block ended without reaching (a deadlock on hardware);
  // `otherThread` is in block `otherBlock`.
  enum class Cause : uint8_t {
    PartialWarp, DifferentBarriers, ExitedThreads, IncompleteNamedBarrier, GridBarrierNotReached
  };
  Cause cause;
  uint32_t block;
  uint32_t warp;
  uint32_t barrierInstr;        // the barrier some threads wait at
  uint32_t otherInstr;          // the other barrier, or the exit/ret instruction
  uint32_t waitingThread;       // a thread waiting at barrierInstr
  uint32_t otherThread;         // a thread that is not
  uint32_t otherBlock = ~0u;    // otherThread's block when not `block` (grid barriers)
};

// A warp (or the part of it in `mask`) reached a barrier and waits there.
// Together with BarrierReleaseEvent it tells who waited at which barrier when
// (the Python API's barrier timeline).
struct BarrierArriveEvent {
  uint32_t block;
  uint32_t warp;
  uint64_t step; // the warp's lockstep step of the barrier instruction
  uint32_t barrierInstr;
  LaneMask mask; // lanes that arrived
};

// A warp arrived at named barrier `barrierId` (PTX bar.sync/bar.arrive/
// barrier.sync with an id and a thread count). Its accesses before `step`
// happen before the accesses of every warp that waits for this completion of
// the barrier, after that warp's release (NamedBarrierReleaseEvent).
struct NamedBarrierArriveEvent {
  uint32_t block;
  uint32_t warp;
  uint64_t step; // the warp's lockstep step of the barrier instruction
  uint32_t barrierId;
  uint32_t barrierInstr;
  bool waits; // bar.sync: the warp waits for the completion; bar.arrive: it goes on
};

// Named barrier `barrierId` completed: the arrivals since its last completion
// reached its thread count; `waiters` (warps that arrived with bar.sync) go on.
struct NamedBarrierReleaseEvent {
  uint32_t block;
  uint32_t barrierId;
  std::vector<uint32_t> waiters;
};

// __syncwarp / bar.warp.sync: the lanes in `mask` are ordered with each other.
struct WarpSyncEvent {
  uint32_t block;
  uint32_t warp;
  uint64_t step;
  LaneMask mask;
};

// An access outside every buffer (or outside its own). The access is not
// performed: loads yield 0. Reported as its own finding kind.
struct OutOfBoundsEvent {
  AccessEvent access;
  uint64_t bufferSizeBytes; // size of `access.buffer`, 0 if the pointer named none
};

// Undefined behaviour a thread executed: the interpreter does not perform the
// operation (its result reads as 0) and the thread stops there.
enum class UndefinedBehavior : uint8_t {
  ShiftTooLarge,     // shl/lshr/ashr by at least the bit width; value = shift amount
  DivisionByZero,    // udiv/sdiv/urem/srem by 0
  DivisionOverflow,  // sdiv/srem of the most negative value by -1
  NullPointer,       // access through null (or an integer cast to a pointer)
  WildPointer,       // access through a pointer that names no buffer
  Misaligned,        // access not aligned to its size; value = byte offset
  InvalidFree,       // free/delete of a pointer that starts no live heap allocation; value = it
};

inline const char *undefinedBehaviorName(UndefinedBehavior kind) {
  switch (kind) {
  case UndefinedBehavior::ShiftTooLarge: return "shift by at least the bit width";
  case UndefinedBehavior::DivisionByZero: return "integer division by zero";
  case UndefinedBehavior::DivisionOverflow: return "signed division overflow (INT_MIN / -1)";
  case UndefinedBehavior::NullPointer: return "null-pointer access";
  case UndefinedBehavior::WildPointer: return "access through a wild pointer";
  case UndefinedBehavior::Misaligned: return "misaligned access";
  case UndefinedBehavior::InvalidFree: return "invalid free";
  }
  return "undefined behaviour";
}

struct UndefinedBehaviorEvent {
  UndefinedBehavior kind;
  uint32_t block;       // linear block id
  uint32_t thread;      // linear thread id in the block
  uint32_t instruction; // Program-wide instruction id
  uint64_t value;       // see UndefinedBehavior
  uint32_t width = 0;   // bit width of the operation or byte size of the access
};

// A fence by the lanes of `mask`: their writes before it are visible (to
// the device, or to the block for a block-scope fence) before their accesses
// after it. The model orders other threads after it only through an atomic
// that follows (DESIGN.md: a fenced atomic releases, a later atomic on the
// address acquires); a block-scope fence releases within the block only.
struct FenceEvent {
  uint32_t block;
  uint32_t warp;
  uint64_t step;
  LaneMask mask;
  bool deviceScope = true; // __threadfence (and wider); false: __threadfence_block
};

// A failed `assert` (ir::TrapReason::Assert) by one thread: the launch stops
// there, as a GPU's does.
struct AssertionEvent {
  uint32_t block;       // linear block id
  uint32_t thread;      // linear thread id in the block
  uint32_t instruction; // Program-wide instruction id
  std::string condition; // the assertion's text ("v[i] >= 0"), empty when unreadable
};

// One thread's device printf: what it prints goes to the program's output
// (under exec, at the next synchronizing call, as a GPU flushes its printf
// buffer), and it is something a barrier orders (BarrierEvidence).
struct OutputEvent {
  uint32_t block;       // linear block id
  uint32_t warp;        // warp index in the block
  uint32_t thread;      // linear thread id in the block
  uint32_t instruction; // Program-wide instruction id
  // The printed text, formatted only for a listener that wantsOutputText().
  std::string text;
};

// A warp read a clock (`clock()`, `clock64()`, `%globaltimer`): a timing
// kernel's barrier next to such a read (`__syncthreads(); if (tid == 0)
// start = clock64();`) orders the read against the other threads' work, so it
// is not redundant though it orders no memory access (BarrierEvidence).
struct ClockReadEvent {
  uint32_t block; // linear block id
  uint32_t warp;  // warp index in the block
};

// Every block of the grid reached a grid-wide barrier (ir/GridSync.h), or
// ended: each access before it happens before each access after it, in every
// block. Blocks waiting there were suspended (onBlockSuspend) and resume
// (onBlockResume) after this event, one at a time.
struct GridBarrierReleaseEvent {
  uint32_t phase;         // grid barriers released so far in the launch, this one included
  uint32_t blocksWaiting; // the blocks that wait there (the others have ended)
};

class ExecutionListener {
public:
  virtual ~ExecutionListener() = default;
  // Asked once when a launch starts: false, and the launch sends no
  // onAccess (in-bounds accesses are then not even described), which is
  // most of an uninterested listener's cost. The other events still come.
  virtual bool wantsAccesses() const { return true; }
  // Asked, when it wants accesses, once per allocation of the caller's
  // memory (BoundMemory, `exec`) when a launch starts: false, and in-bounds
  // accesses of it send no onAccess in this launch. The answer must hold
  // for the whole launch.
  virtual bool wantsAccessesTo(MemSpace /*space*/, uint32_t /*buffer*/) const {
    return wantsAccesses();
  }
  // Asked once when a launch starts: true, and OutputEvent carries the text
  // each printf prints (reading its arguments costs; an analysis never
  // shows it).
  virtual bool wantsOutputText() const { return false; }
  virtual void onBlockBegin(uint32_t /*block*/) {}
  virtual void onBlockEnd(uint32_t /*block*/) {}
  // A block stops at a grid-wide barrier, other blocks run, and it resumes
  // in visit order `epoch` (the grid barrier is a barrier of the block too).
  virtual void onBlockSuspend(uint32_t /*block*/) {}
  virtual void onBlockResume(uint32_t /*block*/, uint32_t /*epoch*/) {}
  virtual void onGridBarrierRelease(const GridBarrierReleaseEvent &) {}
  virtual void onAccess(const AccessEvent &) {}
  virtual void onMaskChange(const MaskChangeEvent &) {}
  virtual void onBarrierRelease(const BarrierReleaseEvent &) {}
  virtual void onBarrierArrive(const BarrierArriveEvent &) {}
  virtual void onBarrierDivergence(const BarrierDivergenceEvent &) {}
  virtual void onWarpSync(const WarpSyncEvent &) {}
  virtual void onFence(const FenceEvent &) {}
  virtual void onNamedBarrierArrive(const NamedBarrierArriveEvent &) {}
  virtual void onNamedBarrierRelease(const NamedBarrierReleaseEvent &) {}
  virtual void onOutOfBounds(const OutOfBoundsEvent &) {}
  virtual void onAssertionFailed(const AssertionEvent &) {}
  virtual void onOutput(const OutputEvent &) {}
  virtual void onClockRead(const ClockReadEvent &) {}
  virtual void onUndefinedBehavior(const UndefinedBehaviorEvent &) {}
};

} // namespace simulee::interp
