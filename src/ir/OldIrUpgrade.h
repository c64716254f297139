// LLVM IR text from old clang releases (3.x: typed pointers, `load i32* %p`,
// `getelementptr %T* %p`, `call T (A)* @f`, `metadata !{...}` nodes, old
// debug intrinsics and locations, GKLEE-style `__shared__` sections and
// intrinsics such as `llvm.cuda.syncthreads`) rewritten into what LLVM 19's
// parser reads; LLVM's own upgrader does the rest while parsing. The loader
// uses it when the parser rejects a .ll file that looks old.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace simulee::ir {

// Whether `text` uses syntax LLVM dropped after 3.6 (the loader's test
// before it tries the rewrite).
bool looksLikeOldIr(llvm::StringRef text);

// The rewritten text and what is needed to finish the upgrade once parsed.
struct OldIrRewrite {
  std::string text;
  // The source file the old debug info names ("" = none found).
  std::string sourceFile, sourceDirectory;
  bool hadDebugInfo = false; // the text carried !dbg locations
};

OldIrRewrite rewriteOldIr(llvm::StringRef text);

// After parsing `rewrite.text`: old debug locations become DILocations (one
// synthetic subprogram per function, so findings keep their source lines),
// `__shared__`-section globals move to the shared address space, and old GPU
// intrinsics become the NVVM ones. What could not be kept is said in `notes`.
void finishOldIrUpgrade(llvm::Module &module, const OldIrRewrite &rewrite,
                        std::vector<std::string> &notes);

} // namespace simulee::ir
