// The compiled engine: a lowered function (ir::Function) compiled to native
// code with LLVM's ORC JIT, run by the interpreter for a warp's current path
// (interp/Interpreter.cpp owns warps, the SIMT stack, memory and events).
//
// Compiled code runs the path's straight-line code and its uniform branches
// (every active lane the same way) for all active lanes at once, as vector
// operations over the warp's 32 register lanes. It keeps the interpreter's
// semantics exactly by construction:
// - arithmetic, compares, selects and pointer steps it compiles are the
//   interpreter's formulas (interp/MathLibrary.h, ir/PointerEncoding.h); a
//   lane whose result the fast formula cannot give (a pointer step leaving
//   its offset field, a shift the program cannot make) has the whole
//   instruction run by the interpreter instead;
// - a load or store in bounds and aligned of one buffer it makes itself,
//   after Frame::record sent the events the interpreter's access would, in
//   lane order at the same step;
// - every other data instruction (other memory accesses, atomics, warp
//   intrinsics, math functions) is run by the interpreter through
//   Frame::execute, one instruction for all lanes, at the step the
//   interpreter would run it, so events reach the listener in the same
//   order with the same steps;
// - control it does not keep (a divergent branch, a barrier, a call, a
//   return, an exit, a switch) returns to the interpreter at that
//   instruction, as does a block whose steps would reach a budget or cross
//   a step of the interpreter's periodic stop check; a block that starts at
//   such a step (each warp's first) runs the check first (Frame::check).
// Compiled code is cached per program and function (CodeCache): a search or
// a scan compiles a function once.
#pragma once

#include "ir/Program.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace simulee::jit {

struct Frame;
// Runs data instruction `pc` of the frame's function for the frame's lanes
// (the interpreter's own code). Frame::step and Frame::threadInstrs already
// count it.
using ExecuteFn = uint32_t (*)(Frame *frame, uint32_t pc);
// Sets the frame's window to the buffer whose pointers have the bits `tag`
// above their offset field; 0 when none may be (a thread's stack, a null or
// wild pointer, memory whose accesses compiled code may not make itself).
using WindowFn = uint32_t (*)(Frame *frame, uint64_t tag);
// Runs the interpreter's periodic stop check (cancellation, the time budget,
// memory) as the interpreter makes it before the instruction with
// program-wide id `instruction` at step Frame::step: kExecuted to go on,
// kFailed when the launch stops (the interpreter keeps why), kYield when the
// warp gives way to the block's other warps (the interpreter runs that
// instruction, where it lets them run first).
using CheckFn = uint32_t (*)(Frame *frame, uint32_t instruction);
// Fills Frame::localBase and Frame::localSize from the lanes' stacks.
using LocalFn = void (*)(Frame *frame);
// Sends the events of the load or store `pc` of the frame's function, which
// compiled code makes itself in the window's buffer for the frame's lanes,
// as the interpreter's access would (at the step before Frame::step).
using RecordFn = void (*)(Frame *frame, uint32_t pc);
// Saves the bytes the store `pc` of the frame's function is about to
// overwrite for the frame's lanes in the window's buffer, so that a chunk of
// blocks run in parallel can be undone (interp/ParallelBlocks.h's UndoLog).
using UndoFn = void (*)(Frame *frame, uint32_t pc);
// What ExecuteFn and CheckFn return.
enum ExecuteResult : uint32_t {
  kExecuted = 0,
  kLanesFaulted = 1, // lanes executed undefined behaviour and stop
  kFailed = 2,       // the launch stops with an error (the interpreter keeps it)
  kYield = 3,        // CheckFn: the warp gives way (the interpreter runs the instruction)
};

// The state compiled code runs on: one warp path, in one frame of its calls.
// Laid out for the generated code (offsets in Engine.cpp), plain data only.
struct Frame {
  uint64_t *regs;            // the frame's slots, slot-major: regs[slot * 32 + lane]
  const uint64_t *constants; // ir::Program::constants
  uint64_t step;             // the warp's steps (interp Warp::step), in and out
  uint64_t threadInstrs;     // the launch's thread-instructions, in and out
  uint64_t stepLimit;        // a warp past this many steps does not terminate
  uint64_t instrLimit;       // a launch past this many thread-instructions is too costly
  ExecuteFn execute;
  CheckFn check;
  void *context;        // the interpreter's, for execute and check
  uint32_t pc;          // in: where to start; out: see Exit
  uint32_t mask;        // the path's active lanes
  uint32_t reconv;      // the path's reconvergence point: compiled code stops there
  uint32_t activeLanes; // popcount(mask)
  // Loads and stores that stay in bounds of one buffer, aligned, compiled
  // code makes itself, in the buffer `window` found last, having `record`
  // send their events first unless no listener wants them; the interpreter
  // makes every other access. Any instruction the interpreter runs for
  // compiled code may move buffers (a heap allocation): it drops the window.
  uint32_t plainAccesses;  // 1: accesses of the window send no events (set with it)
  uint32_t windowWritable; // the window's buffer is global or shared memory
  uint32_t windowSpace;    // the window's interp::MemSpace
  uint32_t windowBuffer;   // and its buffer id, as events name it
  RecordFn record;
  // The window's accesses are claimed (global memory of blocks run in
  // parallel, interp/ParallelBlocks.h): compiled code makes only the loads
  // and stores `unclaimed` marks (by instruction id; null: none), which need
  // no claim, a store having `undo` save what it overwrites first.
  uint32_t windowClaimed;
  const uint8_t *unclaimed;
  UndoFn undo;
  WindowFn window;
  uint64_t windowTag; // ~0: none
  uint8_t *windowBase;
  uint64_t windowSizeBytes;
  // Each lane's local memory (its stack), which sends no event: compiled
  // code makes in-bounds aligned accesses of it itself, events or not.
  // Filled on first use (local), dropped with the window.
  LocalFn local;
  uint32_t localValid;
  uint64_t *localBase; // 32 addresses
  uint64_t *localSize; // 32 sizes in bytes
  // Builtins: threadIdx of each lane (x, y, z), and blockDim, blockIdx,
  // gridDim (ir::SpecialRegister's order from NTidX).
  const uint32_t *threadIds;
  uint64_t launchRegisters[9];
};

// Why compiled code returned; Frame::pc says where the interpreter goes on.
enum Exit : uint32_t {
  kNotEntered = 0,  // pc is not where compiled code starts: nothing ran
  kInterpretAt = 1, // the interpreter runs instruction pc next
  kBranched = 2,    // a uniform branch went to pc (the path's reconvergence point, or no
                    // entry): the interpreter goes on there as after its own branch
  kFaulted = 3,     // instruction pc - 1 faulted lanes (kLanesFaulted)
  kStopped = 4,     // instruction pc - 1 failed (kFailed)
};

using EntryFn = uint32_t (*)(Frame *frame);

// The interpreter checks for cancellation and its time budget at warp steps
// that are multiples of this (interp Launch::checkStop): compiled code
// makes the check at a block starting at such a step and leaves blocks
// crossing one to the interpreter.
constexpr uint64_t kStopCheckSteps = 0x1000;

// One function's compiled code: entered at the instructions `entries` marks
// (pc 0, branch targets, the instruction after one compiled code returns at).
struct CompiledFunction {
  EntryFn entry = nullptr;
  std::vector<bool> entries; // by pc
  bool entersAt(uint32_t pc) const { return pc < entries.size() && entries[pc]; }
};

// The compiled code of one program's functions, made on demand and kept for
// the program's life. Thread-safe.
class CodeCache {
public:
  virtual ~CodeCache() = default;
  // Function `function`'s code, compiling it on first use; null when it
  // cannot be compiled (why: failure()).
  virtual const CompiledFunction *compiled(const ir::Program &program, uint32_t function) = 0;
  // Whether `function`'s code was made already (by an earlier launch).
  virtual bool made(uint32_t function) const = 0;
  // Adds `warpSteps` interpreted steps of `function`; true once its total
  // passes `threshold` (the caller compiles it then).
  virtual bool hot(uint32_t function, uint64_t warpSteps, uint64_t threshold) = 0;
  // Why compilation failed ("" when nothing failed).
  virtual std::string failure() const = 0;
};

// The program's cache (ir::Program::compiledCode), made on first use.
CodeCache &codeCacheOf(const ir::Program &program);

} // namespace simulee::jit
