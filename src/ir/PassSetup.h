// LLVM's new pass manager with every analysis registered and the managers
// linked: what running a pass pipeline on a module needs.
#pragma once

#include <llvm/Passes/PassBuilder.h>

namespace simulee::ir {

struct PassSetup {
  llvm::PassBuilder builder;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;

  PassSetup() {
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
  }
  PassSetup(const PassSetup &) = delete;
  PassSetup &operator=(const PassSetup &) = delete;
};

} // namespace simulee::ir
