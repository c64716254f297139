#include "ir/SharedWindows.h"

#include "ir/PointerEncoding.h"

#include <llvm/IR/Instructions.h>

#include <vector>

namespace simulee::ir {

llvm::Value *sharedWindowOf(llvm::IRBuilderBase &builder, llvm::Value *bits) {
  llvm::Value *buffer = builder.CreateSub(
      builder.CreateAnd(builder.CreateLShr(bits, kOffsetBits), kBufferMask), builder.getInt64(1));
  llvm::Value *offset =
      builder.CreateSub(builder.CreateAnd(bits, kOffsetMask), builder.getInt64(kOffsetBias));
  return builder.CreateOr(builder.CreateShl(builder.CreateAnd(buffer, kSharedWindowBufferMask),
                                            kSharedWindowOffsetBits),
                          builder.CreateAnd(offset, kSharedWindowOffsetMask));
}

llvm::Value *pointerOfSharedWindow(llvm::IRBuilderBase &builder, llvm::Value *window) {
  llvm::Value *wide = builder.CreateZExtOrTrunc(window, builder.getInt64Ty());
  llvm::Value *buffer =
      builder.CreateAnd(builder.CreateLShr(wide, kSharedWindowOffsetBits), kSharedWindowBufferMask);
  llvm::Value *offset = builder.CreateAnd(wide, kSharedWindowOffsetMask);
  llvm::Value *bits = builder.CreateOr(
      builder.CreateOr(
          builder.getInt64(uint64_t(PointerSpace::Shared) << 62),
          builder.CreateShl(builder.CreateAdd(buffer, builder.getInt64(1)), kOffsetBits)),
      builder.CreateAdd(offset, builder.getInt64(kOffsetBias)));
  return builder.CreateIntToPtr(bits, builder.getPtrTy());
}

bool lowerSharedWindows(llvm::Module &module) {
  std::vector<llvm::Instruction *> found;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block) {
        if (auto *toInt = llvm::dyn_cast<llvm::PtrToIntInst>(&inst);
            toInt && toInt->getPointerAddressSpace() == 3)
          found.push_back(&inst);
        if (auto *toPointer = llvm::dyn_cast<llvm::IntToPtrInst>(&inst);
            toPointer && toPointer->getAddressSpace() == 3)
          found.push_back(&inst);
      }
  for (llvm::Instruction *inst : found) {
    llvm::IRBuilder<> builder(inst);
    llvm::Value *replacement;
    if (auto *toInt = llvm::dyn_cast<llvm::PtrToIntInst>(inst)) {
      llvm::Value *bits = builder.CreatePtrToInt(toInt->getPointerOperand(), builder.getInt64Ty());
      replacement = builder.CreateZExtOrTrunc(sharedWindowOf(builder, bits), inst->getType());
    } else {
      llvm::Value *pointer = pointerOfSharedWindow(builder, inst->getOperand(0));
      replacement = builder.CreateAddrSpaceCast(pointer, inst->getType());
    }
    inst->replaceAllUsesWith(replacement);
    inst->eraseFromParent();
  }
  return !found.empty();
}

} // namespace simulee::ir
