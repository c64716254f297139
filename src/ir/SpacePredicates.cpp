#include "ir/SpacePredicates.h"

#include "ir/PointerEncoding.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <optional>
#include <vector>

namespace simulee::ir {
namespace {

std::optional<PointerSpace> spaceAsked(llvm::StringRef intrinsic) {
  if (!intrinsic.consume_front("llvm.nvvm.isspacep."))
    return std::nullopt;
  if (intrinsic == "global")
    return PointerSpace::Global;
  if (intrinsic == "shared")
    return PointerSpace::Shared;
  if (intrinsic == "local")
    return PointerSpace::Local;
  if (intrinsic == "const")
    return PointerSpace::Constant;
  return std::nullopt;
}

} // namespace

void lowerSpacePredicates(llvm::Module &module) {
  for (llvm::Function &function : module) {
    std::optional<PointerSpace> space = spaceAsked(function.getName());
    if (!space)
      continue;
    std::vector<llvm::CallInst *> calls;
    for (llvm::User *user : function.users())
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(user);
          call && call->getCalledFunction() == &function)
        calls.push_back(call);
    for (llvm::CallInst *call : calls) {
      llvm::IRBuilder<> builder(call);
      llvm::Type *i64 = builder.getInt64Ty();
      llvm::Value *bits = builder.CreatePtrToInt(call->getArgOperand(0), i64);
      llvm::Value *inSpace = builder.CreateICmpEQ(builder.CreateLShr(bits, 62),
                                                  llvm::ConstantInt::get(i64, uint64_t(*space)));
      llvm::Value *buffer = builder.CreateAnd(builder.CreateLShr(bits, kOffsetBits), kBufferMask);
      llvm::Value *notNull = builder.CreateICmpNE(buffer, llvm::ConstantInt::get(i64, 0));
      llvm::Value *notFunction =
          builder.CreateICmpNE(builder.CreateLShr(bits, 60), llvm::ConstantInt::get(i64, 0xF));
      llvm::Value *answer =
          builder.CreateAnd(builder.CreateAnd(inSpace, notNull), notFunction, "isspacep");
      call->replaceAllUsesWith(answer);
      call->eraseFromParent();
    }
  }
}

} // namespace simulee::ir
