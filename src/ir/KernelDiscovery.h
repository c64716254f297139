// Which functions of a module are kernels, and what their parameters are
// called and point to (from debug info, else from how the IR uses them).
#pragma once

#include "ir/Program.h"

#include <cstdint>
#include <vector>

namespace llvm {
class Function;
class Module;
class GlobalVariable;
} // namespace llvm

namespace simulee::ir {

// Kernels by calling convention (PTX, AMDGPU, SPIR) or nvvm.annotations; for
// legacy IR with neither, every defined external function no one calls.
std::vector<llvm::Function *> findKernelFunctions(llvm::Module &module);

// The most bytes of parameters a CUDA launch passes (CUDA 12.1 and later on
// Volta and newer; 4096 before).
constexpr uint64_t kMaxKernelParameterBytes = 32764;

// Names, parameters and location of a kernel (function index, barriers and
// builtin reads are filled in by the lowering). A kernel whose body compiles
// to nothing for sm_80 while its source body holds an `#if` on __CUDA_ARCH__
// is unsupported: a newer GPU would run what it left out.
KernelInfo describeKernel(llvm::Function &function);

// The source-level name of a global variable (debug info), else its symbol.
std::string sourceNameOf(const llvm::GlobalVariable &variable);

} // namespace simulee::ir
