#include "ir/BlockContract.h"

#include "ir/Builtins.h"
#include "ir/KernelDiscovery.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

#include <vector>

namespace simulee::ir {
namespace {

bool isInCubNamespace(const llvm::DIScope *scope) {
  for (; scope; scope = scope->getScope())
    if (const auto *space = llvm::dyn_cast<llvm::DINamespace>(scope))
      if (space->getName() == "cub")
        return true;
  return false;
}

// A CUB class with BLOCK_DIM_X among its template arguments: its shape.
std::optional<BlockContract> contractOfType(const llvm::DICompositeType *type) {
  if (!type || !isInCubNamespace(type->getScope()))
    return std::nullopt;
  BlockContract contract;
  bool hasX = false;
  for (const llvm::DITemplateParameter *param : type->getTemplateParams()) {
    const auto *value = llvm::dyn_cast_or_null<llvm::DITemplateValueParameter>(param);
    const auto *constant =
        value ? llvm::dyn_cast_or_null<llvm::ConstantAsMetadata>(value->getValue()) : nullptr;
    const auto *integer =
        constant ? llvm::dyn_cast<llvm::ConstantInt>(constant->getValue()) : nullptr;
    if (!integer || integer->getZExtValue() == 0 || integer->getZExtValue() > 1024)
      continue;
    llvm::StringRef name = value->getName();
    uint32_t size = uint32_t(integer->getZExtValue());
    if (name == "BLOCK_DIM_X") {
      contract.dims[0] = size;
      hasX = true;
    } else if (name == "BLOCK_DIM_Y") {
      contract.dims[1] = size;
    } else if (name == "BLOCK_DIM_Z") {
      contract.dims[2] = size;
    }
  }
  if (!hasX)
    return std::nullopt;
  llvm::StringRef name = type->getName();
  contract.source = "cub::" + name.substr(0, name.find('<')).str() +
                    " (BLOCK_DIM_X = " + std::to_string(contract.dims[0]) +
                    (contract.dims[1] != 1 || contract.dims[2] != 1
                         ? ", BLOCK_DIM_Y = " + std::to_string(contract.dims[1]) +
                               ", BLOCK_DIM_Z = " + std::to_string(contract.dims[2])
                         : std::string()) +
                    ")";
  return contract;
}

// The class a function is a member of, through lexical blocks.
const llvm::DICompositeType *classOf(const llvm::DIScope *scope) {
  for (; scope; scope = scope->getScope()) {
    if (const auto *subprogram = llvm::dyn_cast<llvm::DISubprogram>(scope))
      return llvm::dyn_cast_or_null<llvm::DICompositeType>(subprogram->getScope());
    if (!llvm::isa<llvm::DILexicalBlockBase>(scope))
      return nullptr;
  }
  return nullptr;
}

// Whether `value` is a read of `reg` (through integer casts), as the
// interpreter's builtin table classifies the call.
bool readsRegister(const llvm::Value *value, SpecialRegister reg) {
  while (const auto *cast = llvm::dyn_cast<llvm::CastInst>(value))
    value = cast->getOperand(0);
  const auto *call = llvm::dyn_cast<llvm::CallBase>(value);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  std::optional<Builtin> builtin = callee ? classifyBuiltin(callee->getName()) : std::nullopt;
  return builtin && builtin->kind == BuiltinKind::SpecialReg && builtin->selector == uint8_t(reg);
}

// The static __shared__ array a pointer indexes at [threadIdx.x], or null.
const llvm::GlobalVariable *sharedArrayAtThreadIdx(const llvm::Value *pointer) {
  // `array[0][tid]` as clang writes it, or `element[tid]` once optimised.
  const auto *gep = llvm::dyn_cast<llvm::GEPOperator>(pointer);
  if (!gep || gep->getNumIndices() < 1 || gep->getNumIndices() > 2)
    return nullptr;
  const auto *array =
      llvm::dyn_cast<llvm::GlobalVariable>(gep->getPointerOperand()->stripPointerCasts());
  if (!array || array->getAddressSpace() != 3 || !array->getValueType()->isArrayTy())
    return nullptr;
  if (gep->getNumIndices() == 2) {
    const auto *first = llvm::dyn_cast<llvm::ConstantInt>(gep->getOperand(1));
    if (!first || !first->isZero() || gep->getSourceElementType() != array->getValueType())
      return nullptr;
  } else if (gep->getSourceElementType() != array->getValueType()->getArrayElementType()) {
    return nullptr;
  }
  return readsRegister(gep->getOperand(gep->getNumIndices()), SpecialRegister::TidX) ? array
                                                                                     : nullptr;
}

// The static __shared__ 2-D tile a pointer indexes at [threadIdx.y]
// [threadIdx.x], or null: `tile[threadIdx.y][threadIdx.x]` as clang writes
// it at -O0 (one address per dimension) or as one address.
const llvm::GlobalVariable *sharedTileAtThreadIdx(const llvm::Value *pointer) {
  const auto *inner = llvm::dyn_cast<llvm::GEPOperator>(pointer);
  if (!inner)
    return nullptr;
  auto isZero = [](const llvm::Value *value) {
    const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value);
    return constant && constant->isZero();
  };
  auto tileOf = [](const llvm::Value *base) -> const llvm::GlobalVariable * {
    const auto *array = llvm::dyn_cast<llvm::GlobalVariable>(base->stripPointerCasts());
    if (!array || array->getAddressSpace() != 3 || !array->getValueType()->isArrayTy() ||
        !array->getValueType()->getArrayElementType()->isArrayTy())
      return nullptr;
    return array;
  };
  const llvm::Value *rowIndex = nullptr;
  const llvm::GlobalVariable *tile = nullptr;
  if (inner->getNumIndices() == 3 && isZero(inner->getOperand(1))) {
    tile = tileOf(inner->getPointerOperand()); // one address: tile, 0, y, x
    rowIndex = inner->getOperand(2);
  } else if (inner->getNumIndices() == 2 && isZero(inner->getOperand(1))) {
    const auto *outer = llvm::dyn_cast<llvm::GEPOperator>(inner->getPointerOperand());
    if (outer && outer->getNumIndices() == 2 && isZero(outer->getOperand(1))) {
      tile = tileOf(outer->getPointerOperand()); // the row, then the element
      rowIndex = outer->getOperand(2);
    }
  }
  if (!tile || !readsRegister(rowIndex, SpecialRegister::TidY) ||
      !readsRegister(inner->getOperand(inner->getNumIndices()), SpecialRegister::TidX))
    return nullptr;
  return tile;
}

// Function attributes that carry a kernel's contract past header inlining.
constexpr const char *kDimsAttribute = "simulee-block-contract";
constexpr const char *kSourceAttribute = "simulee-block-contract-source";

} // namespace

std::optional<BlockContract> blockContractOf(const llvm::Function &kernel) {
  std::optional<BlockContract> found;
  bool conflict = false;
  llvm::SmallPtrSet<const llvm::DICompositeType *, 16> seenTypes;
  llvm::SmallPtrSet<const llvm::Function *, 16> visited;
  std::vector<const llvm::Function *> work = {&kernel};
  while (!work.empty() && !conflict) {
    const llvm::Function *function = work.back();
    work.pop_back();
    if (!visited.insert(function).second || function->isDeclaration())
      continue;
    for (const llvm::BasicBlock &block : *function)
      for (const llvm::Instruction &inst : block) {
        if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
          if (const llvm::Function *callee = call->getCalledFunction())
            work.push_back(callee);
        // Every frame of the inlining chain: CUB's code is inlined here.
        for (const llvm::DILocation *loc = inst.getDebugLoc().get(); loc;
             loc = loc->getInlinedAt()) {
          const llvm::DICompositeType *type = classOf(loc->getScope());
          if (!type || !seenTypes.insert(type).second)
            continue;
          std::optional<BlockContract> contract = contractOfType(type);
          if (!contract)
            continue;
          if (found && found->dims != contract->dims)
            conflict = true;
          else if (!found)
            found = contract;
        }
      }
  }
  return conflict ? std::nullopt : found;
}

std::optional<BlockContract> sharedArrayContractOf(const llvm::Function &kernel) {
  std::optional<BlockContract> found;
  bool readsY = false;
  for (const llvm::BasicBlock &block : kernel)
    for (const llvm::Instruction &inst : block) {
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
        if (readsRegister(call, SpecialRegister::TidZ))
          return std::nullopt;
        readsY |= readsRegister(call, SpecialRegister::TidY);
      }
      const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
      if (!store)
        continue;
      std::optional<BlockContract> contract;
      if (const llvm::GlobalVariable *array = sharedArrayAtThreadIdx(store->getPointerOperand())) {
        uint64_t elements = array->getValueType()->getArrayNumElements();
        if (elements < 32 || elements >= 1024)
          return std::nullopt;
        contract = BlockContract{{uint32_t(elements), 1, 1},
                                 "__shared__ array '" + sourceNameOf(*array) + "' (" +
                                     std::to_string(elements) +
                                     " elements, stored at [threadIdx.x])"};
      } else if (const llvm::GlobalVariable *tile =
                     sharedTileAtThreadIdx(store->getPointerOperand())) {
        // Tile widths are powers of two; a padded tile (`[16][17]`, against
        // bank conflicts) is wider than the block and says nothing of it.
        uint64_t rows = tile->getValueType()->getArrayNumElements();
        uint64_t columns = tile->getValueType()->getArrayElementType()->getArrayNumElements();
        if (!llvm::isPowerOf2_64(rows) || !llvm::isPowerOf2_64(columns) ||
            rows * columns < 32 || rows * columns > 1024)
          return std::nullopt;
        contract = BlockContract{{uint32_t(columns), uint32_t(rows), 1},
                                 "__shared__ tile '" + sourceNameOf(*tile) + "' (" +
                                     std::to_string(rows) + " x " + std::to_string(columns) +
                                     ", stored at [threadIdx.y][threadIdx.x])"};
      }
      if (!contract)
        continue;
      if (found && found->dims != contract->dims)
        return std::nullopt;
      if (!found)
        found = contract;
    }
  // A 1-D array at [threadIdx.x] fixes the block only where no thread
  // index but x is read.
  if (found && found->dims[1] == 1 && readsY)
    return std::nullopt;
  return found;
}

void recordBlockContracts(llvm::Module &module) {
  for (llvm::Function *kernel : findKernelFunctions(module))
    if (std::optional<BlockContract> contract = blockContractOf(*kernel)) {
      kernel->addFnAttr(kDimsAttribute, std::to_string(contract->dims[0]) + "," +
                                            std::to_string(contract->dims[1]) + "," +
                                            std::to_string(contract->dims[2]));
      kernel->addFnAttr(kSourceAttribute, contract->source);
    }
}

std::optional<BlockContract> recordedBlockContract(const llvm::Function &kernel) {
  if (!kernel.hasFnAttribute(kDimsAttribute))
    return std::nullopt;
  BlockContract contract;
  llvm::StringRef dims = kernel.getFnAttribute(kDimsAttribute).getValueAsString();
  for (uint32_t &dim : contract.dims) {
    auto [part, rest] = dims.split(',');
    if (part.getAsInteger(10, dim) || dim == 0)
      return std::nullopt;
    dims = rest;
  }
  contract.source = kernel.getFnAttribute(kSourceAttribute).getValueAsString().str();
  return contract;
}

} // namespace simulee::ir
