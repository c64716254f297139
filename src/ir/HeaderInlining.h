// Functions from NVIDIA's and clang's CUDA headers (atomicAdd, the builtin
// variables' conversions, CUB's templates) are inlined into their callers and
// their instructions attributed to the user's line that called them, the way
// the toolkit's own headers behave in a debugger: a race inside atomicAdd is
// reported on the user's atomicAdd line.
#pragma once

#include <llvm/IR/Module.h>

namespace simulee::ir {

void inlineCudaHeaderFunctions(llvm::Module &module);

} // namespace simulee::ir
