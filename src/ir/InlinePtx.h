// Inline PTX (`asm`/`asm volatile` in CUDA source, as CUB and hand-tuned
// kernels use it) rewritten into ordinary LLVM IR before lowering: special
// registers, integer and bit arithmetic (with .cc carry chains), compares,
// conversions, loads and stores, atomics, shuffles, votes, matches, fences
// and barriers become the instructions and NVVM intrinsics the interpreter
// already runs, so detectors see them like any other access or barrier.
#pragma once

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <string>

namespace simulee::ir {

// Rewrites every inline-asm call of `module` it understands. A statement it
// does not understand is left in place, marked with the reason.
void lowerInlinePtx(llvm::Module &module);

// Why an inline-asm call was left in place: "PTX instruction 'foo.bar'
// (inline assembly 'text')".
std::string describeUnloweredAsm(const llvm::CallInst &call);

} // namespace simulee::ir
