// libdevice (__nv_*) functions the interpreter does not implement natively
// get their bodies from the CUDA installation's libdevice.10.bc.
#pragma once

#include "support/Result.h"

#include <llvm/IR/Module.h>

#include <string>

namespace simulee::ir {

// Links the body of every declared __nv_* function that classifyBuiltin does
// not know, from `libdevicePath` (nothing to do when it is empty or no such
// function is called).
Status linkMissingLibdeviceFunctions(llvm::Module &module, const std::string &libdevicePath);

} // namespace simulee::ir
