#include "jit/Engine.h"

#include "ir/PointerEncoding.h"

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>

#include <atomic>
#include <cstddef>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>

namespace simulee::jit {
namespace {

using ir::Instr;
using ir::Op;

constexpr unsigned kLanes = 32;

// The bits above the offset field of a pointer into a thread's stack (the
// interpreter's Alloca: local buffer 0).
constexpr uint64_t kLocalTag = ir::encodePointer(ir::PointerSpace::Local, 0, 0) & ~ir::kOffsetMask;

// A GPU's float NaN (interp::kCanonicalNan32, above this part).
constexpr uint64_t kCanonicalNan32 = 0x7fffffff;

uint64_t widthMask(unsigned width) {
  return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

bool isWholeBytes(unsigned width) {
  return width == 8 || width == 16 || width == 32 || width == 64;
}

// The math functions compiled code computes as the interpreter's C++ does
// (correctly rounded, or exact: interp::mathUnary), by the LLVM intrinsic of
// each; Rsqrt and Rcp then take 1 / it (two roundings and one, as in C++),
// Rcp of x itself (no intrinsic).
const std::map<ir::MathFunction, llvm::Intrinsic::ID> &compiledMath() {
  using F = ir::MathFunction;
  static const std::map<F, llvm::Intrinsic::ID> intrinsics = {
      {F::Sqrt, llvm::Intrinsic::sqrt},         {F::Rsqrt, llvm::Intrinsic::sqrt},
      {F::Rcp, llvm::Intrinsic::not_intrinsic}, {F::Fabs, llvm::Intrinsic::fabs},
      {F::Floor, llvm::Intrinsic::floor},       {F::Ceil, llvm::Intrinsic::ceil},
      {F::Trunc, llvm::Intrinsic::trunc},       {F::Round, llvm::Intrinsic::round},
      {F::Rint, llvm::Intrinsic::nearbyint},    {F::NearbyInt, llvm::Intrinsic::nearbyint}};
  return intrinsics;
}

// The integer functions compiled code computes (interp::intUnary,
// interp::intBinary).
bool isCompiledIntFunction(ir::IntFunction f) {
  using F = ir::IntFunction;
  switch (f) {
  case F::Popc:
  case F::Clz:
  case F::Ctz:
  case F::Ffs:
  case F::Abs:
  case F::SMin:
  case F::SMax:
  case F::UMin:
  case F::UMax:
    return true;
  default:
    return false;
  }
}

// What compiled code does with an instruction.
enum class Handling : uint8_t {
  Inline,    // native code of its own (with the interpreter for unusual lanes)
  Execute,   // the interpreter runs it, through Frame::execute
  Interpret, // control compiled code does not keep: it returns to the interpreter here
  Branch,    // Br and CondBr: compiled when uniform
};

Handling handlingOf(const Instr &in) {
  switch (in.op) {
  case Op::Nop:
  case Op::Move:
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::SExt:
  case Op::Trunc:
  case Op::Select:
  case Op::PtrAdd:
  case Op::Shl:
  case Op::LShr:
  case Op::AShr:
    return Handling::Inline;
  case Op::ICmp: // a predicate the interpreter knows
    return in.flags <= uint8_t(ir::IntPredicate::SLE) ? Handling::Inline : Handling::Execute;
  case Op::Load:
  case Op::Store: // the common access; the interpreter makes the others
    return in.imm == 1 || in.imm == 2 || in.imm == 4 || in.imm == 8 ? Handling::Inline
                                                                    : Handling::Execute;
  case Op::PtrAddScaled:
    // With a 32-bit scale, an index in 32 bits cannot overflow the product:
    // compiled code leaves larger ones to the interpreter's overflow check.
    return int64_t(in.imm) > INT32_MIN && int64_t(in.imm) < INT32_MAX ? Handling::Inline
                                                                      : Handling::Execute;
  case Op::FAdd:
  case Op::FSub:
  case Op::FMul:
  case Op::FDiv:
  case Op::Fma: // rounded to nearest; the interpreter rounds in the other directions
    return (in.width == 32 || in.width == 64) && in.flags == 0 ? Handling::Inline
                                                               : Handling::Execute;
  case Op::FCmp:
    return in.width == 32 || in.width == 64 ? Handling::Inline : Handling::Execute;
  case Op::SpecialReg:
    return ir::SpecialRegister(in.flags) <= ir::SpecialRegister::LaneId ||
                   ir::SpecialRegister(in.flags) == ir::SpecialRegister::WarpSize
               ? Handling::Inline
               : Handling::Execute;
  case Op::FNeg:
    return in.width == 32 || in.width == 64 ? Handling::Inline : Handling::Execute;
  case Op::UDiv: // lanes dividing by zero or overflowing: the interpreter, which reports them
  case Op::SDiv:
  case Op::URem:
  case Op::SRem:
    return Handling::Inline;
  case Op::FPConv: // between float and double
    return (in.width == 32 && in.imm == 64) || (in.width == 64 && in.imm == 32) ? Handling::Inline
                                                                                : Handling::Execute;
  case Op::FPToUI:
  case Op::FPToSI:
    return (in.imm == 32 || in.imm == 64) && isWholeBytes(in.width) ? Handling::Inline
                                                                    : Handling::Execute;
  case Op::UIToFP:
  case Op::SIToFP: // rounded to nearest, as C++ converts
    return (in.width == 32 || in.width == 64) && isWholeBytes(unsigned(in.imm)) &&
                   ir::RoundingMode(in.flags) == ir::RoundingMode::Nearest
               ? Handling::Inline
               : Handling::Execute;
  case Op::MathUnary:
    return (in.width == 32 || in.width == 64) && in.imm == in.width &&
                   compiledMath().contains(ir::MathFunction(in.flags))
               ? Handling::Inline
               : Handling::Execute;
  case Op::IntUnary:
  case Op::IntBinary:
    return isCompiledIntFunction(ir::IntFunction(in.flags)) ? Handling::Inline : Handling::Execute;
  case Op::Br:
  case Op::CondBr:
    return Handling::Branch;
  case Op::Barrier:
  case Op::NamedBarrier:
  case Op::GridBarrier:
  case Op::Exit:
  case Op::Switch:
  case Op::Call:
  case Op::Ret:
  case Op::Trap:
  case Op::Unreachable:
    return Handling::Interpret;
  default:
    return Handling::Execute;
  }
}

// Whether compiled code runs instruction `pc` itself (natively or through
// Frame::execute); the others are the interpreter's, as is an instruction
// that is no branch but ends the code (it falls off the function: the
// interpreter says so).
bool compiledAt(const ir::Function &fn, size_t pc) {
  Handling handling = handlingOf(fn.code[pc]);
  if (handling == Handling::Interpret)
    return false;
  return handling == Handling::Branch || pc + 1 < fn.code.size();
}

// Where compiled code may be entered, and how many instructions it runs from
// each entry before a branch, another entry or a return to the interpreter
// (0: none; the entry is then no entry).
struct Entries {
  std::vector<bool> starts;     // by pc
  std::vector<uint32_t> length; // by pc, for starts
};

Entries entriesOf(const ir::Function &fn) {
  const size_t n = fn.code.size();
  Entries entries;
  entries.starts.assign(n, false);
  entries.length.assign(n, 0);
  auto mark = [&](uint64_t pc) {
    if (pc < n)
      entries.starts[pc] = true;
  };
  mark(0);
  for (size_t pc = 0; pc < n; ++pc) {
    const Instr &in = fn.code[pc];
    switch (in.op) {
    case Op::Br:
      mark(in.imm);
      break;
    case Op::CondBr: {
      const uint32_t *info = fn.aux.data() + in.aux;
      mark(info[0]);
      mark(info[1]);
      mark(info[2]);
      break;
    }
    case Op::Switch: {
      const uint32_t *info = fn.aux.data() + in.aux;
      mark(info[0]);
      mark(info[2]);
      for (uint32_t c = 0; c < info[1]; ++c)
        mark(info[5 + 4 * c + 1]);
      break;
    }
    default:
      break;
    }
    if (!compiledAt(fn, pc))
      mark(pc + 1);
  }
  for (size_t start = 0; start < n; ++start) {
    if (!entries.starts[start])
      continue;
    uint32_t length = 0;
    for (size_t pc = start; pc < n; ++pc) {
      if (pc != start && entries.starts[pc])
        break;
      if (!compiledAt(fn, pc))
        break;
      ++length;
      if (handlingOf(fn.code[pc]) == Handling::Branch)
        break;
    }
    entries.length[start] = length;
    if (length == 0)
      entries.starts[start] = false;
  }
  return entries;
}

// Generates one function's native code: `uint32_t f(Frame *)`, a switch on
// Frame::pc over its entries, then each entry's instructions.
class FunctionCompiler {
public:
  // `stacks`: the program may point into a thread's stack (see usesStacks).
  FunctionCompiler(const ir::Function &fn, const Entries &entries, llvm::Module &module,
                   const std::string &name, bool stacks)
      : fn_(fn), entries_(entries), stacks_(stacks), context_(module.getContext()),
        builder_(context_) {
    i1_ = builder_.getInt1Ty();
    i32_ = builder_.getInt32Ty();
    i64_ = builder_.getInt64Ty();
    ptr_ = builder_.getPtrTy();
    lanes_ = llvm::FixedVectorType::get(i64_, kLanes);
    auto *type = llvm::FunctionType::get(i32_, {ptr_}, false);
    function_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module);
    function_->addFnAttr(llvm::Attribute::NoUnwind);
  }

  void compile() {
    llvm::BasicBlock *entry = block("entry");
    builder_.SetInsertPoint(entry);
    function_->getArg(0)->addAttr(llvm::Attribute::NoAlias);
    frame_ = function_->getArg(0);
    regs_ = field(ptr_, offsetof(Frame, regs), "regs");
    constants_ = field(ptr_, offsetof(Frame, constants), "constants");
    stepLimit_ = field(i64_, offsetof(Frame, stepLimit), "stepLimit");
    instrLimit_ = field(i64_, offsetof(Frame, instrLimit), "instrLimit");
    execute_ = field(ptr_, offsetof(Frame, execute), "execute");
    reconv_ = field(i32_, offsetof(Frame, reconv), "reconv");
    mask_ = field(i32_, offsetof(Frame, mask), "mask");
    active_ = builder_.CreateZExt(field(i32_, offsetof(Frame, activeLanes), "active"), i64_);
    maskLanes_ = builder_.CreateBitCast(mask_, llvm::FixedVectorType::get(i1_, kLanes), "lanes");
    firstLane_ = builder_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32_},
                                          {mask_, builder_.getTrue()}, nullptr, "firstLane");
    window_ = field(ptr_, offsetof(Frame, window), "window");
    threadIds_ = field(ptr_, offsetof(Frame, threadIds), "threadIds");
    launchRegisters_ = fieldAddress(offsetof(Frame, launchRegisters));
    step_ = builder_.CreateAlloca(i64_, nullptr, "step");
    instrs_ = builder_.CreateAlloca(i64_, nullptr, "instrs");
    builder_.CreateStore(field(i64_, offsetof(Frame, step), "step0"), step_);
    builder_.CreateStore(field(i64_, offsetof(Frame, threadInstrs), "instrs0"), instrs_);

    for (size_t pc = 0; pc < fn_.code.size(); ++pc)
      if (entries_.starts[pc])
        checks_[uint32_t(pc)] = block("check" + std::to_string(pc));
    llvm::BasicBlock *notEntered = block("notEntered");
    llvm::Value *pc = field(i32_, offsetof(Frame, pc), "pc");
    llvm::SwitchInst *dispatch = builder_.CreateSwitch(pc, notEntered, unsigned(checks_.size()));
    for (auto [start, check] : checks_)
      dispatch->addCase(builder_.getInt32(start), check);
    builder_.SetInsertPoint(notEntered);
    builder_.CreateRet(builder_.getInt32(kNotEntered));

    for (auto [start, check] : checks_)
      compileEntry(start, check);
  }

  llvm::Function *function() const { return function_; }

private:
  const ir::Function &fn_;
  const Entries &entries_;
  bool stacks_;
  llvm::BasicBlock *stopped_ = nullptr;
  llvm::LLVMContext &context_;
  llvm::IRBuilder<> builder_;
  llvm::Type *i1_, *i32_, *i64_, *ptr_;
  llvm::FixedVectorType *lanes_;
  llvm::Function *function_;
  llvm::Value *frame_ = nullptr, *regs_ = nullptr, *constants_ = nullptr;
  llvm::Value *stepLimit_ = nullptr, *instrLimit_ = nullptr, *execute_ = nullptr;
  llvm::Value *reconv_ = nullptr, *mask_ = nullptr, *active_ = nullptr, *maskLanes_ = nullptr;
  llvm::Value *firstLane_ = nullptr, *window_ = nullptr;
  llvm::Value *threadIds_ = nullptr, *launchRegisters_ = nullptr;
  llvm::AllocaInst *step_ = nullptr, *instrs_ = nullptr;
  std::map<uint32_t, llvm::BasicBlock *> checks_;

  llvm::BasicBlock *block(const std::string &name) {
    return llvm::BasicBlock::Create(context_, name, function_);
  }
  llvm::Value *fieldAddress(uint64_t offset) {
    return builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), frame_, offset);
  }
  llvm::Value *field(llvm::Type *type, uint64_t offset, const std::string &name) {
    return builder_.CreateLoad(type, fieldAddress(offset), name);
  }
  llvm::Constant *splat(uint64_t value) {
    return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(kLanes),
                                          builder_.getInt64(value));
  }

  // An operand's 32 lanes: a register slot of the frame or a constant.
  llvm::Value *slotAddress(uint32_t operand) {
    bool constant = operand & ir::kConstantOperand;
    uint64_t index = operand & ~ir::kConstantOperand;
    return builder_.CreateConstInBoundsGEP1_64(i64_, constant ? constants_ : regs_, index * kLanes);
  }
  llvm::Value *read(uint32_t operand) {
    return builder_.CreateAlignedLoad(lanes_, slotAddress(operand), llvm::Align(8));
  }
  // Writes the active lanes of slot `slot`; the others keep their values.
  void write(uint32_t slot, llvm::Value *value) {
    llvm::Value *address = slotAddress(slot);
    llvm::Value *old = builder_.CreateAlignedLoad(lanes_, address, llvm::Align(8));
    builder_.CreateAlignedStore(builder_.CreateSelect(maskLanes_, value, old), address,
                                llvm::Align(8));
  }
  // Whether any active lane of the i1 vector `lanes` is set.
  llvm::Value *anyActive(llvm::Value *lanes) {
    llvm::Value *bits = builder_.CreateBitCast(lanes, i32_);
    return builder_.CreateICmpNE(builder_.CreateAnd(bits, mask_), builder_.getInt32(0));
  }
  llvm::Value *signExtend(llvm::Value *value, unsigned width) {
    if (width >= 64)
      return value;
    llvm::Constant *shift = splat(64 - width);
    return builder_.CreateAShr(builder_.CreateShl(value, shift), shift);
  }

  void countStep() {
    builder_.CreateStore(builder_.CreateAdd(builder_.CreateLoad(i64_, step_), builder_.getInt64(1)),
                         step_);
    builder_.CreateStore(builder_.CreateAdd(builder_.CreateLoad(i64_, instrs_), active_), instrs_);
  }
  void saveCounts() {
    builder_.CreateStore(builder_.CreateLoad(i64_, step_), fieldAddress(offsetof(Frame, step)));
    builder_.CreateStore(builder_.CreateLoad(i64_, instrs_),
                         fieldAddress(offsetof(Frame, threadInstrs)));
  }
  // Returns `exit` with the interpreter to go on at `pc`.
  void leave(Exit exit, llvm::Value *pc) {
    saveCounts();
    builder_.CreateStore(pc, fieldAddress(offsetof(Frame, pc)));
    builder_.CreateRet(builder_.getInt32(exit));
  }
  void leave(Exit exit, uint32_t pc) { leave(exit, builder_.getInt32(pc)); }
  // Ends the current block with a branch on `cond` to a block that leaves.
  void leaveIf(llvm::Value *cond, Exit exit, uint32_t pc) {
    llvm::BasicBlock *out = block("leave"), *on = block("on");
    builder_.CreateCondBr(cond, out, on);
    builder_.SetInsertPoint(out);
    leave(exit, pc);
    builder_.SetInsertPoint(on);
  }

  // The interpreter runs instruction `pc` (already counted).
  void executeInInterpreter(uint32_t pc) {
    saveCounts();
    auto *type = llvm::FunctionType::get(i32_, {ptr_, i32_}, false);
    llvm::Value *result = builder_.CreateCall(type, execute_, {frame_, builder_.getInt32(pc)});
    llvm::BasicBlock *faulted = block("faulted"), *failed = block("failed"), *on = block("on");
    llvm::SwitchInst *outcome = builder_.CreateSwitch(result, on, 2);
    outcome->addCase(builder_.getInt32(kLanesFaulted), faulted);
    outcome->addCase(builder_.getInt32(kFailed), failed);
    builder_.SetInsertPoint(faulted);
    leave(kFaulted, pc + 1);
    builder_.SetInsertPoint(failed);
    leave(kStopped, pc + 1);
    builder_.SetInsertPoint(on);
  }
  // Runs `in` natively unless `unusual` (an i1) holds, when the interpreter
  // runs it instead.
  template <class Native> void unlessUnusual(llvm::Value *unusual, uint32_t pc, Native native) {
    llvm::BasicBlock *slow = block("unusual"), *fast = block("usual"), *join = block("join");
    builder_.CreateCondBr(unusual, slow, fast);
    builder_.SetInsertPoint(slow);
    executeInInterpreter(pc);
    builder_.CreateBr(join);
    builder_.SetInsertPoint(fast);
    native();
    builder_.CreateBr(join);
    builder_.SetInsertPoint(join);
  }

  // Where every entry's failed stop check leaves: the launch stops, and the
  // interpreter reads no pc.
  llvm::BasicBlock *stopped() {
    if (!stopped_) {
      llvm::BasicBlock *current = builder_.GetInsertBlock();
      stopped_ = block("stopped");
      builder_.SetInsertPoint(stopped_);
      leave(kStopped, 0u);
      builder_.SetInsertPoint(current);
    }
    return stopped_;
  }

  // Entry `start`: the budget and stop checks for its instructions, then the
  // instructions.
  void compileEntry(uint32_t start, llvm::BasicBlock *check) {
    const uint64_t length = entries_.length[start];
    builder_.SetInsertPoint(check);
    llvm::Value *step = builder_.CreateLoad(i64_, step_);
    llvm::Value *instrs = builder_.CreateLoad(i64_, instrs_);
    llvm::Value *len = builder_.getInt64(length);
    // The interpreter stops a warp once a step would pass stepLimit, a launch
    // once a thread-instruction would pass instrLimit, and checks time and
    // cancellation at steps that are multiples of kStopCheckSteps: a block
    // meeting a budget or crossing such a step is the interpreter's; one
    // starting at one makes the check first.
    llvm::Value *pastSteps = builder_.CreateICmpUGT(builder_.CreateAdd(step, len), stepLimit_);
    llvm::Value *pastInstrs = builder_.CreateICmpUGT(
        builder_.CreateAdd(instrs, builder_.CreateMul(len, active_)), instrLimit_);
    llvm::Value *low = builder_.CreateAnd(step, builder_.getInt64(kStopCheckSteps - 1));
    llvm::Value *crosses =
        builder_.CreateICmpUGT(builder_.CreateAdd(low, len), builder_.getInt64(kStopCheckSteps));
    leaveIf(builder_.CreateOr(builder_.CreateOr(pastSteps, pastInstrs), crosses), kInterpretAt,
            start);
    llvm::BasicBlock *checkNow = block("stopCheck"), *run = block("run");
    builder_.CreateCondBr(builder_.CreateICmpEQ(low, builder_.getInt64(0)), checkNow, run);
    builder_.SetInsertPoint(checkNow);
    saveCounts();
    auto *checkType = llvm::FunctionType::get(i32_, {ptr_, i32_}, false);
    llvm::Value *checked =
        builder_.CreateCall(checkType, field(ptr_, offsetof(Frame, check), "check"),
                            {frame_, builder_.getInt32(fn_.code[start].id)});
    // kYield: the interpreter runs the entry's first instruction, where it
    // lets the block's other warps run first.
    llvm::SwitchInst *outcome = builder_.CreateSwitch(checked, stopped(), 2);
    outcome->addCase(builder_.getInt32(kExecuted), run);
    llvm::BasicBlock *yield = block("yield");
    outcome->addCase(builder_.getInt32(kYield), yield);
    builder_.SetInsertPoint(yield);
    leave(kInterpretAt, start);
    builder_.SetInsertPoint(run);

    for (uint32_t pc = start;; ++pc) {
      if (pc != start && entries_.starts[pc]) {
        builder_.CreateBr(checks_.at(pc));
        return;
      }
      const Instr &in = fn_.code[pc];
      if (!compiledAt(fn_, pc)) {
        leave(kInterpretAt, pc);
        return;
      }
      switch (handlingOf(in)) {
      case Handling::Interpret: // excluded by compiledAt above
        leave(kInterpretAt, pc);
        return;
      case Handling::Branch:
        compileBranch(in, pc);
        return;
      case Handling::Execute:
        countStep();
        executeInInterpreter(pc);
        break;
      case Handling::Inline:
        countStep();
        compileInline(in, pc);
        break;
      }
    }
  }

  void applyMoves(uint32_t begin, uint32_t end) {
    for (uint32_t k = begin; k < end; k += 2)
      write(fn_.aux[k], read(fn_.aux[k + 1]));
  }
  // After a branch's moves: on at `target`, unless the path ends there.
  void goTo(uint32_t target) {
    llvm::BasicBlock *out = block("reconverge"), *on = block("on");
    builder_.CreateCondBr(builder_.CreateICmpEQ(reconv_, builder_.getInt32(target)), out, on);
    builder_.SetInsertPoint(out);
    leave(kBranched, target);
    builder_.SetInsertPoint(on);
    if (auto found = checks_.find(target); found != checks_.end())
      builder_.CreateBr(found->second);
    else
      leave(kBranched, target);
  }

  void compileBranch(const Instr &in, uint32_t pc) {
    if (in.op == Op::Br) {
      countStep();
      applyMoves(fn_.aux[in.aux], fn_.aux[in.aux + 1]);
      goTo(uint32_t(in.imm));
      return;
    }
    const uint32_t *info = fn_.aux.data() + in.aux;
    llvm::Value *taken = builder_.CreateAnd(
        builder_.CreateBitCast(
            builder_.CreateTrunc(read(in.a), llvm::FixedVectorType::get(i1_, kLanes)), i32_),
        mask_);
    // A divergent branch is the interpreter's (it splits the path); the step
    // is counted there.
    llvm::BasicBlock *all = block("taken"), *none = block("notTaken"), *split = block("split");
    llvm::SwitchInst *which = builder_.CreateSwitch(taken, split, 2);
    which->addCase(builder_.getInt32(0), none);
    builder_.SetInsertPoint(split);
    llvm::BasicBlock *diverges = block("diverges");
    builder_.CreateCondBr(builder_.CreateICmpEQ(taken, mask_), all, diverges);
    builder_.SetInsertPoint(diverges);
    leave(kInterpretAt, pc);
    builder_.SetInsertPoint(all);
    countStep();
    applyMoves(info[3], info[4]);
    goTo(info[0]);
    builder_.SetInsertPoint(none);
    countStep();
    applyMoves(info[5], info[6]);
    goTo(info[1]);
  }

  // interp::compareInts: signed predicates compare the values sign-extended
  // from `width`, the others the zero-extended values as they are.
  llvm::Value *compareInts(ir::IntPredicate pred, llvm::Value *a, llvm::Value *b, unsigned width) {
    using P = llvm::CmpInst::Predicate;
    static constexpr P kPredicates[] = {P::ICMP_EQ,  P::ICMP_NE,  P::ICMP_UGT, P::ICMP_UGE,
                                        P::ICMP_ULT, P::ICMP_ULE, P::ICMP_SGT, P::ICMP_SGE,
                                        P::ICMP_SLT, P::ICMP_SLE};
    static_assert(std::size(kPredicates) == size_t(ir::IntPredicate::SLE) + 1);
    P predicate = kPredicates[size_t(pred)];
    if (llvm::CmpInst::isSigned(predicate))
      return builder_.CreateICmp(predicate, signExtend(a, width), signExtend(b, width));
    return builder_.CreateICmp(predicate, a, b);
  }

  // A pointer step: the plain sum, or the interpreter for a lane whose sum
  // left the offset field (ir::offsetPointer saturates it).
  void pointerStep(const Instr &in, uint32_t pc, llvm::Value *base, llvm::Value *delta) {
    llvm::Value *moved = builder_.CreateAdd(base, delta);
    llvm::Value *carried = builder_.CreateICmpNE(
        builder_.CreateAnd(builder_.CreateXor(base, moved), splat(~ir::kOffsetMask)), splat(0));
    unlessUnusual(anyActive(carried), pc, [&] { write(in.dst, moved); });
  }

  llvm::Type *floatType(unsigned width) {
    return width == 32 ? builder_.getFloatTy() : builder_.getDoubleTy();
  }
  llvm::FixedVectorType *floatLanes(unsigned width) {
    return llvm::FixedVectorType::get(floatType(width), kLanes);
  }
  llvm::FixedVectorType *intLanes(unsigned width) {
    return llvm::FixedVectorType::get(builder_.getIntNTy(width), kLanes);
  }
  llvm::Value *asFloats(llvm::Value *bits, unsigned width) {
    if (width == 32)
      bits = builder_.CreateTrunc(bits, intLanes(32));
    return builder_.CreateBitCast(bits, floatLanes(width));
  }
  llvm::Value *floatBits(llvm::Value *floats, unsigned width) {
    if (width == 64)
      return builder_.CreateBitCast(floats, lanes_);
    return builder_.CreateZExt(builder_.CreateBitCast(floats, intLanes(32)), lanes_);
  }

  void floatArithmetic(const Instr &in, uint32_t pc) {
    llvm::Value *a = asFloats(read(in.a), in.width), *b = asFloats(read(in.b), in.width);
    llvm::Value *result = nullptr;
    switch (in.op) {
    case Op::FAdd:
      result = builder_.CreateFAdd(a, b);
      break;
    case Op::FSub:
      result = builder_.CreateFSub(a, b);
      break;
    case Op::FMul:
      result = builder_.CreateFMul(a, b);
      break;
    default:
      result = builder_.CreateFDiv(a, b);
      break;
    }
    writeFloat(in, pc, result, in.width);
  }

  // Writes a computed float of `width` as interp::doubleToFloatBits does: a
  // float NaN is canonical (a GPU's: interp::floatResultBits); a double
  // NaN's payload is the host's, so the interpreter computes it instead.
  void writeFloat(const Instr &in, uint32_t pc, llvm::Value *result, unsigned width) {
    llvm::Value *nan = builder_.CreateFCmpUNO(result, result);
    if (width == 32) {
      write(in.dst, builder_.CreateSelect(nan, splat(kCanonicalNan32), floatBits(result, 32)));
      return;
    }
    unlessUnusual(anyActive(nan), pc, [&] { write(in.dst, floatBits(result, 64)); });
  }

  // interp::fusedMultiplyAdd: one rounding; a float NaN is canonical, a
  // double NaN's payload the host's (the interpreter computes it).
  void fusedMultiplyAdd(const Instr &in, uint32_t pc) {
    llvm::Value *result =
        builder_.CreateIntrinsic(llvm::Intrinsic::fma, {floatLanes(in.width)},
                                 {asFloats(read(in.a), in.width), asFloats(read(in.b), in.width),
                                  asFloats(read(in.c), in.width)});
    writeFloat(in, pc, result, in.width);
  }

  // Float to double and back (interp: doubleToFloatBits(floatBitsToDouble)).
  // Widening keeps a NaN's payload the host's way: the interpreter's.
  void convertFloat(const Instr &in, uint32_t pc) {
    llvm::Value *value = asFloats(read(in.a), unsigned(in.imm));
    if (in.width == 32) {
      writeFloat(in, pc, builder_.CreateFPTrunc(value, floatLanes(32)), 32);
      return;
    }
    llvm::Value *nan = builder_.CreateFCmpUNO(value, value);
    unlessUnusual(anyActive(nan), pc, [&] {
      write(in.dst, floatBits(builder_.CreateFPExt(value, floatLanes(64)), 64));
    });
  }

  // interp::floatToSigned / floatToUnsigned: toward zero, saturating, NaN 0,
  // which is what LLVM's saturating conversions compute.
  void floatToInt(const Instr &in) {
    llvm::Value *value = asFloats(read(in.a), unsigned(in.imm));
    auto intrinsic =
        in.op == Op::FPToSI ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    llvm::Value *converted =
        builder_.CreateIntrinsic(intrinsic, {intLanes(in.width), value->getType()}, {value});
    write(in.dst, builder_.CreateZExt(converted, lanes_));
  }

  // The integer's low `imm` bits, signed or not, rounded once to nearest
  // (the interpreter's C++ conversion).
  void intToFloat(const Instr &in) {
    llvm::Value *value = builder_.CreateTrunc(read(in.a), intLanes(unsigned(in.imm)));
    llvm::Value *converted = in.op == Op::SIToFP
                                 ? builder_.CreateSIToFP(value, floatLanes(in.width))
                                 : builder_.CreateUIToFP(value, floatLanes(in.width));
    write(in.dst, floatBits(converted, in.width));
  }

  // interp::mathUnary for the functions compiledMath admits.
  void mathUnary(const Instr &in, uint32_t pc) {
    using F = ir::MathFunction;
    auto f = ir::MathFunction(in.flags);
    llvm::Value *x = asFloats(read(in.a), in.width), *result = x;
    if (llvm::Intrinsic::ID id = compiledMath().at(f); id != llvm::Intrinsic::not_intrinsic)
      result = builder_.CreateIntrinsic(id, {x->getType()}, {x});
    if (f == F::Rsqrt || f == F::Rcp)
      result = builder_.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0), result);
    writeFloat(in, pc, result, in.width);
  }

  // Integer division: a lane dividing by zero or overflowing (INT_MIN / -1)
  // is undefined behaviour the interpreter reports, so it runs the
  // instruction then; otherwise interp::integerOp's quotient or remainder.
  void division(const Instr &in, uint32_t pc) {
    const unsigned width = in.width;
    const bool isSigned = in.op == Op::SDiv || in.op == Op::SRem;
    llvm::Value *a = read(in.a), *b = read(in.b);
    llvm::Value *mask = splat(widthMask(width));
    llvm::Value *unusual = builder_.CreateICmpEQ(builder_.CreateAnd(b, mask), splat(0));
    if (isSigned) {
      a = signExtend(a, width);
      b = signExtend(b, width);
      llvm::Value *overflow = builder_.CreateAnd(
          builder_.CreateICmpEQ(b, splat(~uint64_t(0))),
          builder_.CreateICmpEQ(builder_.CreateAnd(a, mask), splat(uint64_t(1) << (width - 1))));
      unusual = builder_.CreateOr(unusual, overflow);
    }
    unlessUnusual(anyActive(unusual), pc, [&] {
      // Inactive lanes divide by 1: their operands may be anything.
      llvm::Value *divisor = builder_.CreateSelect(maskLanes_, b, splat(1));
      switch (in.op) {
      case Op::UDiv:
        write(in.dst, builder_.CreateUDiv(a, divisor));
        break;
      case Op::URem:
        write(in.dst, builder_.CreateURem(a, divisor));
        break;
      case Op::SDiv:
        write(in.dst, builder_.CreateAnd(builder_.CreateSDiv(a, divisor), mask));
        break;
      default:
        write(in.dst, builder_.CreateAnd(builder_.CreateSRem(a, divisor), mask));
        break;
      }
    });
  }

  // interp::intUnary and intBinary for the functions
  // isCompiledIntFunction admits.
  void intFunction(const Instr &in) {
    using F = ir::IntFunction;
    const unsigned width = in.width;
    llvm::Value *mask = splat(widthMask(width));
    llvm::Value *ua = builder_.CreateAnd(read(in.a), mask);
    llvm::Value *sa = signExtend(ua, width);
    auto bitCount = [&](llvm::Intrinsic::ID id) {
      return builder_.CreateIntrinsic(id, {lanes_}, {ua, builder_.getFalse()});
    };
    llvm::Value *result = nullptr;
    auto f = ir::IntFunction(in.flags);
    switch (f) {
    case F::Popc:
      result = builder_.CreateIntrinsic(llvm::Intrinsic::ctpop, {lanes_}, {ua});
      break;
    case F::Clz: // 64 for zero, hence the width
      result = builder_.CreateSub(bitCount(llvm::Intrinsic::ctlz), splat(64 - width));
      break;
    case F::Ctz:
      result = builder_.CreateSelect(builder_.CreateICmpEQ(ua, splat(0)), splat(width),
                                     bitCount(llvm::Intrinsic::cttz));
      break;
    case F::Ffs: // the lowest set bit, counted from 1; 0 for zero
      result = builder_.CreateSelect(builder_.CreateICmpEQ(ua, splat(0)), splat(0),
                                     builder_.CreateAdd(bitCount(llvm::Intrinsic::cttz), splat(1)));
      break;
    case F::Abs:
      result = builder_.CreateAnd(builder_.CreateSelect(builder_.CreateICmpSLT(sa, splat(0)),
                                                        builder_.CreateSub(splat(0), sa), sa),
                                  mask);
      break;
    default: {
      llvm::Value *ub = builder_.CreateAnd(read(in.b), mask);
      llvm::Value *sb = signExtend(ub, width);
      switch (f) {
      case F::SMin:
        result =
            builder_.CreateAnd(builder_.CreateSelect(builder_.CreateICmpSLT(sb, sa), sb, sa), mask);
        break;
      case F::SMax:
        result =
            builder_.CreateAnd(builder_.CreateSelect(builder_.CreateICmpSLT(sa, sb), sb, sa), mask);
        break;
      case F::UMin:
        result = builder_.CreateSelect(builder_.CreateICmpULT(ub, ua), ub, ua);
        break;
      default:
        result = builder_.CreateSelect(builder_.CreateICmpULT(ua, ub), ub, ua);
        break; // UMax
      }
      break;
    }
    }
    write(in.dst, result);
  }

  // The builtins the same for a block's every instruction
  // (Frame::launchRegisters, Frame::threadIds).
  llvm::Value *specialRegister(ir::SpecialRegister reg) {
    using R = ir::SpecialRegister;
    if (reg == R::WarpSize)
      return splat(kLanes);
    if (reg == R::LaneId) {
      std::vector<llvm::Constant *> lanes;
      for (unsigned lane = 0; lane < kLanes; ++lane)
        lanes.push_back(builder_.getInt64(lane));
      return llvm::ConstantVector::get(lanes);
    }
    if (reg >= R::NTidX) { // NTid, CtaId, NCtaId: one value for the block
      uint64_t index = uint64_t(reg) - uint64_t(R::NTidX);
      llvm::Value *value = builder_.CreateLoad(
          i64_, builder_.CreateConstInBoundsGEP1_64(i64_, launchRegisters_, index));
      return builder_.CreateVectorSplat(kLanes, value);
    }
    // threadIdx: three 32-bit components per lane.
    std::vector<llvm::Constant *> indices;
    for (unsigned lane = 0; lane < kLanes; ++lane)
      indices.push_back(builder_.getInt64(lane * 3 + uint64_t(reg)));
    llvm::Value *addresses =
        builder_.CreateGEP(i32_, threadIds_, llvm::ConstantVector::get(indices));
    auto *type = llvm::FixedVectorType::get(i32_, kLanes);
    llvm::Value *ids = builder_.CreateMaskedGather(type, addresses, llvm::Align(4), maskLanes_,
                                                   llvm::Constant::getNullValue(type));
    return builder_.CreateZExt(ids, lanes_);
  }

  void shift(const Instr &in, uint32_t pc) {
    const unsigned width = in.width;
    llvm::Value *a = read(in.a), *b = read(in.b);
    llvm::Value *mask = splat(widthMask(width));
    // A shift by the width or more is the program's undefined behaviour,
    // which the interpreter reports.
    llvm::Value *tooFar = builder_.CreateICmpUGE(builder_.CreateAnd(b, mask), splat(width));
    unlessUnusual(anyActive(tooFar), pc, [&] {
      llvm::Value *amount = builder_.CreateAnd(b, splat(63));
      llvm::Value *beyond = builder_.CreateICmpUGE(b, splat(width));
      llvm::Value *shifted = nullptr, *far = splat(0);
      switch (in.op) {
      case Op::Shl:
        shifted = builder_.CreateAnd(builder_.CreateShl(a, amount), mask);
        break;
      case Op::LShr:
        shifted = builder_.CreateLShr(a, amount);
        break;
      default: {
        llvm::Value *sa = signExtend(a, width);
        shifted = builder_.CreateAnd(builder_.CreateAShr(sa, amount), mask);
        far = builder_.CreateSelect(builder_.CreateICmpSLT(sa, splat(0)), mask, splat(0));
        break;
      }
      }
      write(in.dst, builder_.CreateSelect(beyond, far, shifted));
    });
  }

  // A load or store compiled code makes itself when every active lane's
  // access lies in bounds, aligned, of its own stack (which sends no event)
  // or of the window's buffer: the bytes the interpreter's access would touch
  // (Launch::access), after Frame::record sent its events unless none are
  // wanted (Frame::plainAccesses). Any other is the interpreter's.
  void memoryAccess(const Instr &in, uint32_t pc) {
    const uint64_t bytes = in.imm;
    const bool store = in.op == Op::Store;
    llvm::BasicBlock *slow = block("interpretAccess"), *join = block("accessed");
    auto interpretIf = [&](llvm::Value *unusual) {
      llvm::BasicBlock *on = block("on");
      builder_.CreateCondBr(unusual, slow, on);
      builder_.SetInsertPoint(on);
    };
    llvm::Value *pointers = read(in.a);
    llvm::Value *tags = builder_.CreateAnd(pointers, splat(~ir::kOffsetMask));
    llvm::Value *tag = builder_.CreateExtractElement(tags, firstLane_);
    interpretIf(anyActive(builder_.CreateICmpNE(tags, builder_.CreateVectorSplat(kLanes, tag))));
    // A negative offset is a huge unsigned one: outside too.
    llvm::Value *offsets = builder_.CreateSub(builder_.CreateAnd(pointers, splat(ir::kOffsetMask)),
                                              splat(ir::kOffsetBias));
    llvm::Value *misaligned =
        builder_.CreateICmpNE(builder_.CreateAnd(offsets, splat(bytes - 1)), splat(0));
    llvm::FixedVectorType *elements = intLanes(unsigned(bytes * 8));
    auto makeAccess = [&](llvm::Value *addresses) {
      if (store) {
        // Overlapping lanes store in lane order: the last one's bytes stay,
        // as in the interpreter.
        builder_.CreateMaskedScatter(builder_.CreateTrunc(read(in.b), elements), addresses,
                                     llvm::Align(1), maskLanes_);
      } else {
        llvm::Value *loaded =
            builder_.CreateMaskedGather(elements, addresses, llvm::Align(1), maskLanes_);
        write(in.dst, builder_.CreateZExt(loaded, lanes_));
      }
      builder_.CreateBr(join);
    };
    // The lanes' own stacks (no event, no claim): each lane's offset in its own.
    llvm::BasicBlock *local = block("local"), *shared = block("sharedOrGlobal");
    builder_.CreateCondBr(builder_.CreateICmpEQ(tag, builder_.getInt64(kLocalTag)), local, shared);
    builder_.SetInsertPoint(local);
    if (!stacks_) {
      builder_.CreateBr(slow);
    } else {
      llvm::BasicBlock *fill = block("fillLocal"), *filled = block("localFilled");
      builder_.CreateCondBr(
          builder_.CreateICmpEQ(field(i32_, offsetof(Frame, localValid), "localValid"),
                                builder_.getInt32(0)),
          fill, filled);
      builder_.SetInsertPoint(fill);
      builder_.CreateCall(llvm::FunctionType::get(builder_.getVoidTy(), {ptr_}, false),
                          field(ptr_, offsetof(Frame, local), "fillLocal"), {frame_});
      builder_.CreateBr(filled);
      builder_.SetInsertPoint(filled);
      llvm::Value *bases = builder_.CreateAlignedLoad(
          lanes_, field(ptr_, offsetof(Frame, localBase), "localBase"), llvm::Align(8));
      llvm::Value *sizes = builder_.CreateAlignedLoad(
          lanes_, field(ptr_, offsetof(Frame, localSize), "localSize"), llvm::Align(8));
      llvm::Value *outside = builder_.CreateOr(
          builder_.CreateICmpULT(sizes, splat(bytes)),
          builder_.CreateICmpUGT(offsets, builder_.CreateSub(sizes, splat(bytes))));
      interpretIf(anyActive(builder_.CreateOr(outside, misaligned)));
      makeAccess(builder_.CreateIntToPtr(builder_.CreateAdd(bases, offsets),
                                         llvm::FixedVectorType::get(ptr_, kLanes)));
    }
    builder_.SetInsertPoint(shared);
    llvm::BasicBlock *find = block("findWindow"), *found = block("windowFound");
    builder_.CreateCondBr(
        builder_.CreateICmpEQ(field(i64_, offsetof(Frame, windowTag), "windowTag"), tag), found,
        find);
    builder_.SetInsertPoint(find);
    auto *windowType = llvm::FunctionType::get(i32_, {ptr_, i64_}, false);
    llvm::Value *made = builder_.CreateCall(windowType, window_, {frame_, tag});
    builder_.CreateCondBr(builder_.CreateICmpEQ(made, builder_.getInt32(0)), slow, found);
    builder_.SetInsertPoint(found);
    if (store)
      interpretIf(builder_.CreateICmpEQ(field(i32_, offsetof(Frame, windowWritable), "writable"),
                                        builder_.getInt32(0)));
    // A claimed window's accesses are the interpreter's unless marked as
    // claiming nothing.
    llvm::Value *claimed = builder_.CreateICmpNE(
        field(i32_, offsetof(Frame, windowClaimed), "claimed"), builder_.getInt32(0));
    llvm::BasicBlock *check = block("claimed"), *free = block("unclaimed");
    builder_.CreateCondBr(claimed, check, free);
    builder_.SetInsertPoint(check);
    llvm::Value *marks = field(ptr_, offsetof(Frame, unclaimed), "unclaimed");
    llvm::BasicBlock *look = block("look");
    builder_.CreateCondBr(builder_.CreateIsNull(marks), slow, look);
    builder_.SetInsertPoint(look);
    llvm::Value *mark = builder_.CreateLoad(
        builder_.getInt8Ty(),
        builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), marks, in.id));
    builder_.CreateCondBr(builder_.CreateICmpEQ(mark, builder_.getInt8(0)), slow, free);
    builder_.SetInsertPoint(free);
    llvm::Value *base = field(ptr_, offsetof(Frame, windowBase), "base");
    llvm::Value *size = field(i64_, offsetof(Frame, windowSizeBytes), "size");
    interpretIf(builder_.CreateICmpULT(size, builder_.getInt64(bytes)));
    llvm::Value *last =
        builder_.CreateVectorSplat(kLanes, builder_.CreateSub(size, builder_.getInt64(bytes)));
    llvm::Value *outside = builder_.CreateICmpUGT(offsets, last);
    interpretIf(anyActive(builder_.CreateOr(outside, misaligned)));
    llvm::BasicBlock *record = block("record"), *recorded = block("recorded");
    llvm::Value *plain = field(i32_, offsetof(Frame, plainAccesses), "plainAccesses");
    builder_.CreateCondBr(builder_.CreateICmpEQ(plain, builder_.getInt32(0)), record, recorded);
    builder_.SetInsertPoint(record);
    saveCounts();
    builder_.CreateCall(llvm::FunctionType::get(builder_.getVoidTy(), {ptr_, i32_}, false),
                        field(ptr_, offsetof(Frame, record), "record"),
                        {frame_, builder_.getInt32(pc)});
    builder_.CreateBr(recorded);
    builder_.SetInsertPoint(recorded);
    if (store) {
      llvm::BasicBlock *save = block("saveUndo"), *saved = block("undoSaved");
      builder_.CreateCondBr(claimed, save, saved);
      builder_.SetInsertPoint(save);
      builder_.CreateCall(llvm::FunctionType::get(builder_.getVoidTy(), {ptr_, i32_}, false),
                          field(ptr_, offsetof(Frame, undo), "undo"),
                          {frame_, builder_.getInt32(pc)});
      builder_.CreateBr(saved);
      builder_.SetInsertPoint(saved);
    }
    makeAccess(builder_.CreateGEP(builder_.getInt8Ty(), base, offsets));
    builder_.SetInsertPoint(slow);
    executeInInterpreter(pc);
    builder_.CreateBr(join);
    builder_.SetInsertPoint(join);
  }

  void compileInline(const Instr &in, uint32_t pc) {
    const uint64_t mask = widthMask(in.width);
    switch (in.op) {
    case Op::Nop:
      return;
    case Op::Move:
      write(in.dst, read(in.a));
      return;
    case Op::Add:
      write(in.dst, builder_.CreateAnd(builder_.CreateAdd(read(in.a), read(in.b)), splat(mask)));
      return;
    case Op::Sub:
      write(in.dst, builder_.CreateAnd(builder_.CreateSub(read(in.a), read(in.b)), splat(mask)));
      return;
    case Op::Mul:
      write(in.dst, builder_.CreateAnd(builder_.CreateMul(read(in.a), read(in.b)), splat(mask)));
      return;
    case Op::And:
      write(in.dst, builder_.CreateAnd(read(in.a), read(in.b)));
      return;
    case Op::Or:
      write(in.dst, builder_.CreateOr(read(in.a), read(in.b)));
      return;
    case Op::Xor:
      write(in.dst, builder_.CreateXor(read(in.a), read(in.b)));
      return;
    case Op::ICmp:
      write(in.dst,
            builder_.CreateZExt(
                compareInts(ir::IntPredicate(in.flags), read(in.a), read(in.b), in.width), lanes_));
      return;
    case Op::SExt:
      write(in.dst, builder_.CreateAnd(signExtend(read(in.a), unsigned(in.imm)), splat(mask)));
      return;
    case Op::Trunc:
      write(in.dst, builder_.CreateAnd(read(in.a), splat(mask)));
      return;
    case Op::Select: {
      llvm::Value *cond = builder_.CreateTrunc(read(in.a), llvm::FixedVectorType::get(i1_, kLanes));
      write(in.dst, builder_.CreateSelect(cond, read(in.b), read(in.c)));
      return;
    }
    case Op::PtrAdd:
      pointerStep(in, pc, read(in.a), splat(in.imm));
      return;
    case Op::PtrAddScaled: {
      llvm::Value *index = signExtend(read(in.b), in.width);
      if (in.width > 32) { // an index beyond 32 bits is the interpreter's
        llvm::Value *beyond = builder_.CreateICmpUGT(builder_.CreateAdd(index, splat(1ull << 31)),
                                                     splat(0xffffffffull));
        unlessUnusual(anyActive(beyond), pc, [&] {
          pointerStep(in, pc, read(in.a), builder_.CreateMul(index, splat(in.imm)));
        });
        return;
      }
      pointerStep(in, pc, read(in.a), builder_.CreateMul(index, splat(in.imm)));
      return;
    }
    case Op::Fma:
      fusedMultiplyAdd(in, pc);
      return;
    case Op::SpecialReg:
      write(in.dst,
            builder_.CreateAnd(specialRegister(ir::SpecialRegister(in.flags)), splat(mask)));
      return;
    case Op::Shl:
    case Op::LShr:
    case Op::AShr:
      shift(in, pc);
      return;
    case Op::FAdd:
    case Op::FSub:
    case Op::FMul:
    case Op::FDiv:
      floatArithmetic(in, pc);
      return;
    case Op::FNeg: // flips the sign bit, NaN or not
      write(in.dst, builder_.CreateXor(read(in.a), splat(uint64_t(1) << (in.width - 1))));
      return;
    case Op::Load:
    case Op::Store:
      memoryAccess(in, pc);
      return;
    case Op::UDiv:
    case Op::SDiv:
    case Op::URem:
    case Op::SRem:
      division(in, pc);
      return;
    case Op::FPConv:
      convertFloat(in, pc);
      return;
    case Op::FPToUI:
    case Op::FPToSI:
      floatToInt(in);
      return;
    case Op::UIToFP:
    case Op::SIToFP:
      intToFloat(in);
      return;
    case Op::MathUnary:
      mathUnary(in, pc);
      return;
    case Op::IntUnary:
    case Op::IntBinary:
      intFunction(in);
      return;
    case Op::FCmp: {
      // LLVM's predicate numbering is the interpreter's outcome bits
      // (equal 1, greater 2, less 4, unordered 8).
      llvm::Value *result =
          builder_.CreateFCmp(llvm::CmpInst::Predicate(in.flags), asFloats(read(in.a), in.width),
                              asFloats(read(in.b), in.width));
      write(in.dst, builder_.CreateZExt(result, lanes_));
      return;
    }
    default:
      executeInInterpreter(pc);
      return;
    }
  }
};

// The process's one JIT: made on first use.
struct Jit {
  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::string error;
};

// Never destroyed: programs (and their caches, which remove their code from
// it) may outlive it at exit otherwise.
Jit &theJit() {
  static Jit &jit = *[] {
    auto *made = new Jit;
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!machine) {
      made->error = llvm::toString(machine.takeError());
      return made;
    }
    auto built = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*machine)).create();
    if (!built) {
      made->error = llvm::toString(built.takeError());
      return made;
    }
    made->lljit = std::move(*built);
    return made;
  }();
  return jit;
}

void optimize(llvm::Module &module) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O1).run(module, modules);
}

class Cache final : public CodeCache {
public:
  explicit Cache(size_t functions) : functions_(functions) {
    static std::atomic<uint64_t> caches{0};
    id_ = caches++;
    steps_ = std::make_unique<std::atomic<uint64_t>[]>(functions);
    compiled_.resize(functions);
  }
  ~Cache() override {
    if (tracker_)
      llvm::consumeError(tracker_->remove());
  }

  const CompiledFunction *compiled(const ir::Program &program, uint32_t function) override {
    std::lock_guard lock(mutex_);
    if (function >= compiled_.size())
      return nullptr;
    std::optional<CompiledFunction> &slot = compiled_[function];
    if (!slot)
      slot = compile(program.functions[function], function, usesStacks(program));
    return slot->entry ? &*slot : nullptr;
  }

  bool made(uint32_t function) const override {
    std::lock_guard lock(mutex_);
    return function < compiled_.size() && compiled_[function] && compiled_[function]->entry;
  }

  bool hot(uint32_t function, uint64_t warpSteps, uint64_t threshold) override {
    if (function >= functions_)
      return false;
    return steps_[function].fetch_add(warpSteps, std::memory_order_relaxed) + warpSteps >=
           threshold;
  }

  std::string failure() const override {
    std::lock_guard lock(mutex_);
    return failure_;
  }

private:
  size_t functions_ = 0;
  uint64_t id_ = 0;
  mutable std::mutex mutex_;
  std::unique_ptr<std::atomic<uint64_t>[]> steps_;
  std::vector<std::optional<CompiledFunction>> compiled_;
  llvm::orc::ResourceTrackerSP tracker_;
  std::string failure_;
  std::optional<bool> stacks_; // usesStacks, once known

  // Whether any pointer of the program may point into a thread's stack: it
  // allocates one (Alloca) or passes a kernel parameter by value (copied
  // there). Else compiled accesses need no code for stacks.
  bool usesStacks(const ir::Program &program) {
    if (!stacks_) {
      bool uses = false;
      for (const ir::Function &fn : program.functions)
        for (const Instr &in : fn.code)
          uses |= in.op == Op::Alloca;
      for (const ir::KernelInfo &kernel : program.kernels)
        for (const ir::ParamInfo &param : kernel.params)
          uses |= param.byValueBytes != 0;
      stacks_ = uses;
    }
    return *stacks_;
  }

  CompiledFunction compile(const ir::Function &fn, uint32_t function, bool stacks) {
    CompiledFunction made;
    Jit &jit = theJit();
    if (!jit.lljit) {
      failure_ = "no native code generator: " + jit.error;
      return made;
    }
    Entries entries = entriesOf(fn);
    auto context = std::make_unique<llvm::LLVMContext>();
    auto module = std::make_unique<llvm::Module>("simulee_jit", *context);
    module->setDataLayout(jit.lljit->getDataLayout());
    module->setTargetTriple(jit.lljit->getTargetTriple().str());
    std::string name = "simulee_" + std::to_string(id_) + "_" + std::to_string(function);
    FunctionCompiler compiler(fn, entries, *module, name, stacks);
    compiler.compile();
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (llvm::verifyModule(*module, &out)) {
      failure_ = "'" + fn.name + "' did not compile: " + problems;
      return made;
    }
    optimize(*module);
    if (!tracker_)
      tracker_ = jit.lljit->getMainJITDylib().createResourceTracker();
    if (llvm::Error error = jit.lljit->addIRModule(
            tracker_, llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
      failure_ = "'" + fn.name + "' did not compile: " + llvm::toString(std::move(error));
      return made;
    }
    auto symbol = jit.lljit->lookup(name);
    if (!symbol) {
      failure_ = "'" + fn.name + "' did not compile: " + llvm::toString(symbol.takeError());
      return made;
    }
    made.entry = symbol->toPtr<EntryFn>();
    made.entries = std::move(entries.starts);
    return made;
  }
};

} // namespace

CodeCache &codeCacheOf(const ir::Program &program) {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  if (!program.compiledCode)
    program.compiledCode = std::make_shared<Cache>(program.functions.size());
  return *program.compiledCode;
}

} // namespace simulee::jit
