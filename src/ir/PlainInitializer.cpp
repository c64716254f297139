#include "ir/PlainInitializer.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>

#include <cstring>

namespace simulee::ir {
namespace {

bool writeConstant(const llvm::Constant &constant, const llvm::DataLayout &layout,
                   uint64_t offset, std::vector<uint8_t> &bytes) {
  llvm::Type *type = constant.getType();
  uint64_t size = layout.getTypeStoreSize(type);
  if (offset + size > bytes.size())
    return false;
  if (llvm::isa<llvm::ConstantAggregateZero>(constant) || llvm::isa<llvm::UndefValue>(constant))
    return true; // already zero
  if (auto *integer = llvm::dyn_cast<llvm::ConstantInt>(&constant)) {
    if (integer->getBitWidth() > 64)
      return false;
    uint64_t value = integer->getZExtValue();
    std::memcpy(bytes.data() + offset, &value, size);
    return true;
  }
  if (auto *real = llvm::dyn_cast<llvm::ConstantFP>(&constant)) {
    uint64_t value = real->getValueAPF().bitcastToAPInt().getZExtValue();
    std::memcpy(bytes.data() + offset, &value, size);
    return true;
  }
  if (auto *data = llvm::dyn_cast<llvm::ConstantDataSequential>(&constant)) {
    llvm::StringRef raw = data->getRawDataValues();
    std::memcpy(bytes.data() + offset, raw.data(), raw.size());
    return true;
  }
  if (auto *structType = llvm::dyn_cast<llvm::StructType>(type)) {
    const llvm::StructLayout *structLayout = layout.getStructLayout(structType);
    for (unsigned i = 0; i < constant.getNumOperands(); ++i)
      if (!writeConstant(*llvm::cast<llvm::Constant>(constant.getOperand(i)), layout,
                         offset + structLayout->getElementOffset(i), bytes))
        return false;
    return true;
  }
  if (auto *arrayType = llvm::dyn_cast<llvm::ArrayType>(type)) {
    uint64_t stride = layout.getTypeAllocSize(arrayType->getElementType());
    for (unsigned i = 0; i < constant.getNumOperands(); ++i)
      if (!writeConstant(*llvm::cast<llvm::Constant>(constant.getOperand(i)), layout,
                         offset + i * stride, bytes))
        return false;
    return true;
  }
  return false; // pointers, vectors, constant expressions
}

} // namespace

std::optional<std::vector<uint8_t>> plainInitializerBytes(const llvm::Constant &initializer,
                                                           const llvm::DataLayout &layout,
                                                           uint64_t sizeBytes) {
  std::vector<uint8_t> bytes(sizeBytes, 0);
  if (!writeConstant(initializer, layout, 0, bytes))
    return std::nullopt;
  return bytes;
}

} // namespace simulee::ir
