// Grid-wide synchronization (cooperative groups' this_grid().sync()) as the
// interpreter runs it. NVIDIA's implementation is a spin barrier: each
// block's first thread adds to a counter in the driver's grid workspace
// (`atom.add.release.gpu`) and spins on it (`ld.acquire.gpu`) until the last
// block flips its top bit. Blocks simulated one after another would spin
// forever, so the two statements become calls of simulee's grid barrier
// builtins: the arrive returns 0, and the wait, which returns a flipped
// counter, is where the interpreter parks the block until every block of
// the grid has arrived (interp, Op::GridBarrier).
//
// The block barriers of those two functions (`__barrier_sync(0)` before the
// arrive and after the wait) stay barriers, but become a builtin of their own
// so that they are never advised away: without them the block's other
// threads would not wait for the grid.
//
// The statements are recognised by the function they were inlined from
// (debug information names cooperative_groups' sync_grids_arrive and
// sync_grids_wait): the same PTX in other code (cuda::atomic_ref) is left
// as it is.
#pragma once

#include <llvm/IR/Module.h>

namespace simulee::ir {

// The builtins the grid barrier's statements become.
inline constexpr const char *kGridArriveFunction = "__simulee_grid_arrive";
inline constexpr const char *kGridWaitFunction = "__simulee_grid_wait";
inline constexpr const char *kGridBlockBarrierFunction = "__simulee_grid_block_barrier";

// Rewrites every grid barrier statement of `module`; whether it found any.
bool lowerGridSync(llvm::Module &module);

} // namespace simulee::ir
