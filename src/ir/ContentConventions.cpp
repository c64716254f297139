#include "ir/ContentConventions.h"

#include "ir/Builtins.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

namespace simulee::ir {
namespace {

// The parameter a load reads through, if any: its address is computed from
// a pointer parameter (offsets and casts).
const llvm::Argument *parameterRead(const llvm::LoadInst &load) {
  const llvm::Value *base = llvm::getUnderlyingObject(load.getPointerOperand(), 0);
  const auto *argument = llvm::dyn_cast<llvm::Argument>(base);
  return argument && argument->getType()->isPointerTy() ? argument : nullptr;
}

// The parameter whose memory a load reads: through the parameter itself,
// or through a pointer read from it (`s.maxVal[i]` of a struct `s` passed
// by value, `n->data[i]` of a `Node *n`), memory simulee gives the
// parameter's pointer members and fills as it fills the parameter's.
const llvm::Argument *memoryRead(const llvm::LoadInst &load) {
  if (const llvm::Argument *parameter = parameterRead(load))
    return parameter;
  const auto *pointer = llvm::dyn_cast<llvm::LoadInst>(
      llvm::getUnderlyingObject(load.getPointerOperand(), 0));
  return pointer && pointer->getType()->isPointerTy() ? parameterRead(*pointer) : nullptr;
}

// The loads whose values `bounds` are computed from through registers
// (arithmetic, casts, comparisons, selects, phis); not through memory.
std::set<const llvm::LoadInst *> loadsBehind(const std::vector<const llvm::Value *> &bounds) {
  std::set<const llvm::LoadInst *> loads;
  std::set<const llvm::Value *> seen;
  std::vector<const llvm::Value *> work = bounds;
  while (!work.empty()) {
    const llvm::Value *value = work.back();
    work.pop_back();
    if (!seen.insert(value).second)
      continue;
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(value)) {
      loads.insert(load);
      continue;
    }
    if (!llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::CmpInst, llvm::SelectInst,
                   llvm::PHINode, llvm::FreezeInst, llvm::UnaryOperator>(value))
      continue;
    for (const llvm::Value *operand : llvm::cast<llvm::User>(value)->operands())
      work.push_back(operand);
  }
  return loads;
}

// What bounds `loop`: the conditions of the branches that leave it (through
// its counter's phi, they reach where the counter starts).
std::vector<const llvm::Value *> boundsOf(const llvm::Loop &loop) {
  std::vector<const llvm::Value *> bounds;
  llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (const llvm::BasicBlock *block : exiting)
    if (const auto *branch = llvm::dyn_cast_or_null<llvm::BranchInst>(block->getTerminator());
        branch && branch->isConditional())
      bounds.push_back(branch->getCondition());
  return bounds;
}

// Whether `address` (a getelementptr's result) is only ever stored through:
// plain stores, through further offsets, casts, selects and phis; never
// read, passed on or accessed atomically.
bool onlyStoredThrough(const llvm::Value *address) {
  bool stored = false;
  std::set<const llvm::Value *> seen;
  std::vector<const llvm::Value *> work = {address};
  while (!work.empty()) {
    const llvm::Value *value = work.back();
    work.pop_back();
    if (!seen.insert(value).second)
      continue;
    for (const llvm::User *user : value->users()) {
      if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getValueOperand() == value)
          return false; // the address itself escapes
        stored = true;
      } else if (llvm::isa<llvm::GetElementPtrInst, llvm::BitCastInst, llvm::AddrSpaceCastInst,
                           llvm::SelectInst, llvm::PHINode>(user)) {
        work.push_back(user);
      } else {
        return false;
      }
    }
  }
  return stored;
}

// What `load`'s value, or one computed from it through registers, is to
// the addresses it is an index of (an operand of a getelementptr other than
// its base): Scatter where every such address is only stored through,
// Index where one is read too, None where it indexes nothing.
ContentRole indexRole(const llvm::LoadInst &load) {
  bool indexes = false, read = false;
  std::set<const llvm::Value *> seen;
  std::vector<const llvm::Value *> work = {&load};
  while (!work.empty()) {
    const llvm::Value *value = work.back();
    work.pop_back();
    if (!seen.insert(value).second)
      continue;
    for (const llvm::User *user : value->users()) {
      if (const auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
        if (address->getPointerOperand() != value) {
          indexes = true;
          read |= !onlyStoredThrough(address);
        }
      } else if (llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::PHINode, llvm::FreezeInst>(
                     user) ||
                 (llvm::isa<llvm::SelectInst>(user) &&
                  llvm::cast<llvm::SelectInst>(user)->getCondition() != value)) {
        work.push_back(user);
      }
    }
  }
  if (!indexes)
    return ContentRole::None;
  return read ? ContentRole::Index : ContentRole::Scatter;
}

// A call that computes from its operands alone: a pure intrinsic, or one of
// CUDA's integer and math builtins (umin, __nv_umin, __clz).
bool computesFromOperands(const llvm::CallInst &call) {
  if (call.doesNotAccessMemory())
    return true;
  const llvm::Function *callee = call.getCalledFunction();
  std::optional<Builtin> builtin = callee ? classifyBuiltin(callee->getName()) : std::nullopt;
  if (!builtin)
    return false;
  switch (builtin->kind) {
  case BuiltinKind::IntUnary:
  case BuiltinKind::IntBinary:
  case BuiltinKind::MathUnary:
  case BuiltinKind::MathBinary:
    return true;
  default:
    return false;
  }
}

// The phis of `loop` that branch `branch` decides: those with incoming
// values from different successors of it (an edge from the branch itself, or
// a block only one successor reaches first).
std::vector<const llvm::PHINode *> decidedBy(const llvm::BranchInst &branch, const llvm::Loop &loop,
                                             const llvm::DominatorTree &dominators) {
  // The successor through which `incoming` (a predecessor of `block`) is
  // reached from the branch, or -1.
  auto side = [&](const llvm::BasicBlock *incoming, const llvm::BasicBlock *block) -> int {
    for (unsigned s = 0; s < branch.getNumSuccessors(); ++s) {
      const llvm::BasicBlock *successor = branch.getSuccessor(s);
      bool direct = incoming == branch.getParent() && successor == block;
      if (direct || (incoming != branch.getParent() && dominators.dominates(successor, incoming)))
        return int(s);
    }
    return -1;
  };
  std::vector<const llvm::PHINode *> decided;
  for (const llvm::BasicBlock *block : loop.blocks())
    for (const llvm::PHINode &phi : block->phis()) {
      std::set<int> sides;
      for (const llvm::BasicBlock *incoming : phi.blocks())
        sides.insert(side(incoming, block));
      sides.erase(-1);
      if (sides.size() >= 2)
        decided.push_back(&phi);
    }
  return decided;
}

// Whether `load`, in `loop`, is a search's probe: its value, compared,
// steers the address it reads next, through registers, selects, the
// loop's phis and the phis a branch on it decides.
bool probes(const llvm::LoadInst &load, const llvm::Loop &loop,
            const llvm::DominatorTree &dominators) {
  // Registers, and calls that compute from their operands alone.
  auto passes = [](const llvm::Value *value) {
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(value))
      return computesFromOperands(*call);
    return llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::CmpInst, llvm::SelectInst,
                     llvm::PHINode, llvm::FreezeInst, llvm::GetElementPtrInst>(value);
  };
  // What the address is computed from.
  std::set<const llvm::Value *> address;
  std::vector<const llvm::Value *> work = {load.getPointerOperand()};
  while (!work.empty()) {
    const llvm::Value *value = work.back();
    work.pop_back();
    if (!address.insert(value).second || !passes(value))
      continue;
    for (const llvm::Value *operand : llvm::cast<llvm::User>(value)->operands())
      work.push_back(operand);
  }
  // What the value decides, once compared.
  std::set<const llvm::Value *> seen;
  std::vector<std::pair<const llvm::Value *, bool>> flow = {{&load, false}};
  while (!flow.empty()) {
    auto [value, compared] = flow.back();
    flow.pop_back();
    if (!seen.insert(value).second)
      continue;
    if (compared && value != &load && address.count(value))
      return true;
    for (const llvm::User *user : value->users()) {
      const auto *branch = llvm::dyn_cast<llvm::BranchInst>(user);
      if (branch && compared && branch->isConditional() && loop.contains(branch))
        for (const llvm::PHINode *phi : decidedBy(*branch, loop, dominators))
          flow.push_back({phi, true});
      else if (passes(user))
        flow.push_back({user, compared || llvm::isa<llvm::CmpInst>(user)});
    }
  }
  return false;
}

// Whether `call` reads a thread's or a block's index (threadIdx, blockIdx),
// as the interpreter's builtin table classifies it.
bool readsThreadOrBlockIndex(const llvm::CallInst &call) {
  const llvm::Function *callee = call.getCalledFunction();
  std::optional<Builtin> builtin = callee ? classifyBuiltin(callee->getName()) : std::nullopt;
  if (!builtin || builtin->kind != BuiltinKind::SpecialReg)
    return false;
  auto reg = SpecialRegister(builtin->selector);
  return (reg >= SpecialRegister::TidX && reg <= SpecialRegister::TidZ) ||
         (reg >= SpecialRegister::CtaIdX && reg <= SpecialRegister::CtaIdZ);
}

// The addresses an access reads or writes: its pointer operands.
std::vector<const llvm::Value *> addressesOf(const llvm::Instruction &access) {
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&access))
    return {load->getPointerOperand()};
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&access))
    return {store->getPointerOperand()};
  if (const auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&access))
    return {rmw->getPointerOperand()};
  if (const auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&access))
    return {cas->getPointerOperand()};
  std::vector<const llvm::Value *> pointers;
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&access))
    for (const llvm::Use &arg : call->args())
      if (arg->getType()->isPointerTy())
        pointers.push_back(arg.get());
  return pointers;
}

// Where an access's address comes from, backwards through registers: the
// kernel's parameters whose contents it reads (`read`), those among them
// it uses as keys (see keyedAddressParameters), and whether a thread's or
// block's index is a term too.
struct AddressSources {
  std::set<uint32_t> keys, read;
  bool threadRelative = false;
};

// The kernel's own LLVM instruction of Program instruction `instruction`,
// or null (none, or in another function).
const llvm::Instruction *kernelInstruction(const Program &program, const KernelInfo &kernel,
                                           uint32_t instruction) {
  if (instruction >= program.instructions.size() || !program.instructions[instruction].llvm ||
      program.instructions[instruction].llvm->getFunction()->getName() != kernel.name)
    return nullptr;
  return program.instructions[instruction].llvm;
}

// Where `values` come from, backwards through registers (see AddressSources).
AddressSources sourcesOf(const std::vector<const llvm::Value *> &values) {
  AddressSources sources;
  // `keyed`: a subtraction from, a division or a right shift of the value on
  // the way.
  std::set<uint32_t> &keys = sources.keys, &read = sources.read;
  bool &threadRelative = sources.threadRelative;
  std::set<std::pair<const llvm::Value *, bool>> seen;
  std::vector<std::pair<const llvm::Value *, bool>> work;
  for (const llvm::Value *value : values)
    work.push_back({value, false});
  while (!work.empty()) {
    auto [value, keyed] = work.back();
    work.pop_back();
    if (!seen.insert({value, keyed}).second)
      continue;
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(value)) {
      // A pointer read from a buffer (`grid->cells[i]`) is memory the host
      // allocated, whose bytes are no key or index of the address.
      if (const llvm::Argument *parameter = memoryRead(*load);
          parameter && !load->getType()->isPointerTy()) {
        read.insert(parameter->getArgNo());
        if (keyed)
          keys.insert(parameter->getArgNo());
      }
      continue; // what it read through is its own address, not this one's
    }
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(value)) {
      threadRelative |= readsThreadOrBlockIndex(*call);
      continue;
    }
    if (const auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(value)) {
      switch (binary->getOpcode()) {
      case llvm::Instruction::Sub:
      case llvm::Instruction::FSub:
      case llvm::Instruction::SDiv:
      case llvm::Instruction::UDiv:
      case llvm::Instruction::FDiv:
      case llvm::Instruction::LShr:
      case llvm::Instruction::AShr:
        work.push_back({binary->getOperand(0), true}); // rebased or scaled down
        work.push_back({binary->getOperand(1), keyed});
        continue;
      default:
        break;
      }
    }
    if (!llvm::isa<llvm::GetElementPtrInst, llvm::BinaryOperator, llvm::CastInst,
                   llvm::SelectInst, llvm::PHINode, llvm::FreezeInst, llvm::UnaryOperator>(value))
      continue;
    for (const llvm::Value *operand : llvm::cast<llvm::User>(value)->operands())
      work.push_back({operand, keyed});
  }
  return sources;
}

AddressSources addressSourcesOf(const Program &program, const KernelInfo &kernel,
                                uint32_t instruction) {
  const llvm::Instruction *access = kernelInstruction(program, kernel, instruction);
  return access ? sourcesOf(addressesOf(*access)) : AddressSources{};
}

} // namespace

std::vector<uint32_t> keyedAddressParameters(const Program &program, const KernelInfo &kernel,
                                             uint32_t instruction) {
  AddressSources sources = addressSourcesOf(program, kernel, instruction);
  // Beside a thread's or block's index, a value read is an offset into its
  // slice (`H + blockIdx.x * BINS + A[i]`), not an index of the buffer.
  if (sources.threadRelative)
    sources.keys.insert(sources.read.begin(), sources.read.end());
  return {sources.keys.begin(), sources.keys.end()};
}

std::vector<uint32_t> addressParameters(const Program &program, const KernelInfo &kernel,
                                        uint32_t instruction) {
  AddressSources sources = addressSourcesOf(program, kernel, instruction);
  return {sources.read.begin(), sources.read.end()};
}

std::vector<uint32_t> operandParameters(const Program &program, const KernelInfo &kernel,
                                        uint32_t instruction) {
  const auto *arithmetic =
      llvm::dyn_cast_or_null<llvm::BinaryOperator>(kernelInstruction(program, kernel, instruction));
  if (!arithmetic)
    return {};
  AddressSources sources = sourcesOf({arithmetic->getOperand(0), arithmetic->getOperand(1)});
  return {sources.read.begin(), sources.read.end()};
}

namespace {

// What `summarize()` works out of a function the kernel calls, once per
// `cache` and key (the function, the calls deep left to look): a summary
// of each parameter, used wherever the function is called. The cache is a
// map, whose elements stay where they are while `summarize` adds others.
template <class Cache, class Summarize>
const typename Cache::mapped_type &summaryOf(Cache &cache, const llvm::Function &function,
                                             unsigned depth, Summarize summarize) {
  auto known = cache.find({&function, depth});
  if (known == cache.end())
    known = cache.emplace(std::pair{&function, depth}, summarize()).first;
  return known->second;
}

// Roles already worked out, by function and the calls deep left to look.
using RoleCache = std::map<std::pair<const llvm::Function *, unsigned>, std::vector<ContentRole>>;

std::vector<ContentRole> rolesIn(const llvm::Function &function, unsigned depth, RoleCache &cache);

// Sorted contents a function the kernel calls searches: a pointer the call
// passes, read through a parameter of the kernel, is searched there (a
// binary search in a helper: `binarySearch(keys + base, n, v)`). A few
// calls deep.
void addSearchedByCallees(const llvm::Function &function, unsigned depth,
                          std::vector<ContentRole> &roles, RoleCache &cache) {
  if (depth == 0)
    return;
  for (const llvm::BasicBlock &block : function)
    for (const llvm::Instruction &inst : block) {
      const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
      const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || callee->isDeclaration() || callee == &function ||
          std::none_of(callee->arg_begin(), callee->arg_end(),
                       [](const llvm::Argument &a) { return a.getType()->isPointerTy(); }))
        continue;
      const std::vector<ContentRole> &calleeRoles =
          summaryOf(cache, *callee, depth - 1, [&] { return rolesIn(*callee, depth - 1, cache); });
      for (unsigned i = 0; i < call->arg_size() && i < calleeRoles.size(); ++i) {
        if (calleeRoles[i] != ContentRole::Sorted)
          continue;
        // Through selects and phis too: `first ? keys + half : keys`.
        llvm::SmallVector<const llvm::Value *, 4> objects;
        llvm::getUnderlyingObjects(call->getArgOperand(i), objects);
        for (const llvm::Value *object : objects) {
          const auto *parameter = llvm::dyn_cast<llvm::Argument>(object);
          if (parameter && parameter->getParent() == &function &&
              parameter->getType()->isPointerTy() &&
              roles[parameter->getArgNo()] == ContentRole::None)
            roles[parameter->getArgNo()] = ContentRole::Sorted;
        }
      }
    }
}

std::vector<ContentRole> rolesIn(const llvm::Function &kernel, unsigned depth, RoleCache &cache) {
  std::vector<ContentRole> roles(kernel.arg_size(), ContentRole::None);
  if (kernel.isDeclaration())
    return roles;
  // A parameter any of whose values indexes an address that is read is an
  // Index; one whose values only say where to store, a Scatter.
  for (const llvm::BasicBlock &block : kernel)
    for (const llvm::Instruction &inst : block)
      if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
        if (const llvm::Argument *parameter = parameterRead(*load)) {
          ContentRole &role = roles[parameter->getArgNo()];
          ContentRole found = indexRole(*load);
          if (found == ContentRole::Index ||
              (found == ContentRole::Scatter && role == ContentRole::None))
            role = found;
        }
  auto &function = const_cast<llvm::Function &>(kernel);
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  for (const llvm::Loop *loop : loops.getLoopsInPreorder()) {
    std::map<const llvm::Argument *, unsigned> reads;
    for (const llvm::LoadInst *load : loadsBehind(boundsOf(*loop)))
      if (const llvm::Argument *parameter = parameterRead(*load))
        ++reads[parameter];
    for (auto [parameter, count] : reads)
      if (count >= 2)
        roles[parameter->getArgNo()] = ContentRole::Offsets;
    for (const llvm::BasicBlock *block : loop->blocks())
      for (const llvm::Instruction &inst : *block)
        if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
          if (const llvm::Argument *parameter = parameterRead(*load);
              parameter && roles[parameter->getArgNo()] == ContentRole::None &&
              probes(*load, *loop, dominators))
            roles[parameter->getArgNo()] = ContentRole::Sorted;
  }
  addSearchedByCallees(kernel, depth, roles, cache);
  return roles;
}

} // namespace

std::vector<ContentRole> contentRoles(const llvm::Function &kernel) {
  constexpr unsigned kCallDepth = 3;
  RoleCache cache;
  return rolesIn(kernel, kCallDepth, cache);
}

namespace {

// By function and the calls deep left to look: per parameter, the least
// exponent s at which the parameter, times 2^s, reaches a mask.
using MaskCache =
    std::map<std::pair<const llvm::Function *, unsigned>, std::vector<std::optional<int>>>;

std::vector<std::optional<int>> maskScalesIn(const llvm::Function &function, unsigned depth,
                                             MaskCache &cache);

// The power of two `constant` is, as an exponent.
std::optional<int> exponentOf(const llvm::Value *constant) {
  const auto *integer = llvm::dyn_cast<llvm::ConstantInt>(constant);
  if (!integer || integer->isNegative() || !integer->getValue().isPowerOf2())
    return std::nullopt;
  return int(integer->getValue().logBase2());
}

// A shift's constant amount.
std::optional<int> amountOf(const llvm::Value *constant) {
  const auto *integer = llvm::dyn_cast<llvm::ConstantInt>(constant);
  if (!integer || integer->getValue().uge(64))
    return std::nullopt;
  return int(integer->getZExtValue());
}

// Whether `minusOne` (`v - 1`, computed from `v`) is an operand of an `and`
// whose other operand is not `v` (`v & (v - 1)` tests for a power of two),
// through casts.
bool masks(const llvm::Value *minusOne, const llvm::Value *v) {
  std::vector<const llvm::Value *> work = {minusOne};
  while (!work.empty()) {
    const llvm::Value *value = work.back();
    work.pop_back();
    for (const llvm::User *user : value->users()) {
      if (llvm::isa<llvm::ZExtInst, llvm::SExtInst, llvm::TruncInst, llvm::FreezeInst>(user)) {
        work.push_back(user);
        continue;
      }
      const auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(user);
      if (!binary || binary->getOpcode() != llvm::Instruction::And)
        continue;
      const llvm::Value *other =
          binary->getOperand(0) == value ? binary->getOperand(1) : binary->getOperand(0);
      if (other != v && !llvm::isa<llvm::Constant>(other))
        return true;
    }
  }
  return false;
}

// The least exponent s at which `start` times 2^s reaches a mask (see
// maskedIntegers), in its function or a callee `depth` calls deep.
std::optional<int> maskScaleOf(const llvm::Value *start, unsigned depth, MaskCache &cache) {
  constexpr int kLargestScale = 62;
  std::optional<int> least;
  auto found = [&](int scale) { least = least ? std::min(*least, scale) : scale; };
  std::set<std::pair<const llvm::Value *, int>> seen;
  std::vector<std::pair<const llvm::Value *, int>> work = {{start, 0}};
  while (!work.empty()) {
    auto [value, scale] = work.back();
    work.pop_back();
    if (std::abs(scale) > kLargestScale || !seen.insert({value, scale}).second)
      continue;
    for (const llvm::User *user : value->users()) {
      if (llvm::isa<llvm::ZExtInst, llvm::SExtInst, llvm::TruncInst, llvm::FreezeInst>(user)) {
        work.push_back({user, scale});
        continue;
      }
      if (const auto *call = llvm::dyn_cast<llvm::CallInst>(user)) {
        const llvm::Function *callee = call->getCalledFunction();
        if (depth == 0 || !callee || callee->isDeclaration() || callee->isVarArg())
          continue;
        const std::vector<std::optional<int>> &calleeScales = summaryOf(
            cache, *callee, depth - 1, [&] { return maskScalesIn(*callee, depth - 1, cache); });
        for (unsigned i = 0; i < call->arg_size() && i < calleeScales.size(); ++i)
          if (call->getArgOperand(i) == value && calleeScales[i])
            found(scale + *calleeScales[i]);
        continue;
      }
      const auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(user);
      if (!binary)
        continue;
      bool first = binary->getOperand(0) == value;
      const llvm::Value *other = first ? binary->getOperand(1) : binary->getOperand(0);
      const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(other);
      std::optional<int> exponent = exponentOf(other);
      std::optional<int> amount = amountOf(other);
      switch (binary->getOpcode()) {
      case llvm::Instruction::Mul:
        if (exponent)
          work.push_back({binary, scale + *exponent});
        break;
      case llvm::Instruction::Shl:
        if (first && amount)
          work.push_back({binary, scale + *amount});
        break;
      case llvm::Instruction::UDiv:
      case llvm::Instruction::SDiv:
        if (first && exponent)
          work.push_back({binary, scale - *exponent});
        break;
      case llvm::Instruction::LShr:
      case llvm::Instruction::AShr:
        if (first && amount)
          work.push_back({binary, scale - *amount});
        break;
      case llvm::Instruction::Add:
        if (constant && constant->isMinusOne() && masks(binary, value))
          found(scale);
        break;
      case llvm::Instruction::Sub:
        if (first && constant && constant->isOne() && masks(binary, value))
          found(scale);
        break;
      default:
        break;
      }
    }
  }
  return least;
}

std::vector<std::optional<int>> maskScalesIn(const llvm::Function &function, unsigned depth,
                                             MaskCache &cache) {
  std::vector<std::optional<int>> scales(function.arg_size());
  for (const llvm::Argument &argument : function.args())
    if (argument.getType()->isIntegerTy())
      scales[argument.getArgNo()] = maskScaleOf(&argument, depth, cache);
  return scales;
}

// Values `low..high` of an index, and the range of `value` that gives
// them through the index's computation from a value read through a kernel
// parameter (see keyRanges): the parameter and that range.
struct KeyedRange {
  const llvm::Argument *parameter = nullptr;
  int64_t low = 0, high = 0;
};
std::optional<KeyedRange> keyedBy(const llvm::Value *index, int64_t low, int64_t high) {
  constexpr int64_t kLargest = int64_t(1) << 40;
  auto floorDivide = [](int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); };
  auto ceilDivide = [](int64_t a, int64_t b) { return a / b + (a % b != 0 && a > 0); };
  const llvm::Value *value = index;
  for (int depth = 0; depth < 16; ++depth) {
    if (low > high || low < -kLargest || high > kLargest)
      return std::nullopt;
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(value)) {
      const llvm::Argument *parameter = parameterRead(*load);
      if (!parameter || !load->getType()->isIntegerTy())
        return std::nullopt;
      return KeyedRange{parameter, low, high};
    }
    if (llvm::isa<llvm::ZExtInst, llvm::SExtInst, llvm::FreezeInst>(value)) {
      value = llvm::cast<llvm::Instruction>(value)->getOperand(0);
      continue;
    }
    const auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(value);
    if (!binary)
      return std::nullopt;
    const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(binary->getOperand(1));
    const llvm::Value *operand = binary->getOperand(0);
    if (!constant && binary->isCommutative()) {
      constant = llvm::dyn_cast<llvm::ConstantInt>(binary->getOperand(0));
      operand = binary->getOperand(1);
    }
    if (!constant || constant->getValue().getSignificantBits() > 40)
      return std::nullopt;
    int64_t k = constant->getSExtValue();
    switch (binary->getOpcode()) {
    case llvm::Instruction::Add:
      low -= k, high -= k;
      break;
    case llvm::Instruction::Sub:
      low += k, high += k;
      break;
    case llvm::Instruction::Mul:
      if (k <= 0)
        return std::nullopt;
      low = ceilDivide(low, k), high = floorDivide(high, k);
      break;
    case llvm::Instruction::SDiv:
    case llvm::Instruction::UDiv:
      if (k <= 0 || low < 0)
        return std::nullopt;
      low *= k, high = high * k + k - 1;
      break;
    case llvm::Instruction::LShr:
    case llvm::Instruction::AShr:
      if (k < 0 || k > 20 || low < 0)
        return std::nullopt;
      low <<= k, high = (high << k) + (int64_t(1) << k) - 1;
      break;
    case llvm::Instruction::Shl:
      if (k < 0 || k > 20)
        return std::nullopt;
      low = ceilDivide(low, int64_t(1) << k), high = floorDivide(high, int64_t(1) << k);
      break;
    default:
      return std::nullopt;
    }
    value = operand;
  }
  return std::nullopt;
}

} // namespace

std::vector<std::optional<std::pair<int64_t, int64_t>>> keyRanges(const llvm::Function &kernel) {
  std::vector<std::optional<std::pair<int64_t, int64_t>>> ranges(kernel.arg_size());
  for (const llvm::BasicBlock &block : kernel)
    for (const llvm::Instruction &inst : block) {
      // `array[0][index]` of a global array of known extent.
      const auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst);
      const auto *array = address ? llvm::dyn_cast<llvm::GlobalVariable>(
                                        address->getPointerOperand()->stripPointerCasts())
                                  : nullptr;
      const auto *type =
          address ? llvm::dyn_cast<llvm::ArrayType>(address->getSourceElementType()) : nullptr;
      if (!array || !type || address->getNumIndices() != 2 || type->getNumElements() == 0)
        continue;
      const auto *first = llvm::dyn_cast<llvm::ConstantInt>(address->getOperand(1));
      if (!first || !first->isZero())
        continue;
      std::optional<KeyedRange> keyed =
          keyedBy(address->getOperand(2), 0, int64_t(type->getNumElements()) - 1);
      if (!keyed || keyed->parameter->getParent() != &kernel)
        continue;
      std::optional<std::pair<int64_t, int64_t>> &range = ranges[keyed->parameter->getArgNo()];
      if (!range)
        range = std::pair{keyed->low, keyed->high};
      else
        range = std::pair{std::max(range->first, keyed->low), std::min(range->second, keyed->high)};
    }
  // An intersection only narrows: one that came out empty stays empty.
  for (std::optional<std::pair<int64_t, int64_t>> &range : ranges)
    if (range && range->first > range->second)
      range.reset();
  return ranges;
}

std::vector<uint64_t> maskedIntegers(const llvm::Function &kernel) {
  constexpr unsigned kCallDepth = 6; // helpers over helpers: a scan of vectors over one of words
  MaskCache cache;
  std::vector<uint64_t> least(kernel.arg_size(), 0);
  if (kernel.isDeclaration())
    return least;
  std::vector<std::optional<int>> scales = maskScalesIn(kernel, kCallDepth, cache);
  for (size_t i = 0; i < scales.size(); ++i)
    if (scales[i])
      least[i] = uint64_t(1) << std::max(0, -*scales[i]);
  return least;
}

} // namespace simulee::ir
