#include "ir/Lowering.h"

#include "ir/AtomicUnits.h"
#include "ir/Builtins.h"
#include "ir/ConflictFreeAccesses.h"
#include "ir/IndirectCalls.h"
#include "ir/InlinePtx.h"
#include "ir/KernelDiscovery.h"
#include "ir/PlainInitializer.h"
#include "ir/PointerEncoding.h"
#include "ir/Reconvergence.h"
#include "ir/SourcePaths.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/raw_ostream.h>

#include "support/Assert.h"
#include "support/MemoryLimit.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <set>
#include <unordered_map>

namespace simulee::ir {
namespace {

// The functions whose instructions use `value`, through constant expressions.
std::set<const llvm::Function *> functionsUsing(const llvm::Value &value) {
  std::set<const llvm::Function *> functions;
  std::vector<const llvm::User *> pending(value.user_begin(), value.user_end());
  std::set<const llvm::User *> seen;
  while (!pending.empty()) {
    const llvm::User *user = pending.back();
    pending.pop_back();
    if (!seen.insert(user).second)
      continue;
    if (const auto *inst = llvm::dyn_cast<llvm::Instruction>(user))
      functions.insert(inst->getFunction());
    else if (llvm::isa<llvm::ConstantExpr>(user) || llvm::isa<llvm::ConstantAggregate>(user))
      pending.insert(pending.end(), user->user_begin(), user->user_end());
  }
  return functions;
}

// Whether a fence's or atomic's syncscope reaches other blocks:
// "block"/"cta"/"wavefront"... order a block at most; the default (system),
// "device", "agent" and "gpu" reach the whole device.
bool reachesOtherBlocks(const llvm::Instruction &inst, llvm::SyncScope::ID scope) {
  llvm::SmallVector<llvm::StringRef, 8> names;
  inst.getContext().getSyncScopeNames(names);
  llvm::StringRef name = scope < names.size() ? names[scope] : "";
  return scope == llvm::SyncScope::System || name.empty() || name == "device" || name == "agent" ||
         name == "gpu";
}


constexpr size_t kMaxSlotsPerValue = 4096;
constexpr uint32_t kMaxSlotsPerFunction = uint32_t(1) << 20;
constexpr unsigned kMaxTypeDepth = 64;
constexpr uint64_t kUndefinedFunctionAddress = (uint64_t(1) << 60) - 1;
// What a pointer-returning call of a function with no body returns: a fresh
// private buffer of the calling thread, so that using it can neither race
// nor fault.
constexpr uint64_t kUnresolvedCallScratchBytes = 1024;

// A scalar piece of a value: its type and byte offset in the value's memory layout.
struct Leaf {
  llvm::Type *type;
  uint64_t offset;
};

// An unsupported construct: carried up to the function, never a crash.
struct Unsupported {
  std::string what;
};

// Legacy research-tool IR reads thread ids from external globals.
std::optional<SpecialRegister> legacyBuiltinGlobal(llvm::StringRef name, uint64_t axis) {
  if (axis > 2)
    return std::nullopt;
  uint8_t base;
  if (name == "threadIdx")
    base = uint8_t(SpecialRegister::TidX);
  else if (name == "blockDim")
    base = uint8_t(SpecialRegister::NTidX);
  else if (name == "blockIdx")
    base = uint8_t(SpecialRegister::CtaIdX);
  else if (name == "gridDim")
    base = uint8_t(SpecialRegister::NCtaIdX);
  else
    return std::nullopt;
  return SpecialRegister(base + axis);
}

bool isLegacyBuiltinName(llvm::StringRef name) {
  return legacyBuiltinGlobal(name, 0).has_value();
}

// The globals marked __managed__ (annotate("simulee.managed") in
// llvm.global.annotations, from simulee_nvcc_compat.h / simulee_cuda.h).
std::set<const llvm::GlobalVariable *> managedGlobals(const llvm::Module &module) {
  std::set<const llvm::GlobalVariable *> managed;
  const llvm::GlobalVariable *annotations = module.getNamedGlobal("llvm.global.annotations");
  const auto *entries = annotations && annotations->hasInitializer()
                            ? llvm::dyn_cast<llvm::ConstantArray>(annotations->getInitializer())
                            : nullptr;
  if (!entries)
    return managed;
  for (const llvm::Use &entry : entries->operands()) {
    const auto *fields = llvm::dyn_cast<llvm::ConstantStruct>(entry.get());
    if (!fields || fields->getNumOperands() < 2)
      continue;
    const auto *variable =
        llvm::dyn_cast<llvm::GlobalVariable>(fields->getOperand(0)->stripPointerCasts());
    const auto *text =
        llvm::dyn_cast<llvm::GlobalVariable>(fields->getOperand(1)->stripPointerCasts());
    const auto *string = text && text->hasInitializer()
                             ? llvm::dyn_cast<llvm::ConstantDataArray>(text->getInitializer())
                             : nullptr;
    if (variable && string && string->isCString() && string->getAsCString() == "simulee.managed")
      managed.insert(variable);
  }
  return managed;
}

void noteBuiltinRead(SpecialRegister reg, bool (&reads)[4][3]) {
  unsigned r = unsigned(reg);
  if (r > unsigned(SpecialRegister::NCtaIdZ))
    return;
  static const BuiltinVariable byGroup[4] = {BuiltinVariable::ThreadIdx, BuiltinVariable::BlockDim,
                                             BuiltinVariable::BlockIdx, BuiltinVariable::GridDim};
  reads[unsigned(byGroup[r / 3])][r % 3] = true;
}

uint8_t floatWidth(llvm::Type *type) {
  if (type->isHalfTy() || type->isBFloatTy())
    return 16;
  if (type->isFloatTy())
    return 32;
  return 64;
}

uint8_t scalarWidth(llvm::Type *type) {
  if (type->isIntegerTy())
    return uint8_t(type->getIntegerBitWidth());
  if (type->isFloatingPointTy())
    return floatWidth(type);
  return 64; // pointers
}

class ModuleLowering;

// Lowers one llvm::Function into a Function of the program.
class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &module, llvm::Function &source, uint32_t index);
  void run();

private:
  ModuleLowering &module_;
  llvm::Function &source_;
  uint32_t index_;
  Function &out_;
  llvm::DenseMap<const llvm::Value *, uint32_t> slots_;
  llvm::DenseMap<const llvm::BasicBlock *, uint32_t> blockPc_;
  std::vector<std::pair<size_t, const llvm::BasicBlock *>> auxFixups_; // aux[i] = pc(block)
  std::vector<std::pair<size_t, const llvm::BasicBlock *>> immFixups_; // code[i].imm = pc(block)
  ReconvergencePoints reconvergence_;
  uint32_t currentId_ = 0;

  uint32_t allocate(uint32_t count) {
    if (count > kMaxSlotsPerFunction - out_.numSlots)
      throw Unsupported{"a function with more than 2^20 register slots"};
    uint32_t first = out_.numSlots;
    out_.numSlots += count;
    return first;
  }
  uint32_t slotCount(llvm::Type *type);
  uint32_t operand(llvm::Value *value, uint32_t leaf = 0);
  uint32_t result(llvm::Instruction &inst) { return slots_.lookup(&inst); }
  Instr &emit(Op op, uint32_t dst = 0, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0,
              uint64_t imm = 0, uint8_t width = 0, uint8_t flags = 0);
  uint32_t materialize(llvm::Value *value); // consecutive register slots of a value
  uint32_t pointerPlus(uint32_t pointer, uint64_t offset);
  void move(uint32_t dst, uint32_t src) { emit(Op::Move, dst, src); }

  std::string functionSourceName() const;
  std::string describeUnsupported(llvm::Instruction &inst, const Unsupported &u) const;
  void lowerInstruction(llvm::Instruction &inst);
  void lowerBinary(llvm::BinaryOperator &inst);
  void lowerCast(llvm::CastInst &inst);
  void lowerGep(llvm::GetElementPtrInst &inst);
  void lowerLoad(llvm::LoadInst &inst);
  void lowerStore(llvm::StoreInst &inst);
  void lowerTextureAccess(llvm::CallInst &inst, TextureAccess access);
  void lowerCall(llvm::CallInst &inst);
  void lowerBuiltin(llvm::CallInst &inst, const Builtin &builtin);
  void lowerUnresolvedCall(llvm::CallInst &inst);
  void lowerCallThroughNonFunction(llvm::CallInst &inst);
  void lowerBranch(llvm::BranchInst &inst);
  void lowerSwitch(llvm::SwitchInst &inst);
  void lowerReturn(llvm::ReturnInst &inst);
  void lowerExtractValue(llvm::ExtractValueInst &inst);
  void lowerInsertValue(llvm::InsertValueInst &inst);
  void lowerShuffleVector(llvm::ShuffleVectorInst &inst);
  uint32_t reconvergencePc(const llvm::BasicBlock *block);
  void appendEdgeMoves(const llvm::BasicBlock *from, const llvm::BasicBlock *to);
};

class ModuleLowering {
public:
  explicit ModuleLowering(Program &program)
      : program_(program), module_(*program.module), layout_(module_.getDataLayout()) {}
  Status run();

  Program &program() { return program_; }
  const llvm::DataLayout &layout() const { return layout_; }
  const std::vector<Leaf> &leaves(llvm::Type *type); // valid until the next call
  uint64_t leafCount(llvm::Type *type, unsigned depth = 0); // saturating, no allocation
  uint32_t constantOperand(uint64_t value);
  void constantLeaves(llvm::Constant *constant, std::vector<uint64_t> &out);
  std::optional<uint32_t> functionIndex(const llvm::Function *function) const {
    auto it = functionIndex_.find(function);
    if (it == functionIndex_.end())
      return std::nullopt;
    return it->second;
  }
  uint32_t instructionId(llvm::Instruction &inst, uint32_t function);
  void findAtomicUnits();

private:
  Program &program_;
  llvm::Module &module_;
  const llvm::DataLayout &layout_;
  llvm::DenseMap<const llvm::Function *, uint32_t> functionIndex_;
  llvm::DenseMap<const llvm::GlobalVariable *, uint64_t> globalAddress_;
  // Not a DenseMap: its reserved keys (-1, -2) are ordinary 64-bit constants.
  std::unordered_map<uint64_t, uint32_t> constantIndex_;
  llvm::DenseMap<const llvm::Instruction *, uint32_t> instructionIds_;
  SourcePaths sourcePaths_;
  llvm::DenseMap<llvm::Type *, std::vector<Leaf>> leafCache_;
  llvm::DenseMap<llvm::Type *, uint64_t> leafCountCache_;

  void collectVariables();
  void collectLeaves(llvm::Type *type, uint64_t offset, std::vector<Leaf> &out);
  void describeKernels();
  uint64_t constantScalar(llvm::Constant *constant);
  uint64_t pointerConstant(llvm::Constant *constant);
};

// ---------------------------------------------------------------------------
// Module level

// Counted before anything is collected, so that an array of 2^60 empty
// structs or a 4 GiB vector is refused in constant time and memory.
uint64_t ModuleLowering::leafCount(llvm::Type *type, unsigned depth) {
  if (depth > kMaxTypeDepth)
    throw Unsupported{"types nested deeper than 64 levels"};
  if (auto it = leafCountCache_.find(type); it != leafCountCache_.end())
    return it->second;
  uint64_t count = 1;
  if (auto *st = llvm::dyn_cast<llvm::StructType>(type)) {
    count = 0;
    for (llvm::Type *element : st->elements())
      count = saturatingAdd(count, leafCount(element, depth + 1));
  } else if (auto *at = llvm::dyn_cast<llvm::ArrayType>(type)) {
    count = saturatingMultiply(at->getNumElements(), leafCount(at->getElementType(), depth + 1));
  } else if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    count = vt->getNumElements();
  }
  leafCountCache_[type] = count;
  return count;
}

void ModuleLowering::collectLeaves(llvm::Type *type, uint64_t offset, std::vector<Leaf> &out) {
  if (out.size() > kMaxSlotsPerValue)
    throw Unsupported{"a value with more than 4096 scalar parts"};
  if (leafCount(type) == 0)
    return;
  if (auto *st = llvm::dyn_cast<llvm::StructType>(type)) {
    const llvm::StructLayout *sl = layout_.getStructLayout(st);
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      collectLeaves(st->getElementType(i), offset + sl->getElementOffset(i), out);
    return;
  }
  if (auto *at = llvm::dyn_cast<llvm::ArrayType>(type)) {
    uint64_t stride = layout_.getTypeAllocSize(at->getElementType());
    for (uint64_t i = 0; i < at->getNumElements(); ++i)
      collectLeaves(at->getElementType(), offset + i * stride, out);
    return;
  }
  if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    llvm::Type *element = vt->getElementType();
    if (element->isIntegerTy(1))
      throw Unsupported{"vectors of i1 in memory"};
    uint64_t stride = layout_.getTypeStoreSize(element);
    for (unsigned i = 0; i < vt->getNumElements(); ++i)
      out.push_back({element, offset + i * stride});
    return;
  }
  if (type->isIntegerTy() && type->getIntegerBitWidth() > 64)
    throw Unsupported{"integers wider than 64 bits"};
  if (!type->isIntegerTy() && !type->isFloatingPointTy() && !type->isPointerTy())
    throw Unsupported{"values of this type"};
  if (type->isFloatingPointTy() && !type->isHalfTy() && !type->isFloatTy() &&
      !type->isDoubleTy() && !type->isBFloatTy())
    throw Unsupported{"floating point types other than half, float and double"};
  out.push_back({type, offset});
}

const std::vector<Leaf> &ModuleLowering::leaves(llvm::Type *type) {
  auto it = leafCache_.find(type);
  if (it != leafCache_.end())
    return it->second;
  if (leafCount(type) > kMaxSlotsPerValue)
    throw Unsupported{"a value with more than 4096 scalar parts"};
  std::vector<Leaf> result;
  collectLeaves(type, 0, result);
  return leafCache_[type] = std::move(result);
}

uint32_t ModuleLowering::constantOperand(uint64_t value) {
  auto it = constantIndex_.find(value);
  if (it != constantIndex_.end())
    return it->second;
  uint32_t index = uint32_t(program_.constants.size() / 32);
  program_.constants.insert(program_.constants.end(), 32, value);
  uint32_t operand = kConstantOperand | index;
  constantIndex_[value] = operand;
  return operand;
}

uint64_t ModuleLowering::pointerConstant(llvm::Constant *constant) {
  if (llvm::isa<llvm::ConstantPointerNull>(constant) || llvm::isa<llvm::UndefValue>(constant))
    return 0;
  if (auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(constant)) {
    auto it = globalAddress_.find(gv);
    if (it == globalAddress_.end()) {
      if (isLegacyBuiltinName(gv->getName()))
        throw Unsupported{"the address of builtin variable '" + gv->getName().str() +
                          "' escapes; only loads of its fields are supported"};
      throw Unsupported{"external variable '" + gv->getName().str() + "' without a definition"};
    }
    return it->second;
  }
  if (auto *fn = llvm::dyn_cast<llvm::Function>(constant)) {
    if (auto index = functionIndex(fn))
      return kFunctionPointerTag | *index;
    // A function with no body (__cxa_pure_virtual in a vtable): an address
    // no call resolves to, so calling it is a run-time error.
    return kFunctionPointerTag | kUndefinedFunctionAddress;
  }
  if (auto *expr = llvm::dyn_cast<llvm::ConstantExpr>(constant)) {
    if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(expr)) {
      llvm::APInt offset(64, 0);
      if (!gep->accumulateConstantOffset(layout_, offset))
        throw Unsupported{"a constant address expression"};
      return offsetPointer(pointerConstant(llvm::cast<llvm::Constant>(gep->getPointerOperand())),
                           offset.getSExtValue());
    }
    switch (expr->getOpcode()) {
    case llvm::Instruction::AddrSpaceCast:
    case llvm::Instruction::BitCast:
    case llvm::Instruction::IntToPtr:
      return constantScalar(expr->getOperand(0));
    default:
      break;
    }
  }
  throw Unsupported{"a constant pointer expression"};
}

uint64_t ModuleLowering::constantScalar(llvm::Constant *constant) {
  if (llvm::isa<llvm::UndefValue>(constant) || llvm::isa<llvm::ConstantAggregateZero>(constant))
    return 0;
  if (auto *ci = llvm::dyn_cast<llvm::ConstantInt>(constant)) {
    if (ci->getBitWidth() > 64)
      throw Unsupported{"integers wider than 64 bits"};
    return ci->getValue().getZExtValue();
  }
  if (auto *cf = llvm::dyn_cast<llvm::ConstantFP>(constant)) {
    llvm::APInt bits = cf->getValueAPF().bitcastToAPInt();
    if (bits.getBitWidth() > 64)
      throw Unsupported{"floating point types other than half, float and double"};
    return bits.getZExtValue();
  }
  if (constant->getType()->isPointerTy())
    return pointerConstant(constant);
  if (auto *expr = llvm::dyn_cast<llvm::ConstantExpr>(constant)) {
    if (llvm::Constant *folded = llvm::ConstantFoldConstant(expr, layout_);
        folded && folded != expr)
      return constantScalar(folded);
    if (expr->getOpcode() == llvm::Instruction::PtrToInt)
      return pointerConstant(expr->getOperand(0));
  }
  throw Unsupported{"a constant expression"};
}

void ModuleLowering::constantLeaves(llvm::Constant *constant, std::vector<uint64_t> &out) {
  llvm::Type *type = constant->getType();
  if (!type->isAggregateType() && !type->isVectorTy()) {
    out.push_back(constantScalar(constant));
    return;
  }
  if (llvm::isa<llvm::UndefValue>(constant) || llvm::isa<llvm::ConstantAggregateZero>(constant)) {
    out.insert(out.end(), leaves(type).size(), 0);
    return;
  }
  if (auto *data = llvm::dyn_cast<llvm::ConstantDataSequential>(constant)) {
    for (unsigned i = 0; i < data->getNumElements(); ++i)
      out.push_back(constantScalar(data->getElementAsConstant(i)));
    return;
  }
  for (unsigned i = 0; i < constant->getNumOperands(); ++i)
    constantLeaves(llvm::cast<llvm::Constant>(constant->getOperand(i)), out);
}

// Bytes of a global's initializer as laid out in memory.
std::vector<uint8_t> initializerBytes(ModuleLowering &module, llvm::GlobalVariable &gv,
                                      uint64_t size) {
  std::vector<uint8_t> bytes;
  if (!gv.hasInitializer() || llvm::isa<llvm::UndefValue>(gv.getInitializer()) ||
      gv.getInitializer()->isNullValue())
    return bytes;
  if (size > memoryLimitBytes() || size > kMaxBufferBytes)
    throw Unsupported{"an initializer larger than the memory limit"};
  if (auto plain = plainInitializerBytes(*gv.getInitializer(), module.layout(), size))
    return std::move(*plain);
  bytes.assign(size, 0);
  std::vector<uint64_t> values;
  module.constantLeaves(gv.getInitializer(), values);
  std::vector<Leaf> parts = module.leaves(gv.getValueType());
  for (size_t i = 0; i < parts.size() && i < values.size(); ++i) {
    uint64_t width = module.layout().getTypeStoreSize(parts[i].type);
    if (parts[i].offset + width <= size)
      std::memcpy(bytes.data() + parts[i].offset, &values[i], width);
  }
  return bytes;
}

void ModuleLowering::collectVariables() {
  // Function indexes first: initializers may hold function pointers.
  for (llvm::Function &function : module_)
    if (!function.isDeclaration()) {
      functionIndex_[&function] = uint32_t(program_.functions.size());
      program_.functions.emplace_back();
      program_.functions.back().name = function.getName().str();
    }

  std::optional<uint32_t> dynamicShared;
  std::set<const llvm::GlobalVariable *> managed = managedGlobals(module_);
  std::vector<std::pair<llvm::GlobalVariable *, VariableInfo *>> pending;
  for (llvm::GlobalVariable &gv : module_.globals()) {
    if (gv.getName().starts_with("llvm.") || gv.getSection() == "llvm.metadata" ||
        isLegacyBuiltinName(gv.getName()) || gv.use_empty())
      continue;
    VariableInfo info;
    info.symbolName = gv.getName().str();
    info.name = sourceNameOf(gv);
    // uint64_t on both sides: a TypeSize against a literal 0 would be an int.
    info.sizeBytes = gv.getValueType()->isSized()
                         ? uint64_t(layout_.getTypeAllocSize(gv.getValueType()).getFixedValue())
                         : uint64_t(0);
    unsigned space = gv.getAddressSpace();
    if (space == 3) {
      bool isDynamic = info.sizeBytes == 0 || gv.isDeclaration();
      if (isDynamic && dynamicShared) {
        // Every extern __shared__ array names the same dynamic memory.
        globalAddress_[&gv] = encodePointer(PointerSpace::Shared, *dynamicShared, 0);
        continue;
      }
      info.isDynamicShared = isDynamic;
      uint32_t id = uint32_t(program_.sharedVariables.size());
      if (isDynamic)
        dynamicShared = id;
      globalAddress_[&gv] = encodePointer(PointerSpace::Shared, id, 0);
      if (!isDynamic)
        for (const llvm::Function *user : functionsUsing(gv))
          if (auto index = functionIndex_.find(user); index != functionIndex_.end())
            program_.functions[index->second].sharedVariables.push_back(id);
      program_.sharedVariables.push_back(std::move(info));
      continue;
    }
    if (space == 4) {
      uint32_t id = uint32_t(program_.constantVariables.size());
      globalAddress_[&gv] = encodePointer(PointerSpace::Constant, id, 0);
      program_.constantVariables.push_back(std::move(info));
      pending.push_back({&gv, nullptr});
      continue;
    }
    uint32_t id = uint32_t(program_.globalVariables.size());
    globalAddress_[&gv] = encodePointer(PointerSpace::Global, kFirstGlobalVariableBuffer + id, 0);
    info.managed = managed.count(&gv) != 0;
    program_.globalVariables.push_back(std::move(info));
    pending.push_back({&gv, nullptr});
  }
  // Initializers after every address is known (they may point at each other).
  size_t constants = 0, globals = 0;
  for (auto &[gv, unused] : pending) {
    VariableInfo &info = gv->getAddressSpace() == 4 ? program_.constantVariables[constants++]
                                                    : program_.globalVariables[globals++];
    try {
      info.initializer = initializerBytes(*this, *gv, info.sizeBytes);
    } catch (const Unsupported &) {
      info.initializer.clear(); // an initializer we cannot evaluate reads as zeros
    }
  }
}

uint32_t ModuleLowering::instructionId(llvm::Instruction &inst, uint32_t function) {
  auto it = instructionIds_.find(&inst);
  if (it != instructionIds_.end())
    return it->second;
  InstructionInfo info;
  info.function = function;
  info.llvm = &inst;
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    info.isVolatile = load->isVolatile();
  else if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    info.isVolatile = store->isVolatile();
  if (const llvm::DILocation *loc = inst.getDebugLoc().get()) {
    sourcePaths_.locate(info.location, loc->getFilename().str(), loc->getDirectory().str());
    info.location.line = loc->getLine();
    info.location.column = loc->getColumn();
  }
  uint32_t id = uint32_t(program_.instructions.size());
  program_.instructions.push_back(std::move(info));
  instructionIds_[&inst] = id;
  return id;
}

// Each atomic instruction's role, and each function's pairs of atomic
// accesses meant as one step (ir/AtomicUnits.h).
void ModuleLowering::findAtomicUnits() {
  for (InstructionInfo &info : program_.instructions)
    if (info.llvm)
      info.atomicRole = atomicRoleOf(*info.llvm);
  for (const auto &[function, index] : functionIndex_) {
    for (const AtomicUnitCandidate &unit : atomicUnits(*function)) {
      auto first = instructionIds_.find(unit.first), second = instructionIds_.find(unit.second);
      if (first != instructionIds_.end() && second != instructionIds_.end())
        program_.functions[index].atomicUnits.push_back({first->second, second->second, unit.pattern});
    }
  }
}

void ModuleLowering::describeKernels() {
  for (llvm::Function *function : findKernelFunctions(module_)) {
    KernelInfo kernel = describeKernel(*function);
    kernel.function = functionIndex_.lookup(function);
    kernel.notes = program_.notes;
    // Everything reachable from the kernel through direct calls.
    std::vector<uint32_t> work = {kernel.function};
    std::set<uint32_t> seen = {kernel.function};
    std::set<uint32_t> sharedUsed;
    while (!work.empty()) {
      const Function &fn = program_.functions[work.back()];
      work.pop_back();
      if (kernel.unsupported.empty() && !fn.error.empty())
        kernel.unsupported = fn.error;
      kernel.barrierInstructions.insert(kernel.barrierInstructions.end(), fn.barriers.begin(),
                                        fn.barriers.end());
      kernel.requiredBarrierInstructions.insert(kernel.requiredBarrierInstructions.end(),
                                             fn.requiredBarriers.begin(), fn.requiredBarriers.end());
      for (unsigned b = 0; b < 4; ++b)
        for (unsigned axis = 0; axis < 3; ++axis)
          kernel.readsBuiltin[b][axis] |= fn.readsBuiltin[b][axis];
      kernel.syncsGrid |= fn.syncsGrid;
      kernel.atomicUnits.insert(kernel.atomicUnits.end(), fn.atomicUnits.begin(),
                                fn.atomicUnits.end());
      sharedUsed.insert(fn.sharedVariables.begin(), fn.sharedVariables.end());
      for (const std::string &note : fn.notes)
        if (std::find(kernel.notes.begin(), kernel.notes.end(), note) == kernel.notes.end())
          kernel.notes.push_back(note);
      for (uint32_t callee : fn.callees)
        if (seen.insert(callee).second)
          work.push_back(callee);
    }
    for (uint32_t variable : sharedUsed)
      kernel.staticSharedBytes += program_.sharedVariables[variable].sizeBytes;
    std::sort(kernel.barrierInstructions.begin(), kernel.barrierInstructions.end());
    for (const ConflictFreeAccess &access : conflictFreeAccesses(*function))
      if (auto id = instructionIds_.find(access.instruction); id != instructionIds_.end())
        kernel.untracked.push_back({id->second, access.param, access.threadPrivate, access.rowWidth,
                                    access.rowWidthParam});
    std::sort(kernel.untracked.begin(), kernel.untracked.end(),
              [](const UntrackedAccess &a, const UntrackedAccess &b) {
                return a.instruction < b.instruction;
              });
    program_.kernels.push_back(std::move(kernel));
  }
}

Status ModuleLowering::run() {
  collectVariables();
  for (llvm::Function &function : module_) {
    if (function.isDeclaration())
      continue;
    FunctionLowering(*this, function, functionIndex_.lookup(&function)).run();
  }
  findAtomicUnits();
  describeKernels();
  if (program_.kernels.empty())
    return makeError(program_.path + ": no kernel found (no __global__ function)");
  return Ok{};
}

// ---------------------------------------------------------------------------
// Function level

FunctionLowering::FunctionLowering(ModuleLowering &module, llvm::Function &source, uint32_t index)
    : module_(module), source_(source), index_(index),
      out_(module.program().functions[index]), reconvergence_(source) {}

uint32_t FunctionLowering::slotCount(llvm::Type *type) {
  if (type->isVoidTy() || type->isLabelTy() || type->isMetadataTy())
    return 0;
  return uint32_t(module_.leaves(type).size());
}

uint32_t FunctionLowering::operand(llvm::Value *value, uint32_t leaf) {
  if (auto it = slots_.find(value); it != slots_.end()) {
    if (leaf >= slotCount(value->getType()))
      throw Unsupported{"an operand with fewer parts than its use reads"};
    return it->second + leaf;
  }
  if (auto *constant = llvm::dyn_cast<llvm::Constant>(value)) {
    std::vector<uint64_t> values;
    module_.constantLeaves(constant, values);
    if (leaf >= values.size())
      throw Unsupported{"an operand with fewer parts than its use reads"};
    return module_.constantOperand(values[leaf]);
  }
  if (llvm::isa<llvm::InlineAsm>(value))
    throw Unsupported{"inline assembly"};
  throw Unsupported{"an operand of unknown kind"};
}

Instr &FunctionLowering::emit(Op op, uint32_t dst, uint32_t a, uint32_t b, uint32_t c, uint64_t imm,
                              uint8_t width, uint8_t flags) {
  Instr inst;
  inst.op = op;
  inst.dst = dst;
  inst.a = a;
  inst.b = b;
  inst.c = c;
  inst.imm = imm;
  inst.width = width;
  inst.flags = flags;
  inst.id = currentId_;
  out_.code.push_back(inst);
  return out_.code.back();
}

uint32_t FunctionLowering::materialize(llvm::Value *value) {
  if (auto it = slots_.find(value); it != slots_.end())
    return it->second;
  uint32_t count = slotCount(value->getType());
  uint32_t first = allocate(count);
  for (uint32_t i = 0; i < count; ++i)
    move(first + i, operand(value, i));
  return first;
}

uint32_t FunctionLowering::pointerPlus(uint32_t pointer, uint64_t offset) {
  if (offset == 0)
    return pointer;
  uint32_t tmp = allocate(1);
  emit(Op::PtrAdd, tmp, pointer, 0, 0, offset, 64);
  return tmp;
}

uint32_t FunctionLowering::reconvergencePc(const llvm::BasicBlock *block) {
  if (!reconvergence_.of(block))
    return kNoReconvergence;
  return 0; // patched: callers register a fixup for the block below
}

void FunctionLowering::appendEdgeMoves(const llvm::BasicBlock *from, const llvm::BasicBlock *to) {
  // Parallel copy of every phi of `to` for the edge from `from`.
  std::vector<std::pair<uint32_t, uint32_t>> moves;
  std::set<uint32_t> destinations;
  for (const llvm::PHINode &phi : to->phis()) {
    llvm::Value *incoming = phi.getIncomingValueForBlock(from);
    uint32_t count = slotCount(phi.getType());
    for (uint32_t i = 0; i < count; ++i) {
      moves.push_back({slots_.lookup(&phi) + i, operand(incoming, i)});
      destinations.insert(slots_.lookup(&phi) + i);
    }
  }
  bool conflict = false;
  for (auto &[dst, src] : moves)
    if (!(src & kConstantOperand) && destinations.count(src) && src != dst)
      conflict = true;
  size_t begin = out_.aux.size();
  if (!conflict) {
    for (auto &[dst, src] : moves)
      out_.aux.insert(out_.aux.end(), {dst, src});
  } else {
    uint32_t temps = allocate(uint32_t(moves.size()));
    for (size_t i = 0; i < moves.size(); ++i)
      out_.aux.insert(out_.aux.end(), {uint32_t(temps + i), moves[i].second});
    for (size_t i = 0; i < moves.size(); ++i)
      out_.aux.insert(out_.aux.end(), {moves[i].first, uint32_t(temps + i)});
  }
  (void)begin;
}

std::string FunctionLowering::functionSourceName() const {
  if (const llvm::DISubprogram *sp = source_.getSubprogram())
    return sp->getName().str();
  return source_.getName().str();
}

// "file:line: unsupported: <what> in '<instruction>'" (function name when
// there is no debug location).
std::string FunctionLowering::describeUnsupported(llvm::Instruction &inst,
                                                  const Unsupported &u) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  inst.print(os);
  os.flush();
  size_t meta = text.find(", !");
  if (meta != std::string::npos)
    text.resize(meta);
  size_t begin = text.find_first_not_of(' ');
  text = text.substr(begin == std::string::npos ? 0 : begin);
  constexpr size_t kMaxTextBytes = 160; // a hostile type can print as megabytes
  if (text.size() > kMaxTextBytes)
    text = text.substr(0, kMaxTextBytes) + "...";
  std::string where = "function '" + functionSourceName() + "': ";
  if (const llvm::DILocation *loc = inst.getDebugLoc().get())
    where = loc->getFilename().str() + ":" + std::to_string(loc->getLine()) + ": ";
  return where + "unsupported: " + u.what + " in '" + text + "'";
}

void FunctionLowering::run() {
  // Slots: parameters first (callers copy arguments into slots 0..k-1), then
  // every value-producing instruction.
  try {
    for (llvm::Argument &arg : source_.args()) {
      out_.paramSlots.push_back(out_.numSlots);
      slots_[&arg] = allocate(slotCount(arg.getType()));
    }
    if (!source_.getReturnType()->isVoidTy())
      out_.returnSlots = slotCount(source_.getReturnType());
  } catch (const Unsupported &u) {
    out_.error = "function '" + functionSourceName() + "': unsupported: " + u.what +
                 " as a parameter or return value";
    return;
  }
  for (llvm::Instruction &inst : llvm::instructions(source_)) {
    try {
      uint32_t count = slotCount(inst.getType());
      if (count)
        slots_[&inst] = allocate(count);
    } catch (const Unsupported &u) {
      out_.error = describeUnsupported(inst, u);
      return;
    }
  }

  for (llvm::BasicBlock &block : source_) {
    blockPc_[&block] = uint32_t(out_.code.size());
    for (llvm::Instruction &inst : block) {
      if (llvm::isa<llvm::PHINode>(inst))
        continue;
      currentId_ = module_.instructionId(inst, index_);
      try {
        lowerInstruction(inst);
      } catch (const Unsupported &u) {
        if (out_.error.empty())
          out_.error = describeUnsupported(inst, u);
        emit(Op::Unreachable);
      }
    }
  }
  for (auto &[index, block] : auxFixups_)
    out_.aux[index] = blockPc_.lookup(block);
  for (auto &[index, block] : immFixups_)
    out_.code[index].imm = blockPc_.lookup(block);
}

// ---------------------------------------------------------------------------
// Instructions

void FunctionLowering::lowerInstruction(llvm::Instruction &inst) {
  using llvm::Instruction;
  if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&inst))
    return lowerBinary(*binary);
  if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&inst))
    return lowerCast(*cast);
  switch (inst.getOpcode()) {
  case Instruction::FNeg: {
    uint32_t n = slotCount(inst.getType());
    for (uint32_t i = 0; i < n; ++i)
      emit(Op::FNeg, result(inst) + i, operand(inst.getOperand(0), i), 0, 0, 0,
           floatWidth(inst.getType()->getScalarType()));
    return;
  }
  case Instruction::ICmp:
  case Instruction::FCmp: {
    auto &cmp = llvm::cast<llvm::CmpInst>(inst);
    llvm::Type *operandType = cmp.getOperand(0)->getType()->getScalarType();
    uint32_t n = slotCount(inst.getType());
    for (uint32_t i = 0; i < n; ++i) {
      if (cmp.isIntPredicate()) {
        static const std::pair<llvm::CmpInst::Predicate, IntPredicate> preds[] = {
            {llvm::CmpInst::ICMP_EQ, IntPredicate::EQ},   {llvm::CmpInst::ICMP_NE, IntPredicate::NE},
            {llvm::CmpInst::ICMP_UGT, IntPredicate::UGT}, {llvm::CmpInst::ICMP_UGE, IntPredicate::UGE},
            {llvm::CmpInst::ICMP_ULT, IntPredicate::ULT}, {llvm::CmpInst::ICMP_ULE, IntPredicate::ULE},
            {llvm::CmpInst::ICMP_SGT, IntPredicate::SGT}, {llvm::CmpInst::ICMP_SGE, IntPredicate::SGE},
            {llvm::CmpInst::ICMP_SLT, IntPredicate::SLT}, {llvm::CmpInst::ICMP_SLE, IntPredicate::SLE}};
        IntPredicate pred = IntPredicate::EQ;
        for (auto &[from, to] : preds)
          if (from == cmp.getPredicate())
            pred = to;
        emit(Op::ICmp, result(inst) + i, operand(cmp.getOperand(0), i),
             operand(cmp.getOperand(1), i), 0, 0, scalarWidth(operandType), uint8_t(pred));
      } else {
        emit(Op::FCmp, result(inst) + i, operand(cmp.getOperand(0), i),
             operand(cmp.getOperand(1), i), 0, 0, floatWidth(operandType),
             uint8_t(cmp.getPredicate()));
      }
    }
    return;
  }
  case Instruction::Select: {
    auto &select = llvm::cast<llvm::SelectInst>(inst);
    bool vectorCondition = select.getCondition()->getType()->isVectorTy();
    uint32_t n = slotCount(inst.getType());
    for (uint32_t i = 0; i < n; ++i)
      emit(Op::Select, result(inst) + i, operand(select.getCondition(), vectorCondition ? i : 0),
           operand(select.getTrueValue(), i), operand(select.getFalseValue(), i));
    return;
  }
  case Instruction::Freeze: {
    uint32_t n = slotCount(inst.getType());
    for (uint32_t i = 0; i < n; ++i)
      move(result(inst) + i, operand(inst.getOperand(0), i));
    return;
  }
  case Instruction::GetElementPtr:
    return lowerGep(llvm::cast<llvm::GetElementPtrInst>(inst));
  case Instruction::Load:
    return lowerLoad(llvm::cast<llvm::LoadInst>(inst));
  case Instruction::Store:
    return lowerStore(llvm::cast<llvm::StoreInst>(inst));
  case Instruction::AtomicRMW: {
    auto &rmw = llvm::cast<llvm::AtomicRMWInst>(inst);
    static const std::pair<llvm::AtomicRMWInst::BinOp, AtomicOp> ops[] = {
        {llvm::AtomicRMWInst::Xchg, AtomicOp::Xchg}, {llvm::AtomicRMWInst::Add, AtomicOp::Add},
        {llvm::AtomicRMWInst::Sub, AtomicOp::Sub},   {llvm::AtomicRMWInst::And, AtomicOp::And},
        {llvm::AtomicRMWInst::Or, AtomicOp::Or},     {llvm::AtomicRMWInst::Xor, AtomicOp::Xor},
        {llvm::AtomicRMWInst::Max, AtomicOp::Max},   {llvm::AtomicRMWInst::Min, AtomicOp::Min},
        {llvm::AtomicRMWInst::UMax, AtomicOp::UMax}, {llvm::AtomicRMWInst::UMin, AtomicOp::UMin},
        {llvm::AtomicRMWInst::FAdd, AtomicOp::FAdd}, {llvm::AtomicRMWInst::FSub, AtomicOp::FSub},
        {llvm::AtomicRMWInst::FMax, AtomicOp::FMax}, {llvm::AtomicRMWInst::FMin, AtomicOp::FMin},
        {llvm::AtomicRMWInst::UIncWrap, AtomicOp::UIncWrap},
        {llvm::AtomicRMWInst::UDecWrap, AtomicOp::UDecWrap}};
    std::optional<AtomicOp> op;
    for (auto &[from, to] : ops)
      if (from == rmw.getOperation())
        op = to;
    if (!op)
      throw Unsupported{"this atomicrmw operation"};
    llvm::Type *type = rmw.getValOperand()->getType();
    emit(Op::AtomicRMW, result(inst), operand(rmw.getPointerOperand()),
         operand(rmw.getValOperand()), 0, module_.layout().getTypeStoreSize(type),
         scalarWidth(type),
         uint8_t(uint8_t(*op) | (reachesOtherBlocks(inst, rmw.getSyncScopeID()) ? 0 : kBlockScope)));
    return;
  }
  case Instruction::AtomicCmpXchg: {
    auto &cas = llvm::cast<llvm::AtomicCmpXchgInst>(inst);
    llvm::Type *type = cas.getCompareOperand()->getType();
    emit(Op::CmpXchg, result(inst), operand(cas.getPointerOperand()),
         operand(cas.getCompareOperand()), operand(cas.getNewValOperand()),
         module_.layout().getTypeStoreSize(type), scalarWidth(type),
         reachesOtherBlocks(inst, cas.getSyncScopeID()) ? 0 : kBlockScope);
    return;
  }
  case Instruction::Fence: {
    bool device = reachesOtherBlocks(inst, llvm::cast<llvm::FenceInst>(inst).getSyncScopeID());
    emit(Op::Fence, 0, 0, 0, 0, 0, 0, uint8_t(device ? FenceScope::Device : FenceScope::Block));
    return;
  }
  case Instruction::Alloca: {
    auto &alloca = llvm::cast<llvm::AllocaInst>(inst);
    auto *count = llvm::dyn_cast<llvm::ConstantInt>(alloca.getArraySize());
    if (!count)
      throw Unsupported{"a variable-sized alloca"};
    uint64_t size = saturatingMultiply(
        module_.layout().getTypeAllocSize(alloca.getAllocatedType()).getFixedValue(),
        count->getValue().getLimitedValue());
    emit(Op::Alloca, result(inst), 0, 0, 0, size, 64, uint8_t(std::min<uint64_t>(
                                                            alloca.getAlign().value(), 128)));
    return;
  }
  case Instruction::ExtractValue:
    return lowerExtractValue(llvm::cast<llvm::ExtractValueInst>(inst));
  case Instruction::InsertValue:
    return lowerInsertValue(llvm::cast<llvm::InsertValueInst>(inst));
  case Instruction::ExtractElement: {
    auto &extract = llvm::cast<llvm::ExtractElementInst>(inst);
    if (auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract.getIndexOperand())) {
      uint64_t i = index->getValue().getLimitedValue();
      // Past the end: poison, read as 0.
      move(result(inst), i < slotCount(extract.getVectorOperand()->getType())
                             ? operand(extract.getVectorOperand(), uint32_t(i))
                             : module_.constantOperand(0));
      return;
    }
    uint32_t base = materialize(extract.getVectorOperand());
    uint32_t n = slotCount(extract.getVectorOperand()->getType());
    emit(Op::ExtractDyn, result(inst), base, operand(extract.getIndexOperand()), 0, n,
         scalarWidth(extract.getIndexOperand()->getType()));
    return;
  }
  case Instruction::InsertElement: {
    auto &insert = llvm::cast<llvm::InsertElementInst>(inst);
    uint32_t n = slotCount(inst.getType());
    for (uint32_t i = 0; i < n; ++i)
      move(result(inst) + i, operand(insert.getOperand(0), i));
    if (auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert.getOperand(2))) {
      if (index->getValue().getLimitedValue() < n)
        move(result(inst) + uint32_t(index->getZExtValue()), operand(insert.getOperand(1)));
      return;
    }
    emit(Op::InsertDyn, result(inst), 0, operand(insert.getOperand(2)),
         operand(insert.getOperand(1)), n, scalarWidth(insert.getOperand(2)->getType()));
    return;
  }
  case Instruction::ShuffleVector:
    return lowerShuffleVector(llvm::cast<llvm::ShuffleVectorInst>(inst));
  case Instruction::Call:
    return lowerCall(llvm::cast<llvm::CallInst>(inst));
  case Instruction::Br:
    return lowerBranch(llvm::cast<llvm::BranchInst>(inst));
  case Instruction::Switch:
    return lowerSwitch(llvm::cast<llvm::SwitchInst>(inst));
  case Instruction::Ret:
    return lowerReturn(llvm::cast<llvm::ReturnInst>(inst));
  case Instruction::Unreachable:
    emit(Op::Unreachable);
    return;
  default:
    throw Unsupported{std::string("the '") + inst.getOpcodeName() + "' instruction"};
  }
}

void FunctionLowering::lowerBinary(llvm::BinaryOperator &inst) {
  using llvm::Instruction;
  llvm::Type *scalar = inst.getType()->getScalarType();
  Op op;
  switch (inst.getOpcode()) {
  case Instruction::Add: op = Op::Add; break;
  case Instruction::Sub: op = Op::Sub; break;
  case Instruction::Mul: op = Op::Mul; break;
  case Instruction::UDiv: op = Op::UDiv; break;
  case Instruction::SDiv: op = Op::SDiv; break;
  case Instruction::URem: op = Op::URem; break;
  case Instruction::SRem: op = Op::SRem; break;
  case Instruction::Shl: op = Op::Shl; break;
  case Instruction::LShr: op = Op::LShr; break;
  case Instruction::AShr: op = Op::AShr; break;
  case Instruction::And: op = Op::And; break;
  case Instruction::Or: op = Op::Or; break;
  case Instruction::Xor: op = Op::Xor; break;
  case Instruction::FAdd: op = Op::FAdd; break;
  case Instruction::FSub: op = Op::FSub; break;
  case Instruction::FMul: op = Op::FMul; break;
  case Instruction::FDiv: op = Op::FDiv; break;
  case Instruction::FRem: op = Op::FRem; break;
  default: throw Unsupported{std::string("the '") + inst.getOpcodeName() + "' operator"};
  }
  uint32_t n = slotCount(inst.getType());
  for (uint32_t i = 0; i < n; ++i)
    emit(op, result(inst) + i, operand(inst.getOperand(0), i), operand(inst.getOperand(1), i), 0,
         0, scalarWidth(scalar));
}

void FunctionLowering::lowerCast(llvm::CastInst &inst) {
  using llvm::Instruction;
  llvm::Type *from = inst.getSrcTy()->getScalarType();
  llvm::Type *to = inst.getDestTy()->getScalarType();
  uint32_t n = slotCount(inst.getType());
  uint32_t sourceSlots = slotCount(inst.getSrcTy());
  if (inst.getOpcode() == Instruction::BitCast && n != sourceSlots) {
    // <2 x i32> <-> i64 and friends: repack the bits.
    uint32_t fromBits = scalarWidth(from), toBits = scalarWidth(to);
    if (n == 1) {
      uint32_t base = materialize(inst.getOperand(0));
      emit(Op::BitcastPack, result(inst), base, 0, 0, fromBits, uint8_t(toBits),
           uint8_t(sourceSlots));
    } else if (sourceSlots == 1) {
      emit(Op::BitcastUnpack, result(inst), operand(inst.getOperand(0)), 0, 0, toBits,
           uint8_t(toBits), uint8_t(n));
    } else {
      throw Unsupported{"a bitcast between vectors of different lengths"};
    }
    return;
  }
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t dst = result(inst) + i, src = operand(inst.getOperand(0), i);
    switch (inst.getOpcode()) {
    case Instruction::Trunc:
    case Instruction::PtrToInt:
      emit(Op::Trunc, dst, src, 0, 0, 0, scalarWidth(to));
      break;
    case Instruction::ZExt:
    case Instruction::IntToPtr:
    case Instruction::BitCast:
    case Instruction::AddrSpaceCast:
      move(dst, src);
      break;
    case Instruction::SExt:
      emit(Op::SExt, dst, src, 0, 0, scalarWidth(from), scalarWidth(to));
      break;
    case Instruction::FPTrunc:
    case Instruction::FPExt:
      emit(Op::FPConv, dst, src, 0, 0, floatWidth(from), floatWidth(to));
      break;
    case Instruction::FPToUI:
      emit(Op::FPToUI, dst, src, 0, 0, floatWidth(from), scalarWidth(to));
      break;
    case Instruction::FPToSI:
      emit(Op::FPToSI, dst, src, 0, 0, floatWidth(from), scalarWidth(to));
      break;
    case Instruction::UIToFP:
      emit(Op::UIToFP, dst, src, 0, 0, scalarWidth(from), floatWidth(to));
      break;
    case Instruction::SIToFP:
      emit(Op::SIToFP, dst, src, 0, 0, scalarWidth(from), floatWidth(to));
      break;
    default:
      throw Unsupported{std::string("the '") + inst.getOpcodeName() + "' cast"};
    }
  }
}

void FunctionLowering::lowerGep(llvm::GetElementPtrInst &inst) {
  if (inst.getType()->isVectorTy())
    throw Unsupported{"a vector of pointers"};
  const llvm::DataLayout &layout = module_.layout();
  uint32_t current = operand(inst.getPointerOperand());
  uint64_t constantOffset = 0;
  for (auto it = llvm::gep_type_begin(inst), end = llvm::gep_type_end(inst); it != end; ++it) {
    llvm::Value *index = it.getOperand();
    if (llvm::StructType *st = it.getStructTypeOrNull()) {
      unsigned field = unsigned(llvm::cast<llvm::ConstantInt>(index)->getZExtValue());
      constantOffset += layout.getStructLayout(st)->getElementOffset(field);
      continue;
    }
    uint64_t stride = it.getSequentialElementStride(layout);
    if (auto *ci = llvm::dyn_cast<llvm::ConstantInt>(index)) {
      if (ci->getValue().getSignificantBits() > 64)
        throw Unsupported{"a getelementptr index wider than 64 bits"};
      constantOffset += uint64_t(ci->getSExtValue()) * stride;
      continue;
    }
    uint32_t next = allocate(1);
    emit(Op::PtrAddScaled, next, current, operand(index), 0, stride,
         scalarWidth(index->getType()));
    current = next;
  }
  emit(Op::PtrAdd, result(inst), current, 0, 0, constantOffset, 64);
}

void FunctionLowering::lowerLoad(llvm::LoadInst &inst) {
  llvm::Value *pointer = inst.getPointerOperand();
  // Legacy IR: threadIdx.y is a load from @threadIdx + 4.
  llvm::APInt offset(64, 0);
  llvm::Value *base =
      pointer->stripAndAccumulateConstantOffsets(module_.layout(), offset, /*AllowNonInbounds=*/true);
  if (auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(base); gv && isLegacyBuiltinName(gv->getName())) {
    uint64_t axis = offset.getZExtValue() / 4;
    std::optional<SpecialRegister> reg = legacyBuiltinGlobal(gv->getName(), axis);
    if (!reg || !inst.getType()->isIntegerTy())
      throw Unsupported{"a load from builtin variable '" + gv->getName().str() + "'"};
    noteBuiltinRead(*reg, out_.readsBuiltin);
    uint32_t tmp = allocate(1);
    emit(Op::SpecialReg, tmp, 0, 0, 0, 0, 32, uint8_t(*reg));
    emit(Op::Trunc, result(inst), tmp, 0, 0, 0, scalarWidth(inst.getType()));
    return;
  }
  bool atomic = inst.isAtomic() || seedsCompareAndSwap(inst);
  uint8_t flags = (atomic ? 1 : 0) | (inst.isVolatile() ? 2 : 0);
  uint32_t ptr = operand(pointer);
  std::vector<Leaf> parts = module_.leaves(inst.getType());
  for (size_t i = 0; i < parts.size(); ++i)
    emit(Op::Load, result(inst) + uint32_t(i), pointerPlus(ptr, parts[i].offset), 0, 0,
         module_.layout().getTypeStoreSize(parts[i].type), scalarWidth(parts[i].type), flags);
}

void FunctionLowering::lowerStore(llvm::StoreInst &inst) {
  uint8_t flags = (inst.isAtomic() ? 1 : 0) | (inst.isVolatile() ? 2 : 0);
  llvm::Value *value = inst.getValueOperand();
  uint32_t ptr = operand(inst.getPointerOperand());
  std::vector<Leaf> parts = module_.leaves(value->getType());
  for (size_t i = 0; i < parts.size(); ++i)
    emit(Op::Store, 0, pointerPlus(ptr, parts[i].offset), operand(value, uint32_t(i)), 0,
         module_.layout().getTypeStoreSize(parts[i].type), scalarWidth(parts[i].type), flags);
}

// Leaf range [first, first + count) of the member at `indices`.
std::pair<uint32_t, uint32_t> memberLeaves(ModuleLowering &module, llvm::Type *aggregate,
                                           llvm::ArrayRef<unsigned> indices) {
  uint32_t first = 0;
  llvm::Type *type = aggregate;
  for (unsigned index : indices) {
    if (auto *st = llvm::dyn_cast<llvm::StructType>(type)) {
      for (unsigned i = 0; i < index; ++i)
        first += uint32_t(module.leaves(st->getElementType(i)).size());
      type = st->getElementType(index);
    } else {
      llvm::Type *element = type->isArrayTy() ? type->getArrayElementType()
                                              : llvm::cast<llvm::VectorType>(type)->getElementType();
      first += index * uint32_t(module.leaves(element).size());
      type = element;
    }
  }
  return {first, uint32_t(module.leaves(type).size())};
}

void FunctionLowering::lowerExtractValue(llvm::ExtractValueInst &inst) {
  auto [first, count] =
      memberLeaves(module_, inst.getAggregateOperand()->getType(), inst.getIndices());
  for (uint32_t i = 0; i < count; ++i)
    move(result(inst) + i, operand(inst.getAggregateOperand(), first + i));
}

void FunctionLowering::lowerInsertValue(llvm::InsertValueInst &inst) {
  uint32_t n = slotCount(inst.getType());
  for (uint32_t i = 0; i < n; ++i)
    move(result(inst) + i, operand(inst.getAggregateOperand(), i));
  auto [first, count] = memberLeaves(module_, inst.getType(), inst.getIndices());
  for (uint32_t i = 0; i < count; ++i)
    move(result(inst) + first + i, operand(inst.getInsertedValueOperand(), i));
}

void FunctionLowering::lowerShuffleVector(llvm::ShuffleVectorInst &inst) {
  uint32_t firstLength = slotCount(inst.getOperand(0)->getType());
  llvm::ArrayRef<int> mask = inst.getShuffleMask();
  for (size_t i = 0; i < mask.size(); ++i) {
    int m = mask[i];
    uint32_t src = m < 0                    ? module_.constantOperand(0)
                   : uint32_t(m) < firstLength ? operand(inst.getOperand(0), uint32_t(m))
                                            : operand(inst.getOperand(1), uint32_t(m) - firstLength);
    move(result(inst) + uint32_t(i), src);
  }
}

void FunctionLowering::lowerCall(llvm::CallInst &inst) {
  if (inst.isInlineAsm())
    throw Unsupported{describeUnloweredAsm(inst)};
  llvm::Function *callee = inst.getCalledFunction();
  if (!callee)
    throw Unsupported{"an indirect call"};
  if (callee->isDeclaration()) {
    if (callee->getName() == kBadIndirectCallName)
      return lowerCallThroughNonFunction(inst);
    std::optional<Builtin> builtin = classifyBuiltin(callee->getName());
    if (!builtin && callee->isIntrinsic())
      throw Unsupported{"a call to external function '" + callee->getName().str() + "'"};
    if (!builtin)
      return lowerUnresolvedCall(inst);
    return lowerBuiltin(inst, *builtin);
  }
  uint32_t calleeIndex = *module_.functionIndex(callee);
  if (std::find(out_.callees.begin(), out_.callees.end(), calleeIndex) == out_.callees.end())
    out_.callees.push_back(calleeIndex);
  // aux: [slot count, source operands...] copied into the callee's slots 0..
  size_t auxBegin = out_.aux.size();
  out_.aux.push_back(0);
  uint32_t count = 0;
  for (llvm::Value *arg : inst.args()) {
    uint32_t n = slotCount(arg->getType());
    for (uint32_t i = 0; i < n; ++i)
      out_.aux.push_back(operand(arg, i));
    count += n;
  }
  out_.aux[auxBegin] = count;
  Instr &call = emit(Op::Call, inst.getType()->isVoidTy() ? 0 : result(inst), 0, 0, 0, calleeIndex);
  call.aux = uint32_t(auxBegin);
}

// A call of a device function with no body (defined in a file not given, or
// in a library): a void call does nothing; a scalar result is a value chosen
// per launch (Op::ChosenValue); a pointer result is a fresh private buffer.
// The kernel's verdict carries a note saying so.
void FunctionLowering::lowerUnresolvedCall(llvm::CallInst &inst) {
  std::string what = "did nothing";
  if (!inst.getType()->isVoidTy()) {
    uint32_t dst = result(inst);
    std::vector<Leaf> parts = module_.leaves(inst.getType());
    bool pointers = false, values = false;
    for (size_t i = 0; i < parts.size(); ++i) {
      llvm::Type *type = parts[i].type;
      if (type->isPointerTy()) {
        emit(Op::Alloca, dst + uint32_t(i), 0, 0, 0, kUnresolvedCallScratchBytes, 64, 16);
        pointers = true;
      } else {
        emit(Op::ChosenValue, dst + uint32_t(i), 0, 0, 0, 0, scalarWidth(type),
             type->isFloatingPointTy() ? 1 : 0);
        values = true;
      }
    }
    if (values && pointers)
      what = "returned chosen values and a fresh private buffer";
    else if (pointers)
      what = "returned a fresh private buffer of " + std::to_string(kUnresolvedCallScratchBytes) +
             " bytes";
    else
      what = "returned a chosen value";
  }
  std::string where;
  if (const llvm::DILocation *loc = inst.getDebugLoc().get())
    where = " at " + loc->getFilename().str() + ":" + std::to_string(loc->getLine());
  std::string note = "call to undefined '" + llvm::demangle(inst.getCalledFunction()->getName()) +
                     "'" + where + " " + what;
  if (std::find(out_.notes.begin(), out_.notes.end(), note) == out_.notes.end())
    out_.notes.push_back(std::move(note));
}

// The fallback of a dispatch over function pointers (IndirectCalls.h): the
// pointer called is no function of the program.
void FunctionLowering::lowerCallThroughNonFunction(llvm::CallInst &inst) {
  if (inst.arg_size() != 1)
    throw Unsupported{"a call to '" + kBadIndirectCallName.str() + "' with a wrong signature"};
  emit(Op::Trap, 0, operand(inst.getArgOperand(0)), 0, 0, 0, 64,
       uint8_t(TrapReason::CallThroughNonFunction));
}

// Arguments each builtin reads (at least). A declaration with fewer (a
// hand-written `declare` of an __nv_ function or a shuffle) is unsupported.
unsigned builtinArgumentCount(const Builtin &builtin) {
  switch (builtin.kind) {
  case BuiltinKind::Ignore: case BuiltinKind::SpecialReg: case BuiltinKind::Barrier:
  case BuiltinKind::Fence: case BuiltinKind::ActiveMask: case BuiltinKind::Trap:
  case BuiltinKind::Exit: case BuiltinKind::GridBarrier:
    return 0;
  case BuiltinKind::Identity: case BuiltinKind::Bitcast: case BuiltinKind::WarpSync:
  case BuiltinKind::NamedBarrier:
  case BuiltinKind::MathUnary: case BuiltinKind::IntUnary: case BuiltinKind::RoundToInt:
  case BuiltinKind::IntToFloat:
  case BuiltinKind::Load: case BuiltinKind::Print: case BuiltinKind::Malloc:
  case BuiltinKind::Free:
    return 1;
  case BuiltinKind::MathBinary: case BuiltinKind::FDiv: case BuiltinKind::FAdd:
  case BuiltinKind::FMul: case BuiltinKind::IntBinary: case BuiltinKind::PowI:
  case BuiltinKind::AtomicRMW:
  case BuiltinKind::MatchAny:
  case BuiltinKind::WarpReduce:
    return 2;
  case BuiltinKind::Fma: case BuiltinKind::FunnelShift: case BuiltinKind::MemCopy:
  case BuiltinKind::CmpXchg: case BuiltinKind::FindNthSet:
  case BuiltinKind::MemMove: case BuiltinKind::MemSet:
    return 3;
  case BuiltinKind::Texture:
    return 5;
  case BuiltinKind::Shuffle:
    return builtin.hasMask ? 4 : 3;
  case BuiltinKind::Vote:
    return builtin.hasMask ? 2 : 1;
  }
  return 0;
}

// simulee's texture functions (ir/TexturePtx.h): (handle, flags, x, y, z
// [, values...]); the flags are the instruction's constant modifiers.
void FunctionLowering::lowerTextureAccess(llvm::CallInst &inst, TextureAccess access) {
  auto *flags = llvm::dyn_cast<llvm::ConstantInt>(inst.getArgOperand(1));
  if (!flags)
    throw Unsupported{"a texture or surface access with non-constant modifiers"};
  auto arg = [&](unsigned i) { return operand(inst.getArgOperand(i)); };
  llvm::Type *type = inst.getType();
  uint32_t z = arg(4);
  auto modifiers = uint8_t(flags->getZExtValue());
  if (access == TextureAccess::Fetch) {
    if (slotCount(type) != 4)
      throw Unsupported{"a texture fetch that does not return four channels"};
    emit(Op::TextureFetch, result(inst), arg(0), arg(2), arg(3), z, 32, modifiers);
    return;
  }
  if (access == TextureAccess::SurfaceLoad) {
    llvm::Type *element = type->isStructTy() ? type->getStructElementType(0) : type;
    uint32_t count = slotCount(type);
    if (!element->isIntegerTy() || (count != 1 && count != 2 && count != 4))
      throw Unsupported{"a surface load of a type other than 1, 2 or 4 integers"};
    emit(Op::SurfaceLoad, result(inst), arg(0), arg(2), arg(3), z, scalarWidth(element),
         uint8_t(modifiers | count << 4));
    return;
  }
  size_t auxBegin = out_.aux.size();
  out_.aux.push_back(uint32_t(inst.arg_size() - 5));
  for (unsigned i = 5; i < inst.arg_size(); ++i)
    out_.aux.push_back(arg(i));
  llvm::Type *element = inst.arg_size() > 5 ? inst.getArgOperand(5)->getType() : nullptr;
  if (!element || !element->isIntegerTy() || inst.arg_size() - 5 > 4)
    throw Unsupported{"a surface store of a type other than 1, 2 or 4 integers"};
  Instr &store = emit(Op::SurfaceStore, 0, arg(0), arg(2), arg(3), z, scalarWidth(element),
                      uint8_t(modifiers | (inst.arg_size() - 5) << 4));
  store.aux = uint32_t(auxBegin);
}

void FunctionLowering::lowerBuiltin(llvm::CallInst &inst, const Builtin &builtin) {
  std::string callee = inst.getCalledFunction()->getName().str();
  if (inst.arg_size() < builtinArgumentCount(builtin))
    throw Unsupported{"a call to '" + callee + "' with " + std::to_string(inst.arg_size()) +
                      " arguments (it takes " + std::to_string(builtinArgumentCount(builtin)) +
                      ")"};
  if ((builtin.kind == BuiltinKind::MemCopy || builtin.kind == BuiltinKind::MemMove ||
       builtin.kind == BuiltinKind::MemSet) &&
      (!inst.getArgOperand(0)->getType()->isPointerTy() ||
       !inst.getArgOperand(2)->getType()->isIntegerTy()))
    throw Unsupported{"a call to '" + callee + "' with a wrong signature"};
  if (builtin.kind == BuiltinKind::IntBinary && builtin.selector >= uint8_t(IntFunction::UAddO) &&
      builtin.selector <= uint8_t(IntFunction::SMulO) && slotCount(inst.getType()) < 2)
    throw Unsupported{"a call to '" + callee + "' that does not return {value, overflow}"};
  auto arg = [&](unsigned i, uint32_t leaf = 0) { return operand(inst.getArgOperand(i), leaf); };
  llvm::Type *type = inst.getType();
  // A void call of a builtin that writes a result writes a scratch slot.
  bool writesNothing = builtin.kind == BuiltinKind::Ignore || builtin.kind == BuiltinKind::Fence ||
                       builtin.kind == BuiltinKind::WarpSync || builtin.kind == BuiltinKind::Trap ||
                       builtin.kind == BuiltinKind::NamedBarrier ||
                       builtin.kind == BuiltinKind::Texture ||
                       builtin.kind == BuiltinKind::Exit || builtin.kind == BuiltinKind::MemCopy ||
                       builtin.kind == BuiltinKind::MemMove || builtin.kind == BuiltinKind::MemSet;
  uint32_t dst = !type->isVoidTy() ? result(inst) : writesNothing ? 0 : allocate(2);
  uint32_t n = slotCount(type);
  switch (builtin.kind) {
  case BuiltinKind::Ignore:
    return;
  case BuiltinKind::Identity:
  case BuiltinKind::Bitcast:
    for (uint32_t i = 0; i < n; ++i)
      move(dst + i, arg(0, i));
    return;
  case BuiltinKind::SpecialReg: {
    SpecialRegister reg = SpecialRegister(builtin.selector);
    noteBuiltinRead(reg, out_.readsBuiltin);
    emit(Op::SpecialReg, dst, 0, 0, 0, 0, scalarWidth(type), builtin.selector);
    return;
  }
  case BuiltinKind::Barrier: {
    uint32_t predicate = builtin.selector == uint8_t(BarrierKind::Plain) || inst.arg_size() == 0
                             ? module_.constantOperand(0)
                             : arg(inst.arg_size() - 1);
    // A grid barrier's own block barriers (builtin.required) are its
    // implementation, not the program's: never advised about, never
    // "unreached" (a generic group's sync holds them on a path it never
    // takes for a block).
    if (!builtin.required)
      out_.barriers.push_back(currentId_);
    if (builtin.selector != uint8_t(BarrierKind::Plain) || builtin.required)
      out_.requiredBarriers.push_back(currentId_);
    emit(Op::Barrier, dst, predicate, 0, 0, 0, type->isVoidTy() ? 0 : scalarWidth(type),
         builtin.selector);
    return;
  }
  case BuiltinKind::NamedBarrier: {
    // bar.sync 0 for the whole block is __syncthreads: it keeps visit orders.
    auto *id = llvm::dyn_cast<llvm::ConstantInt>(inst.getArgOperand(0));
    bool wholeBlock = inst.arg_size() < 2;
    if (builtin.selector == uint8_t(NamedBarrierMode::Sync) && wholeBlock && id && id->isZero()) {
      out_.barriers.push_back(currentId_);
      emit(Op::Barrier, 0, module_.constantOperand(0), 0, 0, 0, 0, uint8_t(BarrierKind::Plain));
      return;
    }
    emit(Op::NamedBarrier, 0, arg(0), wholeBlock ? module_.constantOperand(0) : arg(1), 0, 0, 32,
         builtin.selector);
    return;
  }
  case BuiltinKind::Texture:
    return lowerTextureAccess(inst, TextureAccess(builtin.selector));
  case BuiltinKind::Malloc:
    emit(Op::Malloc, dst, arg(0), 0, 0, 0, 64);
    return;
  case BuiltinKind::FindNthSet:
    emit(Op::FindNthSet, dst, arg(0), arg(1), arg(2), 0, 32);
    return;
  case BuiltinKind::Free:
    emit(Op::Free, 0, arg(0));
    return;
  case BuiltinKind::GridBarrier:
    // The arrive's old counter value is 0; the wait parks the block and
    // returns the counter with its top bit flipped (ir/GridSync.h).
    if (builtin.selector == 0) {
      move(dst, module_.constantOperand(0));
      return;
    }
    out_.syncsGrid = true;
    emit(Op::GridBarrier, dst, 0, 0, 0, 0, 32, 0);
    return;
  case BuiltinKind::WarpSync:
    emit(Op::WarpSync, 0, arg(0));
    return;
  case BuiltinKind::Fence:
    emit(Op::Fence, 0, 0, 0, 0, 0, 0, builtin.selector);
    return;
  case BuiltinKind::MathUnary:
    for (uint32_t i = 0; i < n; ++i)
      emit(Op::MathUnary, dst + i, arg(0, i), 0, 0,
           floatWidth(inst.getArgOperand(0)->getType()->getScalarType()) |
               uint64_t(builtin.rounding) << 8,
           scalarWidth(type->getScalarType()), builtin.selector);
    return;
  case BuiltinKind::MathBinary: {
    // ldexp and scalbn take an integer exponent: convert it to the base's type.
    llvm::Type *second = inst.getArgOperand(1)->getType()->getScalarType();
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t b = arg(1, i);
      if (second->isIntegerTy()) {
        b = allocate(1);
        emit(Op::SIToFP, b, arg(1, i), 0, 0, scalarWidth(second), floatWidth(type->getScalarType()));
      }
      emit(Op::MathBinary, dst + i, arg(0, i), b, 0, 0, floatWidth(type->getScalarType()),
           builtin.selector);
    }
    return;
  }
  case BuiltinKind::AtomicRMW: {
    llvm::Type *valueType = inst.getArgOperand(1)->getType();
    emit(Op::AtomicRMW, dst, arg(0), arg(1), 0, module_.layout().getTypeStoreSize(valueType),
         scalarWidth(valueType), uint8_t(builtin.selector | (builtin.blockScope ? kBlockScope : 0)));
    return;
  }
  case BuiltinKind::CmpXchg: {
    // The intrinsic returns the old value alone: the success slot is scratch.
    llvm::Type *valueType = inst.getArgOperand(1)->getType();
    uint32_t pair = allocate(2);
    emit(Op::CmpXchg, pair, arg(0), arg(1), arg(2), module_.layout().getTypeStoreSize(valueType),
         scalarWidth(valueType), builtin.blockScope ? kBlockScope : 0);
    move(dst, pair);
    return;
  }
  case BuiltinKind::PowI: {
    // Convert the integer exponent to the base's type, then pow.
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t exponent = allocate(1);
      emit(Op::SIToFP, exponent, arg(1, i), 0, 0,
           scalarWidth(inst.getArgOperand(1)->getType()->getScalarType()),
           floatWidth(type->getScalarType()));
      emit(Op::MathBinary, dst + i, arg(0, i), exponent, 0, 0, floatWidth(type->getScalarType()),
           uint8_t(MathFunction::Pow));
    }
    return;
  }
  case BuiltinKind::Fma:
    for (uint32_t i = 0; i < n; ++i)
      emit(Op::Fma, dst + i, arg(0, i), arg(1, i), arg(2, i), 0, floatWidth(type->getScalarType()),
           builtin.selector);
    return;
  case BuiltinKind::FDiv:
  case BuiltinKind::FAdd:
  case BuiltinKind::FMul: {
    Op op = builtin.kind == BuiltinKind::FDiv   ? Op::FDiv
            : builtin.kind == BuiltinKind::FAdd ? Op::FAdd
                                                : Op::FMul;
    for (uint32_t i = 0; i < n; ++i)
      emit(op, dst + i, arg(0, i), arg(1, i), 0, 0, floatWidth(type->getScalarType()),
           builtin.selector);
    return;
  }
  case BuiltinKind::IntUnary: {
    IntFunction f = IntFunction(builtin.selector);
    llvm::Type *argType = inst.getArgOperand(0)->getType()->getScalarType();
    for (uint32_t i = 0; i < n; ++i)
      emit(Op::IntUnary, dst + i, arg(0, i), 0, 0, scalarWidth(argType), scalarWidth(argType),
           uint8_t(f));
    return;
  }
  case BuiltinKind::IntBinary: {
    llvm::Type *argType = inst.getArgOperand(0)->getType()->getScalarType();
    // with.overflow returns {iN, i1}: two slots, written by one instruction.
    uint32_t count = type->isStructTy() ? 1 : n;
    for (uint32_t i = 0; i < count; ++i)
      emit(Op::IntBinary, dst + i, arg(0, i), arg(1, i), inst.arg_size() > 2 ? arg(2, i) : 0, 0,
           scalarWidth(argType), builtin.selector);
    return;
  }
  case BuiltinKind::FunnelShift:
    for (uint32_t i = 0; i < n; ++i)
      emit(Op::FunnelShift, dst + i, arg(0, i), arg(1, i), arg(2, i), 0,
           scalarWidth(type->getScalarType()), builtin.selector);
    return;
  case BuiltinKind::RoundToInt: {
    uint8_t from = floatWidth(inst.getArgOperand(0)->getType());
    uint32_t rounded = allocate(1);
    emit(Op::MathUnary, rounded, arg(0), 0, 0, from, from, builtin.selector);
    emit(builtin.isSigned ? Op::FPToSI : Op::FPToUI, dst, rounded, 0, 0, from, scalarWidth(type));
    return;
  }
  case BuiltinKind::IntToFloat:
    emit(builtin.isSigned ? Op::SIToFP : Op::UIToFP, dst, arg(0), 0, 0,
         scalarWidth(inst.getArgOperand(0)->getType()), floatWidth(type), builtin.selector);
    return;
  case BuiltinKind::Shuffle: {
    unsigned first = builtin.hasMask ? 1 : 0;
    // The _sync variants order the lanes of their mask like __syncwarp.
    if (builtin.hasMask)
      emit(Op::WarpSync, 0, arg(0));
    // Result may be {i32, i1} (the .p variants): the predicate slot says
    // whether the source lane was in range; we report it as true.
    emit(Op::Shuffle, dst, arg(first), arg(first + 1), arg(first + 2), 0,
         scalarWidth(inst.getArgOperand(first)->getType()), builtin.selector);
    if (n == 2)
      move(dst + 1, module_.constantOperand(1));
    return;
  }
  case BuiltinKind::Vote: {
    uint32_t mask = builtin.hasMask ? arg(0) : module_.constantOperand(0xffffffffu);
    if (builtin.hasMask)
      emit(Op::WarpSync, 0, mask);
    emit(Op::Vote, dst, arg(builtin.hasMask ? 1 : 0), mask, 0, 0, scalarWidth(type),
         builtin.selector);
    return;
  }
  case BuiltinKind::ActiveMask:
    emit(Op::Vote, dst, module_.constantOperand(1), module_.constantOperand(0xffffffffu), 0, 0, 32,
         uint8_t(VoteMode::Ballot));
    return;
  case BuiltinKind::MatchAny:
    emit(Op::WarpSync, 0, arg(0));
    emit(Op::MatchAny, dst, arg(1), arg(0), 0, 0, scalarWidth(inst.getArgOperand(1)->getType()));
    return;
  case BuiltinKind::WarpReduce:
    // clang 19's __reduce_*_sync pass (mask, value), the order its own
    // header writes (NVVM's definition names the value first).
    emit(Op::WarpSync, 0, arg(0));
    emit(Op::WarpReduce, dst, arg(1), arg(0), 0, 0, 32, builtin.selector);
    return;
  case BuiltinKind::Load: {
    uint32_t ptr = arg(0);
    std::vector<Leaf> parts = module_.leaves(type);
    for (size_t i = 0; i < parts.size(); ++i)
      emit(Op::Load, dst + uint32_t(i), pointerPlus(ptr, parts[i].offset), 0, 0,
           module_.layout().getTypeStoreSize(parts[i].type), scalarWidth(parts[i].type));
    return;
  }
  case BuiltinKind::MemCopy:
  case BuiltinKind::MemMove:
    emit(Op::MemCopy, 0, arg(0), arg(1), arg(2), 0,
         scalarWidth(inst.getArgOperand(2)->getType()));
    return;
  case BuiltinKind::MemSet:
    emit(Op::MemSet, 0, arg(0), arg(1), arg(2), 0, scalarWidth(inst.getArgOperand(2)->getType()));
    return;
  case BuiltinKind::Print: {
    size_t auxBegin = out_.aux.size();
    out_.aux.push_back(inst.arg_size() > 1 ? arg(1) : module_.constantOperand(0));
    emit(Op::Print, dst, arg(0)).aux = uint32_t(auxBegin);
    return;
  }
  case BuiltinKind::Trap:
    if ((callee == "__assertfail" || callee == "__assert_fail") && inst.arg_size() >= 1 &&
        inst.getArgOperand(0)->getType()->isPointerTy()) {
      emit(Op::Trap, 0, arg(0), 0, 0, 0, 64, uint8_t(TrapReason::Assert));
      return;
    }
    emit(Op::Trap);
    return;
  case BuiltinKind::Exit:
    emit(Op::Exit);
    return;
  }
}

void FunctionLowering::lowerBranch(llvm::BranchInst &inst) {
  const llvm::BasicBlock *from = inst.getParent();
  if (inst.isUnconditional()) {
    size_t auxBegin = out_.aux.size();
    out_.aux.insert(out_.aux.end(), {0, 0});
    appendEdgeMoves(from, inst.getSuccessor(0));
    out_.aux[auxBegin] = uint32_t(auxBegin + 2);
    out_.aux[auxBegin + 1] = uint32_t(out_.aux.size());
    Instr &br = emit(Op::Br);
    br.aux = uint32_t(auxBegin);
    immFixups_.push_back({out_.code.size() - 1, inst.getSuccessor(0)});
    return;
  }
  // aux: [trueTarget, falseTarget, reconvergence, trueMoves begin/end, falseMoves begin/end]
  size_t auxBegin = out_.aux.size();
  out_.aux.insert(out_.aux.end(), {0, 0, 0, 0, 0, 0, 0});
  auxFixups_.push_back({auxBegin, inst.getSuccessor(0)});
  auxFixups_.push_back({auxBegin + 1, inst.getSuccessor(1)});
  if (reconvergencePc(from) == kNoReconvergence)
    out_.aux[auxBegin + 2] = kNoReconvergence;
  else
    auxFixups_.push_back({auxBegin + 2, reconvergence_.of(from)});
  out_.aux[auxBegin + 3] = uint32_t(out_.aux.size());
  appendEdgeMoves(from, inst.getSuccessor(0));
  out_.aux[auxBegin + 4] = uint32_t(out_.aux.size());
  out_.aux[auxBegin + 5] = uint32_t(out_.aux.size());
  appendEdgeMoves(from, inst.getSuccessor(1));
  out_.aux[auxBegin + 6] = uint32_t(out_.aux.size());
  Instr &br = emit(Op::CondBr, 0, operand(inst.getCondition()));
  br.aux = uint32_t(auxBegin);
}

void FunctionLowering::lowerSwitch(llvm::SwitchInst &inst) {
  const llvm::BasicBlock *from = inst.getParent();
  // aux: [reconvergence, caseCount, default: target movesBegin movesEnd,
  //       then per case: value target movesBegin movesEnd]
  size_t auxBegin = out_.aux.size();
  unsigned cases = inst.getNumCases();
  out_.aux.resize(auxBegin + 2 + 3 + 4 * cases, 0);
  if (reconvergencePc(from) == kNoReconvergence)
    out_.aux[auxBegin] = kNoReconvergence;
  else
    auxFixups_.push_back({auxBegin, reconvergence_.of(from)});
  out_.aux[auxBegin + 1] = cases;
  auto addTarget = [&](size_t at, const llvm::BasicBlock *target) {
    auxFixups_.push_back({at, target});
    out_.aux[at + 1] = uint32_t(out_.aux.size());
    appendEdgeMoves(from, target);
    out_.aux[at + 2] = uint32_t(out_.aux.size());
  };
  addTarget(auxBegin + 2, inst.getDefaultDest());
  unsigned i = 0;
  for (auto &c : inst.cases()) {
    size_t at = auxBegin + 5 + 4 * i++;
    uint64_t value = c.getCaseValue()->getValue().getLimitedValue();
    if (value > 0xffffffffu)
      throw Unsupported{"a switch case value wider than 32 bits"};
    out_.aux[at] = uint32_t(value);
    addTarget(at + 1, c.getCaseSuccessor());
  }
  Instr &sw = emit(Op::Switch, 0, operand(inst.getCondition()), 0, 0, 0,
                   scalarWidth(inst.getCondition()->getType()));
  sw.aux = uint32_t(auxBegin);
}

void FunctionLowering::lowerReturn(llvm::ReturnInst &inst) {
  llvm::Value *value = inst.getReturnValue();
  if (!value) {
    emit(Op::Ret);
    return;
  }
  uint32_t base = materialize(value);
  emit(Op::Ret, 0, base, 0, 0, slotCount(value->getType()));
}

} // namespace

Status lowerProgram(Program &program) {
  ModuleLowering lowering(program);
  try {
    return lowering.run();
  } catch (const Unsupported &u) {
    return makeError(program.path + ": unsupported: " + u.what);
  }
}

} // namespace simulee::ir
