// Lowering LLVM IR into the interpreter's compact form (ir/Program.h): slots
// for every value, scalarised vectors and aggregates, phi nodes as moves on
// edges, reconvergence points from the post-dominator tree.
#pragma once

#include "ir/Program.h"
#include "support/Result.h"

namespace simulee::ir {

// Fills program.functions, kernels, variables, instructions and constants from
// program.module. Constructs the interpreter cannot run do not fail the whole
// program: they are recorded per function and reported for the kernels that
// reach them (KernelInfo::unsupported). Fails only when the module has no kernel.
Status lowerProgram(Program &program);

} // namespace simulee::ir
