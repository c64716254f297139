#include "ir/IndirectCalls.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

namespace simulee::ir {
namespace {

// Functions an indirect call may reach: defined here, address taken (stored
// in a table or vtable, passed as a value) by something other than a call.
llvm::SmallVector<llvm::Function *> addressTakenFunctions(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *> result;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        function.hasAddressTaken(nullptr, /*IgnoreCallbackUses=*/false,
                                 /*IgnoreAssumeLikeCalls=*/true, /*IgnoreLLVMUsed=*/true))
      result.push_back(&function);
  return result;
}

llvm::FunctionCallee badCallFunction(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  return module.getOrInsertFunction(
      kBadIndirectCallName, llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                                    {llvm::PointerType::get(context, 0)}, false));
}

// head: if (fp == f0) call f0 else if (fp == f1) call f1 ... else bad call;
// the results meet in a phi where the call was.
void dispatch(llvm::CallInst &call, llvm::ArrayRef<llvm::Function *> candidates,
              llvm::FunctionCallee badCall) {
  llvm::LLVMContext &context = call.getContext();
  llvm::BasicBlock *head = call.getParent();
  llvm::Function *caller = head->getParent();
  llvm::BasicBlock *join = head->splitBasicBlock(&call, "icall.join");
  head->getTerminator()->eraseFromParent();

  llvm::Value *callee = call.getCalledOperand();
  llvm::SmallVector<llvm::Value *> args(call.args());
  llvm::PHINode *result = nullptr;
  llvm::IRBuilder<> builder(join, join->begin());
  if (!call.getType()->isVoidTy())
    result = builder.CreatePHI(call.getType(), unsigned(candidates.size()), "icall.result");

  llvm::BasicBlock *test = head;
  for (llvm::Function *target : candidates) {
    builder.SetInsertPoint(test);
    builder.SetCurrentDebugLocation(call.getDebugLoc());
    llvm::Value *pointer = builder.CreatePointerBitCastOrAddrSpaceCast(callee, target->getType());
    llvm::Value *matches = builder.CreateICmpEQ(pointer, target, "icall.is");
    auto *direct = llvm::BasicBlock::Create(context, "icall." + target->getName(), caller, join);
    auto *next = llvm::BasicBlock::Create(context, "icall.next", caller, join);
    builder.CreateCondBr(matches, direct, next);

    builder.SetInsertPoint(direct);
    llvm::CallInst *directCall = builder.CreateCall(target->getFunctionType(), target, args);
    directCall->setCallingConv(target->getCallingConv());
    directCall->setAttributes(call.getAttributes());
    directCall->setDebugLoc(call.getDebugLoc());
    builder.CreateBr(join);
    if (result)
      result->addIncoming(directCall, direct);
    test = next;
  }
  builder.SetInsertPoint(test);
  llvm::Value *asGeneric = builder.CreatePointerBitCastOrAddrSpaceCast(
      callee, badCall.getFunctionType()->getParamType(0));
  builder.CreateCall(badCall, {asGeneric})->setDebugLoc(call.getDebugLoc());
  builder.CreateUnreachable();

  if (result)
    call.replaceAllUsesWith(result);
  call.eraseFromParent();
}

} // namespace

void resolveIndirectCalls(llvm::Module &module) {
  llvm::SmallVector<llvm::CallInst *> indirect;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
          if (!call->getCalledFunction() && !call->isInlineAsm())
            indirect.push_back(call);
  if (indirect.empty())
    return;
  llvm::SmallVector<llvm::Function *> targets = addressTakenFunctions(module);
  llvm::FunctionCallee badCall = badCallFunction(module);
  for (llvm::CallInst *call : indirect) {
    llvm::SmallVector<llvm::Function *> candidates;
    for (llvm::Function *target : targets)
      if (target->getFunctionType() == call->getFunctionType())
        candidates.push_back(target);
    dispatch(*call, candidates, badCall);
  }
}

} // namespace simulee::ir
