#include "ir/ContentConventions.h"

#include "ir/Builtins.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <map>
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

// Whether `load`'s value, or one computed from it through registers, is an
// index of an address (an operand of a getelementptr other than its base).
bool indexes(const llvm::LoadInst &load) {
  std::set<const llvm::Value *> seen;
  std::vector<const llvm::Value *> work = {&load};
  while (!work.empty()) {
    const llvm::Value *value = work.back();
    work.pop_back();
    if (!seen.insert(value).second)
      continue;
    for (const llvm::User *user : value->users()) {
      if (const auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
        if (address->getPointerOperand() != value)
          return true;
      } else if (llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::PHINode, llvm::FreezeInst>(
                     user) ||
                 (llvm::isa<llvm::SelectInst>(user) &&
                  llvm::cast<llvm::SelectInst>(user)->getCondition() != value)) {
        work.push_back(user);
      }
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

std::vector<ContentRole> contentRoles(const llvm::Function &kernel) {
  std::vector<ContentRole> roles(kernel.arg_size(), ContentRole::None);
  if (kernel.isDeclaration())
    return roles;
  for (const llvm::BasicBlock &block : kernel)
    for (const llvm::Instruction &inst : block)
      if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
        if (const llvm::Argument *parameter = parameterRead(*load); parameter && indexes(*load))
          roles[parameter->getArgNo()] = ContentRole::Index;
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
  }
  return roles;
}

} // namespace simulee::ir
