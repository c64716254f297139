// Calls through function pointers (dispatch tables, callbacks, virtual calls
// through vtables) resolved at run time: each indirect call becomes a
// dispatch over the module's candidate targets, so the interpreter only ever
// runs direct calls and a warp whose lanes call different functions diverges
// and reconverges like at any branch.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Module.h>

namespace simulee::ir {

// The function a dispatch calls when the pointer is none of its candidates:
// `void (ptr)`, lowered to an error naming the kernel, the thread and the line.
constexpr llvm::StringRef kBadIndirectCallName = "__simulee_call_through_non_function";

// Rewrites every indirect call of `module` into compares of the called
// pointer against each defined function whose address the module takes and
// whose type is the call's, each followed by a direct call of that function;
// no match calls kBadIndirectCallName.
void resolveIndirectCalls(llvm::Module &module);

} // namespace simulee::ir
