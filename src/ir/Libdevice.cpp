#include "ir/Libdevice.h"

#include "ir/Builtins.h"
#include "ir/CudaInstallation.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <vector>

namespace simulee::ir {
namespace {

// libdevice asks __nvvm_reflect("__CUDA_FTZ") and ("__CUDA_ARCH"): no flush
// to zero, and the architecture the .cu files are compiled for.
void resolveReflection(llvm::Module &module) {
  for (const char *name : {"__nvvm_reflect", "llvm.nvvm.reflect"}) {
    llvm::Function *reflect = module.getFunction(name);
    if (!reflect)
      continue;
    for (llvm::User *user : llvm::make_early_inc_range(reflect->users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call)
        continue;
      std::string query;
      llvm::Value *argument = call->getArgOperand(0)->stripPointerCasts();
      if (auto *global = llvm::dyn_cast<llvm::GlobalVariable>(argument))
        if (auto *data = llvm::dyn_cast_or_null<llvm::ConstantDataSequential>(
                global->hasInitializer() ? global->getInitializer() : nullptr))
          query = data->getAsCString().str();
      int answer = query == "__CUDA_ARCH" ? kDeviceCodeArch * 10 : 0;
      call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), answer));
      call->eraseFromParent();
    }
  }
}

} // namespace

Status linkMissingLibdeviceFunctions(llvm::Module &module, const std::string &libdevicePath) {
  std::vector<std::string> missing;
  for (llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_") &&
        !classifyBuiltin(function.getName()))
      missing.push_back(function.getName().str());
  if (missing.empty() || libdevicePath.empty())
    return Ok{};

  auto buffer = llvm::MemoryBuffer::getFile(libdevicePath);
  if (!buffer)
    return makeError(libdevicePath + ": cannot read libdevice: " + buffer.getError().message());
  llvm::Expected<std::unique_ptr<llvm::Module>> libdevice =
      llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!libdevice)
    return makeError(libdevicePath + ": cannot parse libdevice: " +
                     llvm::toString(libdevice.takeError()));
  (*libdevice)->setDataLayout(module.getDataLayout());
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  if (llvm::Linker::linkModules(module, std::move(*libdevice), llvm::Linker::LinkOnlyNeeded))
    return makeError(libdevicePath + ": cannot link libdevice");
  resolveReflection(module);
  // Linked bodies call further __nv_* functions; those the interpreter runs
  // natively stay declarations.
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.getName().starts_with("__nv_") &&
        classifyBuiltin(function.getName()))
      function.deleteBody();
  return Ok{};
}

} // namespace simulee::ir
