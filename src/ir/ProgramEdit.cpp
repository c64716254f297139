#include "ir/ProgramEdit.h"

#include "ir/AtomicUnits.h"
#include "ir/Builtins.h"
#include "ir/Lowering.h"

#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <optional>
#include <set>

namespace simulee::ir {
namespace {

const llvm::Instruction *instructionOf(const Program &program, uint32_t id) {
  return id < program.instructions.size() ? program.instructions[id].llvm : nullptr;
}

// A plain load or store of a scalar: what MakeAtomic turns atomic.
bool isPlainScalarAccess(const llvm::Instruction &inst) {
  llvm::Type *type = nullptr;
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
    if (load->isAtomic() || load->isVolatile())
      return false;
    type = load->getType();
  } else if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
    if (store->isAtomic() || store->isVolatile())
      return false;
    type = store->getValueOperand()->getType();
  } else {
    return false;
  }
  return type->isIntegerTy(32) || type->isIntegerTy(64) || type->isFloatTy() ||
         type->isDoubleTy() || type->isPointerTy();
}

bool isBarrierCall(const llvm::Instruction &inst) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee)
    return false;
  std::optional<Builtin> builtin = classifyBuiltin(callee->getName());
  return builtin && builtin->kind == BuiltinKind::Barrier && call->use_empty();
}

// A read and a write back of a value computed from it, as one atomic.
struct Fusion {
  llvm::Value *pointer = nullptr;
  llvm::AtomicRMWInst::BinOp op = llvm::AtomicRMWInst::Add;
  llvm::Value *operand = nullptr;
  llvm::Instruction *computed = nullptr; // the read's value combined with the operand
};

// The read's address and whether it only reads: a plain load, or an atomic
// that leaves the value (atomicAdd(p, 0)).
llvm::Value *readPointer(llvm::Instruction &read) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&read))
    return load->isVolatile() ? nullptr : load->getPointerOperand();
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&read)) {
    const auto *zero = llvm::dyn_cast<llvm::Constant>(rmw->getValOperand());
    bool leaves = zero && zero->isNullValue() &&
                  (rmw->getOperation() == llvm::AtomicRMWInst::Add ||
                   rmw->getOperation() == llvm::AtomicRMWInst::Or ||
                   rmw->getOperation() == llvm::AtomicRMWInst::Xor ||
                   rmw->getOperation() == llvm::AtomicRMWInst::Sub);
    return leaves ? rmw->getPointerOperand() : nullptr;
  }
  return nullptr;
}

// The write's address and the value it writes: a plain store or an atomicExch.
std::pair<llvm::Value *, llvm::Value *> writeOf(llvm::Instruction &write) {
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&write))
    return store->isVolatile() ? std::pair<llvm::Value *, llvm::Value *>{}
                               : std::pair{store->getPointerOperand(), store->getValueOperand()};
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&write))
    if (rmw->getOperation() == llvm::AtomicRMWInst::Xchg)
      return {rmw->getPointerOperand(), rmw->getValOperand()};
  return {};
}

std::optional<Fusion> fusionOf(llvm::Instruction &read, llvm::Instruction &write) {
  llvm::Value *pointer = readPointer(read);
  auto [written, value] = writeOf(write);
  if (!pointer || pointer->stripPointerCasts() != (written ? written->stripPointerCasts() : nullptr))
    return std::nullopt;
  auto *computed = llvm::dyn_cast<llvm::BinaryOperator>(value);
  if (!computed || !read.hasOneUse() || !computed->hasOneUse() || read.getParent() != write.getParent())
    return std::nullopt;
  bool left = computed->getOperand(0) == &read, right = computed->getOperand(1) == &read;
  if (left == right)
    return std::nullopt;
  llvm::Value *operand = computed->getOperand(left ? 1 : 0);
  using llvm::AtomicRMWInst;
  std::optional<AtomicRMWInst::BinOp> op;
  switch (computed->getOpcode()) {
  case llvm::Instruction::Add: op = AtomicRMWInst::Add; break;
  case llvm::Instruction::Or: op = AtomicRMWInst::Or; break;
  case llvm::Instruction::And: op = AtomicRMWInst::And; break;
  case llvm::Instruction::Xor: op = AtomicRMWInst::Xor; break;
  case llvm::Instruction::FAdd: op = AtomicRMWInst::FAdd; break;
  case llvm::Instruction::Sub: if (left) op = AtomicRMWInst::Sub; break;
  case llvm::Instruction::FSub: if (left) op = AtomicRMWInst::FSub; break;
  default: break;
  }
  if (!op)
    return std::nullopt;
  return Fusion{pointer, *op, operand, computed};
}

// Whether writtenFrom knows what an update `op` makes of the old value.
bool updateFormulaKnown(llvm::AtomicRMWInst::BinOp op) {
  using llvm::AtomicRMWInst;
  switch (op) {
  case AtomicRMWInst::Xchg: case AtomicRMWInst::Add: case AtomicRMWInst::Sub:
  case AtomicRMWInst::And: case AtomicRMWInst::Or: case AtomicRMWInst::Xor:
  case AtomicRMWInst::Max: case AtomicRMWInst::Min: case AtomicRMWInst::UMax:
  case AtomicRMWInst::UMin: case AtomicRMWInst::FAdd: case AtomicRMWInst::FSub:
  case AtomicRMWInst::UIncWrap:
    return true;
  default:
    return false;
  }
}

// What the write makes of the value `old` the address held: the stored or
// exchanged value, or the update applied to `old` (one updateFormulaKnown
// accepts).
llvm::Value *writtenFrom(llvm::IRBuilder<> &builder, llvm::Instruction &write, llvm::Value *old) {
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&write))
    return store->getValueOperand();
  auto &rmw = llvm::cast<llvm::AtomicRMWInst>(write);
  llvm::Value *operand = rmw.getValOperand();
  using llvm::AtomicRMWInst;
  switch (rmw.getOperation()) {
  case AtomicRMWInst::Xchg: return operand;
  case AtomicRMWInst::Add: return builder.CreateAdd(old, operand);
  case AtomicRMWInst::Sub: return builder.CreateSub(old, operand);
  case AtomicRMWInst::And: return builder.CreateAnd(old, operand);
  case AtomicRMWInst::Or: return builder.CreateOr(old, operand);
  case AtomicRMWInst::Xor: return builder.CreateXor(old, operand);
  case AtomicRMWInst::Max: return builder.CreateSelect(builder.CreateICmpSGT(old, operand), old, operand);
  case AtomicRMWInst::Min: return builder.CreateSelect(builder.CreateICmpSLT(old, operand), old, operand);
  case AtomicRMWInst::UMax: return builder.CreateSelect(builder.CreateICmpUGT(old, operand), old, operand);
  case AtomicRMWInst::UMin: return builder.CreateSelect(builder.CreateICmpULT(old, operand), old, operand);
  case AtomicRMWInst::FAdd: return builder.CreateFAdd(old, operand);
  case AtomicRMWInst::FSub: return builder.CreateFSub(old, operand);
  case AtomicRMWInst::UIncWrap: // atomicInc: 0 once at or past the bound
    return builder.CreateSelect(builder.CreateICmpUGE(old, operand),
                                llvm::Constant::getNullValue(old->getType()),
                                builder.CreateAdd(old, llvm::ConstantInt::get(old->getType(), 1)));
  default: return nullptr;
  }
}

// Whether running `inst` again leaves everything else as it was: it writes
// no memory, waits at no barrier and exchanges nothing with other lanes.
bool repeatable(const llvm::Instruction &inst) {
  if (llvm::isa<llvm::DbgInfoIntrinsic>(inst))
    return true;
  const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
  return !inst.mayHaveSideEffects() && !(call && call->isConvergent());
}

// Whether the code between `read` and `write`, on every way from one to the
// other, is repeatable (`read` dominates `write`).
bool repeatableBetween(llvm::Instruction &read, llvm::Instruction &write) {
  llvm::BasicBlock *from = read.getParent(), *to = write.getParent();
  auto range = [](llvm::BasicBlock::iterator begin, llvm::BasicBlock::iterator end) {
    return std::all_of(begin, end, [](const llvm::Instruction &inst) { return repeatable(inst); });
  };
  if (from == to)
    return range(std::next(read.getIterator()), write.getIterator());
  if (!range(std::next(read.getIterator()), from->end()) || !range(to->begin(), write.getIterator()))
    return false;
  // Every other block on a way from `from` to `to`: walked back from `to`,
  // up to `from`, which every such way passes.
  std::set<const llvm::BasicBlock *> seen = {from, to};
  std::vector<llvm::BasicBlock *> work(llvm::pred_begin(to), llvm::pred_end(to));
  while (!work.empty()) {
    llvm::BasicBlock *block = work.back();
    work.pop_back();
    if (!seen.insert(block).second)
      continue;
    if (!range(block->begin(), block->end()))
      return false;
    work.insert(work.end(), llvm::pred_begin(block), llvm::pred_end(block));
  }
  return true;
}

// Whether a compare-and-swap loop can be made of `read` and `write`
// (EditKind::CompareAndSwapLoop): both scalar accesses of one address of one
// type, `read` dominating `write` in the same loop, repeatable code between
// them, and a write that depends on what was read (its value computed from
// it, or a branch between them on it).
bool formsCasLoop(llvm::Instruction &read, llvm::Instruction &write) {
  llvm::Value *pointer = readPointer(read);
  llvm::Value *written = nullptr, *value = nullptr;
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&write)) {
    if (!store->isVolatile())
      written = store->getPointerOperand(), value = store->getValueOperand();
  } else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&write)) {
    written = rmw->getPointerOperand();
    value = rmw->getOperation() == llvm::AtomicRMWInst::Xchg ? rmw->getValOperand() : nullptr;
  }
  if (!pointer || !written || pointer->stripPointerCasts() != written->stripPointerCasts() ||
      read.getFunction() != write.getFunction() || &read == &write)
    return false;
  llvm::Type *type = read.getType();
  llvm::Type *writtenType = llvm::isa<llvm::StoreInst>(write)
                                ? llvm::cast<llvm::StoreInst>(write).getValueOperand()->getType()
                                : write.getType();
  if (type != writtenType ||
      !(type->isIntegerTy(32) || type->isIntegerTy(64) || type->isFloatTy() || type->isDoubleTy()))
    return false;
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&write);
      rmw && !updateFormulaKnown(rmw->getOperation()))
    return false;
  llvm::Function &function = *read.getFunction();
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  if (!dominators.dominates(&read, &write) ||
      loops.getLoopFor(read.getParent()) != loops.getLoopFor(write.getParent()) ||
      !repeatableBetween(read, write))
    return false;
  std::set<const llvm::Value *> computed = valuesComputedFrom(read);
  if (value && computed.count(value))
    return true;
  // A branch on what was read, between the read and the write, that the
  // write is reached through.
  for (llvm::BasicBlock &block : function) {
    auto *branch = llvm::dyn_cast_or_null<llvm::BranchInst>(block.getTerminator());
    if (branch && branch->isConditional() && computed.count(branch->getCondition()) &&
        dominators.dominates(&read, branch) &&
        llvm::isPotentiallyReachable(branch, &write, nullptr, &dominators))
      return true;
  }
  return false;
}

// Makes the loop formsCasLoop accepts.
void makeCompareAndSwapLoop(llvm::Instruction &read, llvm::Instruction &write) {
  llvm::Value *pointer = readPointer(read);
  llvm::Type *type = read.getType();
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&read); load && !load->isAtomic())
    load->setAtomic(llvm::AtomicOrdering::Monotonic);
  llvm::BasicBlock *retry = read.getParent()->splitBasicBlock(&read, "cas.retry");
  llvm::BasicBlock *attempt = write.getParent();
  llvm::BasicBlock *done = attempt->splitBasicBlock(&write, "cas.done");
  llvm::Instruction *jump = attempt->getTerminator();
  llvm::IRBuilder<> builder(jump);
  builder.SetCurrentDebugLocation(write.getDebugLoc());
  llvm::Value *desired = writtenFrom(builder, write, &read);
  // atomicCAS compares bits: floating-point values go through integers of
  // their width (as `__float_as_int` loops do).
  llvm::Type *bits = builder.getIntNTy(unsigned(type->getPrimitiveSizeInBits()));
  auto asBits = [&](llvm::Value *value) {
    return type->isIntegerTy() ? value : builder.CreateBitCast(value, bits);
  };
  llvm::Value *swap = builder.CreateAtomicCmpXchg(pointer, asBits(&read), asBits(desired),
                                                  llvm::MaybeAlign(), llvm::AtomicOrdering::Monotonic,
                                                  llvm::AtomicOrdering::Monotonic);
  builder.CreateCondBr(builder.CreateExtractValue(swap, 1), done, retry);
  jump->eraseFromParent();
  // What an update returned is the value it replaced: the one read, once the
  // swap succeeded.
  if (!write.use_empty())
    write.replaceAllUsesWith(&read);
  write.eraseFromParent();
}

// The same instruction in a copy of its module: found by function name and
// position.
llvm::Instruction *counterpart(const llvm::Instruction &original, llvm::Module &copy) {
  const llvm::Function *function = original.getFunction();
  llvm::Function *other = copy.getFunction(function->getName());
  if (!other)
    return nullptr;
  size_t index = 0;
  for (const llvm::Instruction &inst : llvm::instructions(*function)) {
    if (&inst == &original)
      break;
    ++index;
  }
  for (llvm::Instruction &inst : llvm::instructions(*other))
    if (index-- == 0)
      return &inst;
  return nullptr;
}

// The branch back to the header of the innermost loop holding `inst`: a
// barrier before it ends every iteration; null outside loops or with more
// than one way back.
llvm::Instruction *loopEnd(const llvm::Instruction &inst) {
  auto &function = const_cast<llvm::Function &>(*inst.getFunction());
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  const llvm::Loop *loop = loops.getLoopFor(inst.getParent());
  llvm::BasicBlock *latch = loop ? loop->getLoopLatch() : nullptr;
  return latch ? latch->getTerminator() : nullptr;
}

// Just before `inst` when every thread that reaches its loop iteration (or
// the kernel) reaches it; else before the branch of the nearest enclosing
// code that every such thread runs (`if (i < n) x = ...` gets the barrier
// before the `if`, never inside it, where only some threads would wait).
// Null when no such point is in the same loop.
llvm::Instruction *unconditionalPoint(llvm::Instruction &inst) {
  llvm::Function &function = *inst.getFunction();
  llvm::DominatorTree dominators(function);
  llvm::PostDominatorTree postDominators(function);
  llvm::LoopInfo loops(dominators);
  const llvm::Loop *loop = loops.getLoopFor(inst.getParent());
  const llvm::BasicBlock *start = loop ? loop->getHeader() : &function.getEntryBlock();
  for (llvm::DomTreeNode *node = dominators.getNode(inst.getParent()); node;
       node = node->getIDom()) {
    llvm::BasicBlock *block = node->getBlock();
    if (loops.getLoopFor(block) != loop)
      return nullptr;
    if (postDominators.dominates(block, start))
      return block == inst.getParent() ? &inst : block->getTerminator();
    if (block == start)
      return nullptr;
  }
  return nullptr;
}

// Where an edit inserts a barrier: before `first` (or the code around it
// that every thread runs), or at its loop's end.
llvm::Instruction *barrierPoint(llvm::Instruction &first, bool atLoopEnd) {
  return atLoopEnd ? loopEnd(first) : unconditionalPoint(first);
}

// Whether `kind` edits a pair of instructions (`other` is the second).
bool pairsTwo(EditKind kind) {
  return kind == EditKind::FuseReadModifyWrite || kind == EditKind::CompareAndSwapLoop;
}

bool applies(llvm::Instruction &first, llvm::Instruction *second, EditKind kind,
             bool atLoopEnd) {
  switch (kind) {
  case EditKind::InsertBlockBarrier: case EditKind::InsertWarpBarrier: {
    llvm::Instruction *point = barrierPoint(first, atLoopEnd);
    return point && !llvm::isa<llvm::PHINode>(point) && !point->isEHPad();
  }
  case EditKind::MakeAtomic: return isPlainScalarAccess(first);
  case EditKind::FuseReadModifyWrite: return second && fusionOf(first, *second).has_value();
  case EditKind::CompareAndSwapLoop: return second && formsCasLoop(first, *second);
  case EditKind::RemoveBarrier: return isBarrierCall(first);
  }
  return false;
}

void edit(llvm::Instruction &first, llvm::Instruction *second, EditKind kind, bool atLoopEnd) {
  llvm::Module &module = *first.getModule();
  switch (kind) {
  case EditKind::InsertBlockBarrier: {
    llvm::Instruction *point = barrierPoint(first, atLoopEnd);
    llvm::IRBuilder<> builder(point);
    builder.SetCurrentDebugLocation(point->getDebugLoc() ? point->getDebugLoc() : first.getDebugLoc());
    builder.CreateCall(llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::nvvm_barrier0));
    return;
  }
  case EditKind::InsertWarpBarrier: {
    llvm::Instruction *point = barrierPoint(first, atLoopEnd);
    llvm::IRBuilder<> builder(point);
    builder.SetCurrentDebugLocation(point->getDebugLoc() ? point->getDebugLoc() : first.getDebugLoc());
    builder.CreateCall(llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::nvvm_bar_warp_sync),
                       {builder.getInt32(-1)});
    return;
  }
  case EditKind::MakeAtomic:
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&first))
      load->setAtomic(llvm::AtomicOrdering::Monotonic);
    else
      llvm::cast<llvm::StoreInst>(first).setAtomic(llvm::AtomicOrdering::Monotonic);
    return;
  case EditKind::FuseReadModifyWrite: {
    Fusion fusion = *fusionOf(first, *second);
    llvm::IRBuilder<> builder(second);
    builder.SetCurrentDebugLocation(second->getDebugLoc());
    builder.CreateAtomicRMW(fusion.op, fusion.pointer, fusion.operand, llvm::MaybeAlign(),
                            llvm::AtomicOrdering::Monotonic);
    second->eraseFromParent();
    fusion.computed->eraseFromParent();
    first.eraseFromParent();
    return;
  }
  case EditKind::CompareAndSwapLoop:
    makeCompareAndSwapLoop(first, *second);
    return;
  case EditKind::RemoveBarrier:
    first.eraseFromParent();
    return;
  }
}

} // namespace

std::string fusedAtomicName(const Program &program, const ProgramEdit &edit) {
  auto *read = const_cast<llvm::Instruction *>(instructionOf(program, edit.instruction));
  auto *write = const_cast<llvm::Instruction *>(instructionOf(program, edit.other));
  std::optional<Fusion> fusion = read && write ? fusionOf(*read, *write) : std::nullopt;
  if (!fusion)
    return "";
  switch (fusion->op) {
  case llvm::AtomicRMWInst::Add: case llvm::AtomicRMWInst::FAdd: return "atomicAdd";
  case llvm::AtomicRMWInst::Sub: return "atomicSub";
  case llvm::AtomicRMWInst::FSub: return "atomicAdd of the negated value";
  case llvm::AtomicRMWInst::Or: return "atomicOr";
  case llvm::AtomicRMWInst::And: return "atomicAnd";
  case llvm::AtomicRMWInst::Xor: return "atomicXor";
  default: return "";
  }
}

SourceLocation editLocation(const Program &program, const ProgramEdit &edit) {
  SourceLocation location;
  auto *inst = const_cast<llvm::Instruction *>(instructionOf(program, edit.instruction));
  if (!inst)
    return location;
  location = program.instructions[edit.instruction].location;
  if (edit.kind != EditKind::InsertBlockBarrier && edit.kind != EditKind::InsertWarpBarrier)
    return location;
  llvm::Instruction *point = barrierPoint(*inst, edit.atLoopEnd);
  const llvm::DebugLoc &debug = point ? point->getDebugLoc() : inst->getDebugLoc();
  if (debug && debug.getLine() != 0) {
    location.line = debug.getLine();
    location.column = debug.getCol();
  }
  return location;
}

uint32_t loopLine(const Program &program, uint32_t instruction) {
  const llvm::Instruction *inst = instructionOf(program, instruction);
  if (!inst)
    return 0;
  auto &function = const_cast<llvm::Function &>(*inst->getFunction());
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  const llvm::Loop *loop = loops.getLoopFor(inst->getParent());
  llvm::DebugLoc start = loop ? loop->getStartLoc() : llvm::DebugLoc();
  return start ? start.getLine() : 0;
}

bool editApplies(const Program &program, const ProgramEdit &edit) {
  auto *first = const_cast<llvm::Instruction *>(instructionOf(program, edit.instruction));
  auto *second = const_cast<llvm::Instruction *>(instructionOf(program, edit.other));
  if (!first || !program.module)
    return false;
  return applies(*first, pairsTwo(edit.kind) ? second : nullptr, edit.kind,
                 edit.atLoopEnd);
}

Result<Program> applyEdit(const Program &program, const ProgramEdit &ed) {
  if (!editApplies(program, ed))
    return makeError("the edit does not apply to this instruction");
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream out(bitcode);
  llvm::WriteBitcodeToFile(*program.module, out);
  Program copy;
  copy.path = program.path;
  copy.notes = program.notes;
  copy.context = std::make_unique<llvm::LLVMContext>();
  llvm::Expected<std::unique_ptr<llvm::Module>> parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), program.path),
      *copy.context);
  if (!parsed)
    return makeError("copying the program's IR failed: " + llvm::toString(parsed.takeError()));
  copy.module = std::move(*parsed);
  llvm::Instruction *first = counterpart(*instructionOf(program, ed.instruction), *copy.module);
  llvm::Instruction *second =
      pairsTwo(ed.kind)
          ? counterpart(*instructionOf(program, ed.other), *copy.module)
          : nullptr;
  if (!first || (pairsTwo(ed.kind) && !second) ||
      !applies(*first, second, ed.kind, ed.atLoopEnd))
    return makeError("the edit's instruction was not found in the copy");
  edit(*first, second, ed.kind, ed.atLoopEnd);
  Status lowered = lowerProgram(copy);
  if (!lowered)
    return lowered.error();
  return copy;
}

} // namespace simulee::ir
