#include "ir/AtomicUnits.h"

#include "ir/Builtins.h"
#include "ir/HeaderInlining.h"

#include <llvm/Analysis/CFG.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <optional>
#include <set>
#include <vector>

namespace simulee::ir {

namespace {

// One atomic access as the analysis reads it.
struct AtomicAccess {
  const llvm::Instruction *inst = nullptr;
  AtomicRole role = AtomicRole::None;
  const llvm::Value *stored = nullptr;   // the value written: store, update operand, CAS new
  const llvm::Value *expected = nullptr; // a compare-and-swap's expected value
  bool sets = false;                     // writes a value that ignores the old one
  bool isCas = false;
};

bool isConstantInt(const llvm::Value *value, bool allOnes) {
  const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value);
  return constant && (allOnes ? constant->isMinusOne() : constant->isZero());
}

bool isSignedExtreme(const llvm::Value *value, bool minimum) {
  const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value);
  return constant &&
         (minimum ? constant->getValue().isMinSignedValue() : constant->getValue().isMaxSignedValue());
}

bool isFloatZero(const llvm::Value *value) {
  const auto *constant = llvm::dyn_cast<llvm::ConstantFP>(value);
  return constant && constant->isZero();
}

// The role of an update `op` with operand `operand`: one that leaves every
// value as it was reads; one that moves it one way only is monotonic.
AtomicRole updateRole(AtomicOp op, const llvm::Value *operand) {
  switch (op) {
  case AtomicOp::Add: case AtomicOp::Sub: case AtomicOp::Xor:
    return isConstantInt(operand, false) ? AtomicRole::Reads : AtomicRole::Updates;
  case AtomicOp::Or: case AtomicOp::UMax:
    return isConstantInt(operand, false) ? AtomicRole::Reads : AtomicRole::UpdatesMonotonic;
  case AtomicOp::And: case AtomicOp::UMin:
    return isConstantInt(operand, true) ? AtomicRole::Reads : AtomicRole::UpdatesMonotonic;
  case AtomicOp::Max:
    return isSignedExtreme(operand, true) ? AtomicRole::Reads : AtomicRole::UpdatesMonotonic;
  case AtomicOp::Min:
    return isSignedExtreme(operand, false) ? AtomicRole::Reads : AtomicRole::UpdatesMonotonic;
  case AtomicOp::FAdd: case AtomicOp::FSub:
    return isFloatZero(operand) ? AtomicRole::Reads : AtomicRole::Updates;
  case AtomicOp::FMax: case AtomicOp::FMin:
    return AtomicRole::UpdatesMonotonic;
  case AtomicOp::Xchg: case AtomicOp::UIncWrap: case AtomicOp::UDecWrap:
    return AtomicRole::Updates;
  }
  return AtomicRole::Updates;
}

std::optional<AtomicOp> atomicOpOf(llvm::AtomicRMWInst::BinOp op) {
  using llvm::AtomicRMWInst;
  switch (op) {
  case AtomicRMWInst::Xchg: return AtomicOp::Xchg;
  case AtomicRMWInst::Add: return AtomicOp::Add;
  case AtomicRMWInst::Sub: return AtomicOp::Sub;
  case AtomicRMWInst::And: return AtomicOp::And;
  case AtomicRMWInst::Or: return AtomicOp::Or;
  case AtomicRMWInst::Xor: return AtomicOp::Xor;
  case AtomicRMWInst::Max: return AtomicOp::Max;
  case AtomicRMWInst::Min: return AtomicOp::Min;
  case AtomicRMWInst::UMax: return AtomicOp::UMax;
  case AtomicRMWInst::UMin: return AtomicOp::UMin;
  case AtomicRMWInst::FAdd: return AtomicOp::FAdd;
  case AtomicRMWInst::FSub: return AtomicOp::FSub;
  case AtomicRMWInst::FMax: return AtomicOp::FMax;
  case AtomicRMWInst::FMin: return AtomicOp::FMin;
  case AtomicRMWInst::UIncWrap: return AtomicOp::UIncWrap;
  case AtomicRMWInst::UDecWrap: return AtomicOp::UDecWrap;
  default: return std::nullopt;
  }
}

AtomicAccess update(const llvm::Instruction &inst, AtomicOp op, const llvm::Value *operand) {
  AtomicAccess access{&inst, updateRole(op, operand), operand};
  access.sets = op == AtomicOp::Xchg;
  return access;
}

AtomicAccess compareAndSwap(const llvm::Instruction &inst, const llvm::Value *expected,
                            const llvm::Value *desired) {
  AtomicAccess access{&inst, AtomicRole::Updates, desired, expected};
  access.isCas = true;
  return access;
}

std::optional<AtomicAccess> atomicAccessOf(const llvm::Instruction &inst) {
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return load->isAtomic() ? std::optional(AtomicAccess{&inst, AtomicRole::Reads})
                            : std::nullopt;
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
    if (!store->isAtomic())
      return std::nullopt;
    AtomicAccess access{&inst, AtomicRole::Writes, store->getValueOperand()};
    access.sets = true;
    return access;
  }
  if (const auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst)) {
    std::optional<AtomicOp> op = atomicOpOf(rmw->getOperation());
    if (!op)
      return AtomicAccess{&inst, AtomicRole::Updates, rmw->getValOperand()};
    return update(inst, *op, rmw->getValOperand());
  }
  if (const auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
    return compareAndSwap(inst, cas->getCompareOperand(), cas->getNewValOperand());
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee)
    return std::nullopt;
  std::optional<Builtin> builtin = classifyBuiltin(callee->getName());
  if (builtin && builtin->kind == BuiltinKind::AtomicRMW && call->arg_size() >= 2)
    return update(inst, AtomicOp(builtin->selector), call->getArgOperand(1));
  if (builtin && builtin->kind == BuiltinKind::CmpXchg && call->arg_size() >= 3)
    return compareAndSwap(inst, call->getArgOperand(1), call->getArgOperand(2));
  return std::nullopt;
}

bool modifies(AtomicRole role) {
  return role == AtomicRole::Writes || role == AtomicRole::Updates ||
         role == AtomicRole::UpdatesMonotonic;
}

// The values computed from one access's result through registers: `any`
// through everything, `data` not through a comparison (nor a compare-and-
// swap's success flag).
struct Flow {
  std::set<const llvm::Value *> any, data;
};

bool passesValues(const llvm::Instruction &user) {
  if (llvm::isa<llvm::BinaryOperator, llvm::UnaryOperator, llvm::CastInst, llvm::PHINode,
                llvm::SelectInst, llvm::ExtractValueInst, llvm::InsertValueInst,
                llvm::GetElementPtrInst, llvm::FreezeInst, llvm::CmpInst,
                llvm::ExtractElementInst, llvm::InsertElementInst>(user))
    return true;
  // Pure intrinsics (llvm.umax, llvm.fabs): a function of their operands.
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&user);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->isIntrinsic() && callee->doesNotAccessMemory();
}

Flow flowFrom(const AtomicAccess &source) {
  Flow flow;
  std::vector<std::pair<const llvm::Value *, bool>> work = {{source.inst, true}};
  flow.any.insert(source.inst);
  flow.data.insert(source.inst);
  while (!work.empty()) {
    auto [value, data] = work.back();
    work.pop_back();
    for (const llvm::User *user : value->users()) {
      const auto *inst = llvm::dyn_cast<llvm::Instruction>(user);
      if (!inst || !passesValues(*inst))
        continue;
      bool stillData = data && !llvm::isa<llvm::CmpInst>(inst);
      if (const auto *select = llvm::dyn_cast<llvm::SelectInst>(inst))
        stillData &= select->getCondition() != value;
      if (const auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(inst))
        stillData &= !(source.isCas && value == source.inst && extract->getIndices()[0] == 1);
      bool grew = flow.any.insert(inst).second;
      if (stillData && flow.data.insert(inst).second)
        grew = true;
      if (grew)
        work.push_back({inst, stillData});
    }
  }
  return flow;
}

// Whether some value of `values` is used as data: stored, written by an
// atomic, passed to a call or returned.
bool usedAsData(const std::set<const llvm::Value *> &values) {
  for (const llvm::Value *value : values)
    for (const llvm::User *user : value->users()) {
      if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getValueOperand() == value)
          return true;
      } else if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst, llvm::ReturnInst>(user)) {
        return true;
      } else if (const auto *call = llvm::dyn_cast<llvm::CallInst>(user)) {
        const llvm::Function *callee = call->getCalledFunction();
        if (!callee || !(callee->isIntrinsic() && callee->doesNotAccessMemory()))
          return true;
      }
    }
  return false;
}

class PairFinder {
public:
  explicit PairFinder(const llvm::Function &function) : dominators_(const_cast<llvm::Function &>(function)) {
    for (const llvm::BasicBlock &block : function)
      for (const llvm::Instruction &inst : block)
        if (std::optional<AtomicAccess> access = atomicAccessOf(inst))
          accesses_.push_back(*access);
  }

  std::vector<AtomicUnitCandidate> run() {
    std::vector<AtomicUnitCandidate> units;
    for (const AtomicAccess &first : accesses_) {
      if (first.role == AtomicRole::None)
        continue;
      Flow flow = flowFrom(first);
      for (const AtomicAccess &second : accesses_) {
        if (second.inst == first.inst ||
            !llvm::isPotentiallyReachable(first.inst, second.inst, nullptr, &dominators_))
          continue;
        if (std::optional<AtomicityPattern> pattern = patternOf(first, flow, second))
          units.push_back({first.inst, second.inst, *pattern});
      }
    }
    return units;
  }

private:
  std::optional<AtomicityPattern> patternOf(const AtomicAccess &first, const Flow &flow,
                                            const AtomicAccess &second) const {
    bool validated = second.isCas && second.expected && flow.any.count(second.expected);
    if (first.role == AtomicRole::Reads) {
      if (second.role == AtomicRole::Updates || second.role == AtomicRole::Writes) {
        if (validated)
          return std::nullopt;
        if (second.stored && flow.any.count(second.stored))
          return AtomicityPattern::ReadWriteWrite;
        if (guarded(flow, *second.inst))
          return AtomicityPattern::CheckThenAct;
        return std::nullopt;
      }
      if (second.role == AtomicRole::Reads && guarded(flow, *second.inst) &&
          !second.inst->use_empty())
        return AtomicityPattern::ReadWriteRead;
      return std::nullopt;
    }
    if (!modifies(first.role))
      return std::nullopt;
    if ((second.role == AtomicRole::Updates || second.role == AtomicRole::Writes) && !validated &&
        first.role != AtomicRole::Writes && second.stored && flow.data.count(second.stored))
      return AtomicityPattern::WriteReadWrite;
    if (first.sets && second.role == AtomicRole::Reads && usedAsData(flowFrom(second).data))
      return AtomicityPattern::WriteWriteRead;
    return std::nullopt;
  }

  // `inst` runs only after a branch on a value of `flow` took one edge.
  bool guarded(const Flow &flow, const llvm::Instruction &inst) const {
    for (const llvm::Value *value : flow.any)
      for (const llvm::User *user : value->users()) {
        const auto *terminator = llvm::dyn_cast<llvm::Instruction>(user);
        if (!terminator || !terminator->isTerminator() || !dominatesViaEdge(*terminator, inst))
          continue;
        const auto *branch = llvm::dyn_cast<llvm::BranchInst>(terminator);
        const auto *choice = llvm::dyn_cast<llvm::SwitchInst>(terminator);
        if ((branch && branch->isConditional() && branch->getCondition() == value) ||
            (choice && choice->getCondition() == value))
          return true;
      }
    return false;
  }

  bool dominatesViaEdge(const llvm::Instruction &terminator, const llvm::Instruction &inst) const {
    const llvm::BasicBlock *from = terminator.getParent();
    std::set<const llvm::BasicBlock *> targets(llvm::succ_begin(from), llvm::succ_end(from));
    if (targets.size() < 2)
      return false;
    for (const llvm::BasicBlock *to : targets)
      if (dominators_.dominates(llvm::BasicBlockEdge(from, to), inst.getParent()))
        return true;
    return false;
  }

  llvm::DominatorTree dominators_;
  std::vector<AtomicAccess> accesses_;
};

} // namespace

AtomicRole atomicRoleOf(const llvm::Instruction &inst) {
  std::optional<AtomicAccess> access = atomicAccessOf(inst);
  return access ? access->role : AtomicRole::None;
}

namespace {

// The address a compare-and-swap (instruction or builtin call) works on.
const llvm::Value *swappedAddress(const llvm::Instruction &cas) {
  if (const auto *inst = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&cas))
    return inst->getPointerOperand();
  return llvm::cast<llvm::CallInst>(cas).getArgOperand(0);
}

// Two pointers the code computes the same way: one value up to casts, or
// identical address computations.
bool sameAddress(const llvm::Value *a, const llvm::Value *b) {
  a = a->stripPointerCasts();
  b = b->stripPointerCasts();
  const auto *first = llvm::dyn_cast<llvm::Instruction>(a);
  const auto *second = llvm::dyn_cast<llvm::Instruction>(b);
  return a == b || (first && second && first->isIdenticalTo(second));
}

// A call of a bit cast builtin (__float_as_int, __longlong_as_double).
bool reinterpretsBits(const llvm::Instruction &inst) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  std::optional<Builtin> builtin = callee ? classifyBuiltin(callee->getName()) : std::nullopt;
  return builtin && builtin->kind == BuiltinKind::Bitcast;
}

} // namespace

bool seedsCompareAndSwap(const llvm::LoadInst &load) {
  if (load.isAtomic())
    return false;
  std::vector<const llvm::Value *> work = {&load};
  std::set<const llvm::Value *> seen = {&load};
  while (!work.empty()) {
    const llvm::Value *value = work.back();
    work.pop_back();
    for (const llvm::User *user : value->users()) {
      const auto *inst = llvm::dyn_cast<llvm::Instruction>(user);
      if (!inst)
        continue;
      std::optional<AtomicAccess> access = atomicAccessOf(*inst);
      if (access && access->isCas && access->expected == value &&
          sameAddress(swappedAddress(*inst), load.getPointerOperand()))
        return true;
      if ((llvm::isa<llvm::PHINode, llvm::BitCastInst, llvm::FreezeInst>(inst) ||
           reinterpretsBits(*inst)) &&
          seen.insert(inst).second)
        work.push_back(inst);
    }
  }
  return false;
}

std::set<const llvm::Value *> valuesComputedFrom(const llvm::Instruction &inst) {
  return flowFrom(AtomicAccess{&inst}).any;
}

std::vector<AtomicUnitCandidate> atomicUnits(const llvm::Function &function) {
  if (function.isDeclaration())
    return {};
  std::vector<AtomicUnitCandidate> units = PairFinder(function).run();
  // Two accesses inside one call of NVIDIA's or clang's headers are the
  // library's protocol (a barrier's arrival counts down, then the last
  // arrival starts the next phase), not a step the user's code meant.
  std::erase_if(units, [](const AtomicUnitCandidate &unit) {
    return insideOneHeaderCall(*unit.first, *unit.second);
  });
  return units;
}

} // namespace simulee::ir
