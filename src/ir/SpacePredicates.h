// PTX's address-space predicates (`isspacep.shared`, `__isShared(p)` in
// CUDA source: llvm.nvvm.isspacep.<space>) answered from the pointer's own
// encoding (PointerEncoding.h), which names its space: libcu++'s block
// barrier and pipeline ask them of the object they are given, and so does
// code that treats shared and global memory apart.
#pragma once

#include <llvm/IR/Module.h>

namespace simulee::ir {

// Replaces every call of llvm.nvvm.isspacep.{global,shared,local,const} in
// `module` with the test of its pointer's space bits: true for a pointer
// into a variable or allocation of that space, false for null and for
// function addresses.
void lowerSpacePredicates(llvm::Module &module);

} // namespace simulee::ir
