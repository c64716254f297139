// Functions from NVIDIA's and clang's CUDA headers (atomicAdd, the builtin
// variables' conversions, CUB's templates) are inlined into their callers and
// their instructions attributed to the user's line that called them, the way
// the toolkit's own headers behave in a debugger: a race inside atomicAdd is
// reported on the user's atomicAdd line.
#pragma once

#include <llvm/IR/Module.h>

namespace simulee::ir {

// The metadata kind that marks an instruction inlined from a header (an
// empty node): after inlining, its location is the user's call.
inline constexpr const char *kFromHeaderMetadata = "simulee.from.header";

void inlineCudaHeaderFunctions(llvm::Module &module);

// Whether `a` and `b` both came from inside one call the user wrote to a
// header function (one inlined body, at the same call location): the
// library's own protocol (libcu++'s barrier arrival), not code of the user's.
bool insideOneHeaderCall(const llvm::Instruction &a, const llvm::Instruction &b);

} // namespace simulee::ir
