#include "ir/HeaderInlining.h"

#include "ir/CudaInstallation.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/Path.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <vector>

namespace simulee::ir {
namespace {

class HeaderFiles {
public:
  bool contains(const llvm::DIFile *file) {
    if (!file)
      return false;
    auto [it, inserted] = known_.try_emplace(file, false);
    if (inserted) {
      llvm::SmallString<256> path(file->getFilename());
      if (!llvm::sys::path::is_absolute(path)) {
        path = file->getDirectory();
        llvm::sys::path::append(path, file->getFilename());
      }
      it->second = isCudaHeader(path);
    }
    return it->second;
  }
  bool contains(const llvm::Function &function) {
    const llvm::DISubprogram *subprogram = function.getSubprogram();
    return subprogram && contains(subprogram->getFile());
  }

private:
  llvm::DenseMap<const llvm::DIFile *, bool> known_;
};

// The outermost location of `loc`'s inlining chain that lies in user code,
// or null when every frame is in a header.
const llvm::DILocation *userLocation(const llvm::DILocation *loc, HeaderFiles &headers) {
  if (!headers.contains(loc->getFile()))
    return nullptr; // already user code
  for (const llvm::DILocation *frame = loc->getInlinedAt(); frame; frame = frame->getInlinedAt())
    if (!headers.contains(frame->getFile()))
      return frame;
  return nullptr;
}

} // namespace

void inlineCudaHeaderFunctions(llvm::Module &module) {
  HeaderFiles headers;
  // Inline every call to a header function, repeatedly: a callee's body may
  // call further header functions. Recursive ones stay calls.
  std::vector<llvm::CallBase *> calls;
  for (unsigned round = 0; round < 16; ++round) {
    calls.clear();
    for (llvm::Function &function : module)
      for (llvm::BasicBlock &block : function)
        for (llvm::Instruction &inst : block)
          if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
            if (llvm::Function *callee = call->getCalledFunction();
                callee && !callee->isDeclaration() && callee != &function &&
                headers.contains(*callee) && !callee->isVarArg())
              calls.push_back(call);
    if (calls.empty())
      break;
    for (llvm::CallBase *call : calls) {
      llvm::InlineFunctionInfo info;
      (void)llvm::InlineFunction(*call, info);
    }
  }
  // Header functions nobody calls any more.
  for (llvm::Function &function : llvm::make_early_inc_range(module))
    if (!function.isDeclaration() && function.use_empty() && function.isDiscardableIfUnused() &&
        headers.contains(function))
      function.eraseFromParent();
  // Instructions that came from headers speak for the user's calling line.
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block)
        if (const llvm::DILocation *loc = inst.getDebugLoc().get())
          if (const llvm::DILocation *user = userLocation(loc, headers)) {
            inst.setDebugLoc(llvm::DILocation::get(module.getContext(), user->getLine(),
                                                   user->getColumn(), user->getScope(),
                                                   user->getInlinedAt()));
            inst.setMetadata(kFromHeaderMetadata, llvm::MDNode::get(module.getContext(), {}));
          }
}

bool insideOneHeaderCall(const llvm::Instruction &a, const llvm::Instruction &b) {
  return a.getMetadata(kFromHeaderMetadata) && b.getMetadata(kFromHeaderMetadata) &&
         a.getDebugLoc() && a.getDebugLoc().get() == b.getDebugLoc().get();
}

} // namespace simulee::ir
