// The SIMT interpreter: runs a lowered kernel for every thread of a launch,
// warps of 32 in lockstep, blocks one after another (blocks are never ordered
// with each other, so the order is free), emitting events to a listener.
// Blocks may run on several threads (RunOptions::jobs) with the result of
// running them one after another.
#pragma once

#include "interp/Events.h"
#include "interp/Launch.h"
#include "ir/Program.h"
#include "support/Result.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace simulee::interp {

struct RunStats {
  uint64_t threadInstrs = 0; // instructions executed, summed over threads
  uint64_t warpSteps = 0;    // lockstep steps, summed over warps
  // Blocks that ran on worker threads (RunOptions::jobs) rather than one
  // after another: those of chunks that stood.
  uint64_t blocksInParallel = 0;
  // Thread-instructions run by compiled code (RunOptions::engine), included
  // in threadInstrs.
  uint64_t compiledThreadInstrs = 0;
};

// Which engine runs a launch's instructions (jit/Engine.h). Both give the
// same memory contents, events and statistics.
enum class Engine : uint8_t {
  Auto,        // the interpreter, and compiled code for a function once it ran long
  Interpreter, // the interpreter alone (--engine interp)
  Compiled,    // compiled code for every function from its first instruction
};

struct RunOptions {
  ExecutionListener *listener = nullptr; // null: no events, no cost
  // Barrier instructions executed as no-ops: the kernel as if they were
  // deleted (the joint re-check of redundant barriers).
  std::vector<uint32_t> removedBarriers;
  // Set from another thread to stop the run early with kInterrupted (the
  // Python module's Ctrl-C); polled every few thousand steps of a warp.
  const std::atomic<bool> *cancel = nullptr;
  // Caller-owned device memory (`simulee exec`); null: none.
  BoundMemory *bound = nullptr;
  // Threads the blocks of the launch run on (interp/ParallelBlocks.h): 1,
  // the caller's alone; 0, one per hardware thread (as --jobs). The memory
  // contents, events and statistics are the same whatever the number.
  unsigned jobs = 1;
  Engine engine = Engine::Auto;
  // Instructions (by id) whose accesses the listener needs to hear only once
  // per warp and instruction, not per lane: compiled code sends one event,
  // the first active lane's, standing for all (AccessEvent::count). The
  // model's untracked accesses where nothing ranks the launch and nothing
  // else hears each access (session/Analysis.cpp). Empty: none.
  std::vector<bool> quietAccesses = {};
};

// The engine `name` ("auto", "interp", "compiled") names; Auto for any other.
Engine engineNamed(const std::string &name);

// Interpreted warp steps of a function of up to kCompileUnitInstrs lowered
// instructions (over every launch of its program) after which Engine::Auto
// compiles it, and as many again per such unit of a larger function: about
// as long as compiling it takes (tens of milliseconds per unit), so that a
// function that never runs long is never compiled and one that does costs
// at most about twice the best choice. Where a listener hears every access
// (the model), accesses cost most of the time and compiled code saves less:
// kCompileLaterWithAccesses times as many steps. A launch that will pass
// that many steps by itself (its blocks so far, as many again for each block
// still to come) has the function compiled once its first block ended: the
// launch alone pays the compilation back.
constexpr uint64_t kCompileAfterWarpSteps = uint64_t(1) << 19;
constexpr uint64_t kCompileUnitInstrs = 128;
constexpr uint64_t kCompileLaterWithAccesses = 8;

// The error a cancelled run ends with.
constexpr const char *kInterrupted = "interrupted";

// Runs one launch. `args` holds one value per kernel parameter in order;
// buffer arguments are updated in place. Errors (an unsupported instruction,
// the instruction budget exceeded, a trap) name the kernel, the instruction
// and its source line.
Result<RunStats> runKernel(const ir::Program &program, const ir::KernelInfo &kernel,
                           const LaunchConfig &config, std::vector<ArgumentValue> &args,
                           const RunOptions &options = {});

} // namespace simulee::interp
