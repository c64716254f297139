// Edits that may repair a finding (DESIGN.md's repair proposals), applied to
// a copy of a program's LLVM IR, which is then lowered again: the session
// re-simulates the copy to prove or refute the edit. The program itself is
// never changed.
#pragma once

#include "ir/Program.h"
#include "support/Result.h"

#include <cstdint>

namespace simulee::ir {

enum class EditKind : uint8_t {
  // __syncthreads() just before `instruction`, or before the branch around it
  // when only some threads reach it (editLocation says where)
  InsertBlockBarrier,
  InsertWarpBarrier, // __syncwarp(), placed the same way
  MakeAtomic,         // a plain load or store becomes an atomic one (relaxed)
  // A read of an address and a write back of a value computed from it
  // (`x = *p; *p = x + v`, or atomicAdd(p, 0) then atomicExch(p, x + v))
  // become one atomic read-modify-write (atomicAdd(p, v)): `instruction` is
  // the read, `other` the write.
  FuseReadModifyWrite,
  // A read of an address and a later write to it that depends on what was
  // read (the value written is computed from it, or written only after a
  // check of it: `if (*best < v) *best = v`, `if (atomicAdd(n, 0) < limit)
  // atomicAdd(n, 1)`) become a compare-and-swap loop: the write happens only
  // if the address still holds the value read (atomicCAS), else the code
  // from the read on runs again. `instruction` is the read (made atomic if it
  // was plain), `other` the write (a store, or an atomic update). Applies
  // only where the code between the two writes nothing, waits for nothing
  // and talks to no other lane, so running it again changes nothing else.
  CompareAndSwapLoop,
  RemoveBarrier, // the barrier `instruction` is deleted
};

struct ProgramEdit {
  EditKind kind = EditKind::InsertBlockBarrier;
  uint32_t instruction = 0; // Program-wide instruction id
  uint32_t other = 0;       // FuseReadModifyWrite, CompareAndSwapLoop: the write
  // Insert*Barrier: at the end of the body of the innermost loop holding
  // `instruction` (each iteration ends with it) instead of just before it.
  bool atLoopEnd = false;
};

// Where the edit goes in the source: the instruction's location, or for a
// barrier the location of the instruction it is inserted before (a loop's
// branch back, the `if` around an access only some threads make).
SourceLocation editLocation(const Program &program, const ProgramEdit &edit);

// The source line where the innermost loop holding `instruction` starts (0:
// none, or no debug location).
uint32_t loopLine(const Program &program, uint32_t instruction);

// What a FuseReadModifyWrite makes of the pair: the CUDA function of the
// atomic ("atomicAdd"), or empty when the pair is not of a shape it fuses.
std::string fusedAtomicName(const Program &program, const ProgramEdit &edit);

// Whether `edit` applies to `program`'s IR (an instruction of the shape it
// needs); checked before anything is copied.
bool editApplies(const Program &program, const ProgramEdit &edit);

// A copy of `program` with `edit` applied, lowered. The instruction ids of
// the copy are its own; source locations are kept (an inserted barrier has
// the location of the instruction it precedes).
Result<Program> applyEdit(const Program &program, const ProgramEdit &edit);

} // namespace simulee::ir
