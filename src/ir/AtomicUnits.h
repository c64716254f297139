// Pairs of one thread's atomic accesses that the code means as one step
// (DESIGN.md, "Atomicity violation"): the candidates the memory model
// watches for another thread's access falling between them.
//
// A pair (first, second) of atomic accesses in one function, second executed
// after first, counts as meant as one step only with evidence in the code
// that the second depends on what the first read ("flows" below: through
// registers, casts, arithmetic, phis and selects; "any" also through
// comparisons, "data" not):
//
//   first reads (an atomic load, atomicAdd(p, 0)):
//     - read-write-write: second writes (atomicExch, atomicAdd, a store) a
//       value that flows from first's result (lost update);
//     - check-then-act: second writes under a branch whose condition flows
//       from first's result (only taken on that edge);
//     - read-write-read: second reads under such a branch and its result is
//       used (checked, then read again).
//   first writes and returns what it replaced (atomicExch, atomicAdd):
//     - write-read-write: second writes a value whose data flows from first's
//       result (put back, or replaced from it): another thread sees the first
//       write's value in between.
//   first sets a value (atomicExch, an atomic store):
//     - write-write-read: second reads the same address and its result is
//       used as data (stored, passed, returned; not only compared): the
//       thread expects its own value back.
//
// Not meant as one step, so never a candidate: the same instruction twice
// (a loop polling or retrying); a compare-and-swap whose expected value flows
// from first (the CAS itself validates the read: a correct retry loop); a
// second update that moves the value one way only (atomicMax/Min/Or/And: a
// monotonic flag or bound is correct whatever came between); a check on the
// result of an update (a ticket: atomicInc's old value says who came last,
// and nobody can come between); a write-first pair whose second write is a
// constant or only guarded by first (a lock's release, an undone increment);
// a pair inside one call of a CUDA header function (the library's own
// protocol, as libcu++'s barrier arrival: HeaderInlining.h).
#pragma once

#include "ir/Program.h"

#include <set>
#include <vector>

namespace llvm {
class Function;
class Instruction;
class LoadInst;
class Value;
} // namespace llvm

namespace simulee::ir {

// What `inst` does as an atomic access; AtomicRole::None for anything else.
AtomicRole atomicRoleOf(const llvm::Instruction &inst);

struct AtomicUnitCandidate {
  const llvm::Instruction *first = nullptr;
  const llvm::Instruction *second = nullptr;
  AtomicityPattern pattern = AtomicityPattern::ReadWriteWrite;
};

// Whether `load`, a plain load, seeds a compare-and-swap retry loop: its
// value is the expected operand of a compare-and-swap of the same address,
// directly, through bit casts, or through the phi that carries the swap's
// result into the next try (old = *p; do { assumed = old; old =
// atomicCAS(p, assumed, f(assumed)); } while (old != assumed)). A stale
// value only makes the swap fail and the loop try again, so the read is as
// good as an atomic one (a GPU's aligned load is single-copy atomic) and is
// judged as one: it races with no other atomic.
bool seedsCompareAndSwap(const llvm::LoadInst &load);

// `inst` and every value computed from its result through registers
// (arithmetic, casts, comparisons, phis, selects, pure intrinsics): what the
// code derives from what `inst` read.
std::set<const llvm::Value *> valuesComputedFrom(const llvm::Instruction &inst);

// Every pair of `function`'s own atomic accesses meant as one step, in
// instruction order of first, then second.
std::vector<AtomicUnitCandidate> atomicUnits(const llvm::Function &function);

} // namespace simulee::ir
