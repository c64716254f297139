#include "ir/GridSync.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace simulee::ir {
namespace {

// The cooperative_groups function `loc`'s instruction was inlined from, at
// any depth: "sync_grids_arrive", "sync_grids_wait", or empty.
llvm::StringRef gridBarrierPart(const llvm::DILocation *loc) {
  for (; loc; loc = loc->getInlinedAt()) {
    const llvm::DISubprogram *subprogram = loc->getScope()->getSubprogram();
    if (!subprogram || !subprogram->getLinkageName().contains("cooperative_groups"))
      continue;
    llvm::StringRef name = subprogram->getName();
    if (name == "sync_grids_arrive" || name == "sync_grids_wait")
      return name;
  }
  return "";
}

// The builtin a call of the grid barrier becomes: the counter update of the
// arrive, the counter read of the wait's spin loop, and their block barriers.
const char *builtinFor(const llvm::CallInst &call) {
  llvm::StringRef part = gridBarrierPart(call.getDebugLoc().get());
  if (part.empty())
    return nullptr;
  if (const llvm::Function *callee = call.getCalledFunction()) {
    llvm::StringRef name = callee->getName();
    bool blockBarrier = name == "_Z14__barrier_syncj" || name == "llvm.nvvm.barrier0" ||
                        name == "llvm.nvvm.barrier.sync";
    return blockBarrier ? kGridBlockBarrierFunction : nullptr;
  }
  auto *asmValue = llvm::dyn_cast<llvm::InlineAsm>(call.getCalledOperand());
  if (!asmValue || !call.getType()->isIntegerTy(32) || call.arg_size() < 1)
    return nullptr;
  llvm::StringRef text = llvm::StringRef(asmValue->getAsmString()).trim();
  if (part == "sync_grids_arrive" && text.starts_with("atom.add"))
    return kGridArriveFunction;
  if (part == "sync_grids_wait" && text.starts_with("ld."))
    return kGridWaitFunction;
  return nullptr;
}

} // namespace

bool lowerGridSync(llvm::Module &module) {
  std::vector<std::pair<llvm::CallInst *, const char *>> found;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
          if (const char *builtin = builtinFor(*call))
            found.emplace_back(call, builtin);
  for (auto [call, builtin] : found) {
    llvm::IRBuilder<> builder(call);
    llvm::CallInst *replacement;
    if (builtin == kGridBlockBarrierFunction) {
      replacement = builder.CreateCall(
          module.getOrInsertFunction(builtin, llvm::FunctionType::get(builder.getVoidTy(), false)));
    } else {
      llvm::Value *counter = call->getArgOperand(0);
      replacement = builder.CreateCall(
          module.getOrInsertFunction(
              builtin, llvm::FunctionType::get(builder.getInt32Ty(), {counter->getType()}, false)),
          {counter});
      call->replaceAllUsesWith(replacement);
    }
    replacement->setDebugLoc(call->getDebugLoc());
    call->eraseFromParent();
  }
  return !found.empty();
}

} // namespace simulee::ir
