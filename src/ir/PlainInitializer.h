// The bytes of a global's initializer when it is plain data (integers and
// floats in arrays and structs, however large: cuRAND's 100 KB skip-ahead
// tables), laid out as in memory. Nothing when it holds pointers or constant
// expressions; the lowering's general path handles those.
#pragma once

#include <llvm/IR/Constant.h>
#include <llvm/IR/DataLayout.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace simulee::ir {

std::optional<std::vector<uint8_t>> plainInitializerBytes(const llvm::Constant &initializer,
                                                           const llvm::DataLayout &layout,
                                                           uint64_t sizeBytes);

} // namespace simulee::ir
