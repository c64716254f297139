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
// builtin reads are filled in by the lowering).
KernelInfo describeKernel(llvm::Function &function);

// Why nothing of `kernel` can be analysed when its body compiled to nothing
// for the architecture device code is compiled for (kDeviceCodeArch) but
// its source has code under an `#if` on __CUDA_ARCH__ (`#if __CUDA_ARCH__
// >= 800`: on the GPU the simulated device reports, that code runs); else
// nothing.
std::optional<std::string> bodyLeftOutForArch(const llvm::Function &kernel);

// The source-level name of a global variable (debug info), else its symbol.
std::string sourceNameOf(const llvm::GlobalVariable &variable);

} // namespace simulee::ir
