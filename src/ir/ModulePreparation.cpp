#include "ir/ModulePreparation.h"

#include "ir/BlockContract.h"
#include "ir/CudaInstallation.h"
#include "ir/GridSync.h"
#include "ir/HeaderInlining.h"
#include "ir/IndirectCalls.h"
#include "ir/InlinePtx.h"
#include "ir/Libdevice.h"
#include "ir/MatrixFragments.h"
#include "ir/SharedWindows.h"
#include "ir/SpacePredicates.h"

namespace simulee::ir {

Status prepareModule(llvm::Module &module) {
  bool callsLibdevice = false;
  for (const llvm::Function &function : module)
    callsLibdevice = callsLibdevice || (function.isDeclaration() && function.getName().starts_with("__nv_"));
  if (callsLibdevice) {
    Result<std::optional<CudaInstallation>> cuda = findCudaInstallation("");
    if (cuda && *cuda) {
      Status linked = linkMissingLibdeviceFunctions(module, libdevicePath(**cuda));
      if (!linked)
        return linked;
    }
  }
  recordBlockContracts(module);
  lowerGridSync(module); // before header inlining rewrites the debug locations it reads
  inlineCudaHeaderFunctions(module);
  lowerSharedWindows(module); // before inline PTX, whose .shared operands are window addresses
  lowerInlinePtx(module);
  lowerMatrixFragments(module);
  lowerSpacePredicates(module);
  resolveIndirectCalls(module);
  return Ok{};
}

} // namespace simulee::ir
