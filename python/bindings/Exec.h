// simulee.exec's core: a whole CUDA program built and run against simulee's
// CUDA runtime (session/ProgramExecution.h), as `simulee exec` does.
#pragma once

#include <pybind11/pybind11.h>

namespace simulee::python {

// Adds ExecSettings and exec_program to the module.
void bindExec(pybind11::module_ &module);

} // namespace simulee::python
