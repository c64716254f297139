#include "ir/ContentSteering.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <set>
#include <vector>

namespace simulee::ir {
namespace {

// libdevice's math (__nv_sinf): pure functions of their arguments, whose
// internal branches and constant-table reads change no access the model sees.
bool isPureMath(const llvm::Function &callee) {
  return callee.getName().starts_with("__nv_") || callee.getName().starts_with("llvm.nvvm.f") ||
         (callee.isIntrinsic() && callee.doesNotAccessMemory());
}

class Taint {
public:
  explicit Taint(const llvm::Function &kernel) { reach(kernel); }

  bool steers() {
    // Taint only grows: iterate to a fixed point, stopping at the first sink.
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t f = 0; f < functions_.size(); ++f)
        for (const llvm::BasicBlock &block : *functions_[f])
          for (const llvm::Instruction &inst : block) {
            Step step = visit(inst);
            if (step == Step::Steers)
              return true;
            changed |= step == Step::Changed;
          }
    }
    return false;
  }

private:
  enum class Step { Same, Changed, Steers };

  void reach(const llvm::Function &function) {
    if (function.isDeclaration() || !seen_.insert(&function).second)
      return;
    functions_.push_back(&function);
  }

  bool tainted(const llvm::Value *value) const { return tainted_.count(value) != 0; }
  Step taint(const llvm::Value *value) {
    return tainted_.insert(value).second ? Step::Changed : Step::Same;
  }
  bool anyOperandTainted(const llvm::User &user) const {
    for (const llvm::Use &operand : user.operands())
      if (tainted(operand.get()))
        return true;
    return false;
  }

  Step visitCall(const llvm::CallBase &call) {
    if (call.isInlineAsm())
      return Step::Steers;
    const llvm::Function *callee = call.getCalledFunction();
    if (!callee)
      return Step::Steers; // an indirect call: its target may hang on the data
    bool argTainted = false;
    for (const llvm::Use &arg : call.args())
      argTainted |= tainted(arg.get());
    if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&call)) {
      switch (intrinsic->getIntrinsicID()) {
      case llvm::Intrinsic::memcpy:
      case llvm::Intrinsic::memmove:
      case llvm::Intrinsic::memset:
        return argTainted ? Step::Steers : Step::Same; // addresses or lengths
      default:
        break;
      }
    }
    bool pure = isPureMath(*callee);
    if (!callee->isDeclaration() && !pure) {
      // A function of the kernel's: its parameters take the arguments' taint
      // and its result its returns' (see visit).
      reach(*callee);
      Step step = Step::Same;
      for (const llvm::Argument &param : callee->args())
        if (param.getArgNo() < call.arg_size() && tainted(call.getArgOperand(param.getArgNo())) &&
            taint(&param) == Step::Changed)
          step = Step::Changed;
      if (returnsTainted_.count(callee) && taint(&call) == Step::Changed)
        step = Step::Changed;
      return step;
    }
    if (pure)
      return argTainted ? taint(&call) : Step::Same;
    // Anything else declared (a builtin that reads memory: a texture fetch,
    // a shuffle, a vote): its result may come from memory or other lanes. A
    // tainted pointer is a tainted address; tainted numbers are harmless only
    // to intrinsics, whose effects simulee knows, and to printf.
    for (const llvm::Use &arg : call.args())
      if (tainted(arg.get()) &&
          (arg->getType()->isPointerTy() ||
           (!callee->isIntrinsic() && callee->getName() != "vprintf")))
        return Step::Steers;
    return call.getType()->isVoidTy() ? Step::Same : taint(&call);
  }

  Step visit(const llvm::Instruction &inst) {
    using llvm::dyn_cast;
    if (const auto *call = dyn_cast<llvm::CallBase>(&inst))
      return visitCall(*call);
    if (const auto *load = dyn_cast<llvm::LoadInst>(&inst))
      return tainted(load->getPointerOperand()) ? Step::Steers : taint(load);
    if (const auto *store = dyn_cast<llvm::StoreInst>(&inst))
      return tainted(store->getPointerOperand()) ? Step::Steers : Step::Same;
    if (const auto *rmw = dyn_cast<llvm::AtomicRMWInst>(&inst))
      return tainted(rmw->getPointerOperand()) ? Step::Steers : taint(rmw);
    if (const auto *cas = dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
      return tainted(cas->getPointerOperand()) ? Step::Steers : taint(cas);
    if (const auto *branch = dyn_cast<llvm::BranchInst>(&inst))
      return branch->isConditional() && tainted(branch->getCondition()) ? Step::Steers
                                                                         : Step::Same;
    if (const auto *choice = dyn_cast<llvm::SwitchInst>(&inst))
      return tainted(choice->getCondition()) ? Step::Steers : Step::Same;
    if (llvm::isa<llvm::IndirectBrInst>(inst))
      return Step::Steers;
    if (const auto *ret = dyn_cast<llvm::ReturnInst>(&inst)) {
      if (ret->getReturnValue() && tainted(ret->getReturnValue()) &&
          returnsTainted_.insert(inst.getFunction()).second)
        return Step::Changed;
      return Step::Same;
    }
    if (const auto *alloca = dyn_cast<llvm::AllocaInst>(&inst))
      return tainted(alloca->getArraySize()) ? Step::Steers : Step::Same;
    if (const auto *binary = dyn_cast<llvm::BinaryOperator>(&inst)) {
      switch (binary->getOpcode()) {
      case llvm::Instruction::UDiv: case llvm::Instruction::SDiv:
      case llvm::Instruction::URem: case llvm::Instruction::SRem:
      case llvm::Instruction::Shl: case llvm::Instruction::LShr: case llvm::Instruction::AShr:
        if (tainted(binary->getOperand(1)))
          return Step::Steers; // division by zero, an over-wide shift: undefined behaviour
        break;
      default:
        break;
      }
    }
    if ((llvm::isa<llvm::FPToSIInst>(inst) || llvm::isa<llvm::FPToUIInst>(inst)) &&
        tainted(inst.getOperand(0)))
      return Step::Steers; // an out-of-range conversion
    if (inst.getType()->isVoidTy() || !anyOperandTainted(inst))
      return Step::Same;
    return taint(&inst);
  }

  std::vector<const llvm::Function *> functions_;
  std::set<const llvm::Function *> seen_, returnsTainted_;
  std::set<const llvm::Value *> tainted_;
};

} // namespace

bool contentsSteer(const llvm::Function &kernel) { return Taint(kernel).steers(); }

} // namespace simulee::ir
