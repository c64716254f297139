// Repair proposals, proven by re-simulation (`--repair`, DESIGN.md): for
// each data race, atomicity violation and redundant barrier of an analysis,
// simulee proposes edits (ir/ProgramEdit.h), applies each to a copy of the
// program's IR and re-runs the launch that showed the finding and the
// search's best launch on the copy. A proposal is proven when, in every one
// of those launches, the finding is gone and no finding appears that the
// analysis did not have; only proven proposals are kept (Finding::repairs).
//
// Proposals, in the order they are tried:
//  - data race in one block: __syncthreads() (__syncwarp() for two lanes of
//    one warp) just before the later access in the code, then the earlier;
//  - data race of a read and a write back of a value computed from it
//    (`hist[b]++`): one atomic read-modify-write (atomicAdd);
//  - data race of an atomic and a plain access: the plain access made
//    atomic (never two plain stores: atomics would only hide which value
//    wins);
//  - read-write-write atomicity violation: the pair as one atomicAdd (or
//    Sub, Or, And, Xor);
//  - redundant barrier (one that can go alone): the barrier removed.
// Not proposed: a CAS loop for pairs no single atomic does, or any edit to
// launches simulee did not choose (`simulee exec`'s).
#pragma once

#include "session/Analysis.h"

namespace simulee::session {

void proveRepairs(const ir::Program &program, const ir::KernelInfo &kernel,
                  KernelAnalysis &analysis, const AnalysisOptions &options);

} // namespace simulee::session
