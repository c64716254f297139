// What a module needs between parsing and lowering so that code compiled
// against NVIDIA's headers runs in the interpreter: libdevice bodies for the
// math functions not implemented natively, header functions inlined into the
// user's code (and attributed to its lines), grid barriers made builtins
// (GridSync.h), inline PTX rewritten into IR, address-space tests answered
// from the pointer (SpacePredicates.h), indirect calls turned into run-time
// dispatches (IndirectCalls.h).
#pragma once

#include "support/Result.h"

#include <llvm/IR/Module.h>

namespace simulee::ir {

Status prepareModule(llvm::Module &module);

} // namespace simulee::ir
