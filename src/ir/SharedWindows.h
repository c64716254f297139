// Shared-memory addresses as 32-bit integers (PTX's shared window), which
// sm_80 code hands to inline PTX: libcu++'s mbarrier and cp.async take
// `__cvta_generic_to_shared(p)` truncated to 32 bits. simulee's pointers
// carry their space and variable in the top bits (ir/PointerEncoding.h), so
// an address-space-3 pointer converted to an integer becomes its window
// form (variable and offset, kSharedWindowOffsetBits), and back.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace simulee::ir {

// The window address (i64) of the encoded pointer bits `bits` (i64).
llvm::Value *sharedWindowOf(llvm::IRBuilderBase &builder, llvm::Value *bits);

// The generic pointer a window address (an integer of any width) names.
llvm::Value *pointerOfSharedWindow(llvm::IRBuilderBase &builder, llvm::Value *window);

// Rewrites every ptrtoint of an address-space-3 pointer into its window
// address and every inttoptr to address space 3 from one; whether it found any.
bool lowerSharedWindows(llvm::Module &module);

} // namespace simulee::ir
