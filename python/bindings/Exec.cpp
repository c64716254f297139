#include "Exec.h"

#include "Interruptible.h"
#include "UserError.h"

#include "session/ProgramExecution.h"

#include <pybind11/stl.h>

namespace simulee::python {
namespace {

namespace py = pybind11;

// Runs the program with the GIL released; Ctrl-C kills it. The runtime
// reports in JSON, which the package turns into its Finding objects; the
// program's output is captured unless `settings` says otherwise.
py::dict execProgram(session::ExecSettings settings) {
  settings.format = "json";
  settings.progress = false;
  settings.color = false;
  std::atomic<bool> cancel{false};
  settings.cancel = &cancel;
  Result<session::ExecOutcome> outcome =
      runInterruptibly([&] { return session::executeProgram(settings); }, cancel);
  if (!outcome)
    throw UserError(outcome.error().message);
  py::dict result;
  result["report"] = outcome->report;
  result["wait_status"] = outcome->waitStatus;
  result["program_status"] = outcome->programStatus();
  result["killed_by"] = outcome->killedBy();
  result["launches"] = outcome->launches;
  result["unjudged"] = outcome->unjudged;
  result["findings"] = outcome->findings;
  result["runtime_error"] = outcome->runtimeError;
  if (settings.captureOutput) {
    // The program's bytes, decoded leniently: a program may print anything.
    auto text = [](const std::string &bytes) {
      return py::reinterpret_steal<py::object>(
          PyUnicode_DecodeUTF8(bytes.data(), py::ssize_t(bytes.size()), "replace"));
    };
    result["stdout"] = text(outcome->programOutput);
    result["stderr"] = text(outcome->programErrors);
  } else {
    result["stdout"] = py::none();
    result["stderr"] = py::none();
  }
  return result;
}

} // namespace

void bindExec(py::module_ &module) {
  using session::ExecSettings;
  py::class_<ExecSettings>(module, "ExecSettings",
                           "What simulee exec builds and runs, and what its runtime checks.")
      .def(py::init<>())
      .def_readwrite("files", &ExecSettings::files)
      .def_readwrite("program_args", &ExecSettings::programArgs)
      .def_readwrite("defines", &ExecSettings::defines)
      .def_readwrite("include_dirs", &ExecSettings::includes)
      .def_readwrite("libraries", &ExecSettings::libraries)
      .def_readwrite("library_dirs", &ExecSettings::libraryDirs)
      .def_readwrite("std", &ExecSettings::standard)
      .def_readwrite("host_flags", &ExecSettings::hostFlags)
      .def_readwrite("linker_flags", &ExecSettings::linkerFlags)
      .def_readwrite("cuda_path", &ExecSettings::cudaPath)
      .def_readwrite("opt", &ExecSettings::optLevel)
      .def_readwrite("runtime_dir", &ExecSettings::runtimeDir)
      .def_readwrite("strict", &ExecSettings::strict)
      .def_readwrite("lockstep", &ExecSettings::lockstep)
      .def_readwrite("all_blocks", &ExecSettings::allBlocks)
      .def_readwrite("engine", &ExecSettings::engine)
      .def_readwrite("record", &ExecSettings::record)
      .def_readwrite("budget", &ExecSettings::budgetInstrs)
      .def_readwrite("search", &ExecSettings::searchGenerations)
      .def_readwrite("checked_launches", &ExecSettings::checkedLaunches)
      .def_readwrite("sm", &ExecSettings::computeCapability)
      .def_readwrite("capture_output", &ExecSettings::captureOutput);
  module.def("exec_program", &execProgram, py::arg("settings"),
             "Builds and runs a whole CUDA program against simulee's runtime (simulee exec); "
             "its report as JSON, the program's status and output.");
}

} // namespace simulee::python
