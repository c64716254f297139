// C++ results as plain Python values (dicts, lists, numpy arrays); the
// `simulee` package wraps them into its documented classes.
#pragma once

#include "BarrierLog.h"

#include "detect/Finding.h"
#include "interp/Launch.h"
#include "ir/Program.h"
#include "memmodel/MemoryModel.h"
#include "session/Analysis.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <vector>

namespace simulee::python {

namespace py = pybind11;

// Text from the IR or the file system as a Python str: bytes that are not
// UTF-8 (a kernel named "k\xff") become U+FFFD, as in the JSON report,
// instead of a UnicodeDecodeError.
py::str text(const std::string &bytes);

// "threadIdx.x", ... for every builtin component the kernel reads.
py::list builtinsRead(const ir::KernelInfo &kernel);
// name, symbol, file, line, parameters (name, kind, type, ...), builtins read.
py::dict kernelDict(const ir::KernelInfo &kernel);
// The parameter's type as C would spell it: "const float *", "int", "uint64".
std::string typeName(const ir::ParamInfo &param);

// kind, space, variable, message, detail, example offset, sites (file, line,
// column, thread/block coordinates and linear ids, action), launch.
py::dict findingDict(const ir::Program &program, const detect::Finding &finding);
py::dict launchDict(const detect::LaunchRecord &launch);

// A buffer's bytes as a numpy array of the parameter's pointee type.
py::array bufferArray(const ir::ParamInfo &param, const std::vector<uint8_t> &bytes);

// The tuple log as columns, plus per tuple the variable (an index into
// `variable_names`) and source line/column of the instruction.
py::dict tupleTable(const ir::Program &program, const ir::KernelInfo &kernel,
                    const memmodel::TupleColumns &columns);
py::dict barrierTable(const ir::Program &program, const std::vector<BarrierArrival> &arrivals);
// The search history as columns, one entry per simulated launch.
py::dict historyTable(const std::vector<session::SearchStep> &steps);

} // namespace simulee::python
