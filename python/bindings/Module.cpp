// simulee._core: the pybind11 module under the `simulee` package. It exposes
// loading, one launch, the search of one kernel and whole programs (Exec.h),
// built on session/ and the part headers exactly as the CLI is, and what the
// package reports about itself (its CUDA installation, the finding kinds);
// the package (simulee/__init__.py) turns the plain values returned here into
// its documented classes. Simulation runs with the GIL released and stops on
// Ctrl-C.
#include "BarrierLog.h"
#include "Conversions.h"
#include "Exec.h"
#include "Interruptible.h"
#include "UserError.h"
#include "Verdict.h"

#include "interp/Interpreter.h"
#include "ir/CudaInstallation.h"
#include "ir/Loader.h"
#include "report/FindingRules.h"
#include "report/Report.h"
#include "report/Summary.h"
#include "session/Analysis.h"
#include "session/Repair.h"
#include "session/ProgramExecution.h"
#include "session/SiteSearch.h"

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

namespace simulee::python {
namespace {

using ProgramPtr = std::shared_ptr<const ir::Program>;

struct ProgramHandle {
  ProgramPtr program;
  // The file's host code (call sites, kernels it never launches); empty for
  // IR and for files without host code.
  std::shared_ptr<const host::HostCode> hostCode = std::make_shared<host::HostCode>();
};

std::string kernelList(const ir::Program &program) {
  std::string known;
  for (const ir::KernelInfo &k : program.kernels)
    known += (known.empty() ? "" : ", ") + k.sourceName;
  return known;
}

// The kernels a call is about: the named one, or all (or the only one).
std::vector<const ir::KernelInfo *>
selectKernels(const ir::Program &program, const std::optional<std::string> &name, bool requireOne) {
  if (name) {
    if (const ir::KernelInfo *kernel = program.findKernel(*name))
      return {kernel};
    // A name Python got back with U+FFFD for bytes that are not UTF-8.
    for (const ir::KernelInfo &kernel : program.kernels)
      for (const std::string *known : {&kernel.name, &kernel.sourceName})
        if (text(*known).cast<std::string>() == *name)
          return {&kernel};
    throw UserError(program.path + ": no kernel named '" + *name +
                    "' (kernels: " + kernelList(program) + ")");
  }
  if (program.kernels.empty())
    throw UserError(program.path + ": no kernel");
  if (requireOne && program.kernels.size() > 1)
    throw UserError(program.path + ": " + std::to_string(program.kernels.size()) + " kernels (" +
                    kernelList(program) + "); choose one with kernel=NAME");
  std::vector<const ir::KernelInfo *> all;
  for (const ir::KernelInfo &kernel : program.kernels)
    all.push_back(&kernel);
  return all;
}

interp::Dim3 toDim3(const std::array<uint32_t, 3> &d) { return interp::Dim3{d[0], d[1], d[2]}; }

// (name, words, raw bytes or None) from the package: words as on the
// command line, bytes for numpy arrays.
using ArgumentTuple = std::tuple<std::string, std::string, std::optional<py::bytes>>;

std::vector<session::ArgumentSpec> argumentSpecs(const std::vector<ArgumentTuple> &args) {
  std::vector<session::ArgumentSpec> specs;
  for (const auto &[name, value, bytes] : args) {
    session::ArgumentSpec spec{name, value};
    if (bytes) {
      std::string_view view = *bytes;
      spec.bytes.emplace(view.begin(), view.end());
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

session::AnalysisOptions analysisOptions(bool independentThreads, const std::string &record,
                                         uint64_t budgetInstrs) {
  session::AnalysisOptions options;
  options.independentThreads = independentThreads;
  if (budgetInstrs) // 0: the defaults (session::AnalysisOptions); else the cap of every launch
    options.budgetInstrs = options.soloBudgetInstrs = budgetInstrs;
  if (record == "full")
    options.representation = memmodel::Representation::Full;
  else if (record == "summary")
    options.representation = memmodel::Representation::Summary;
  else if (record == "auto")
    options.representation = memmodel::Representation::Auto;
  else
    throw UserError("bad record '" + record + "': expected 'full', 'summary' or 'auto'");
  return options;
}

// One kernel's analysis as a report in the CLI's formats.
std::string reportText(const ir::Program &program, const session::KernelAnalysis &analysis,
                       const std::string &format) {
  std::optional<report::Format> parsed = report::parseFormat(format);
  if (!parsed)
    throw UserError("bad format '" + format + "': expected 'text', 'json' or 'sarif'");
  std::ostringstream out;
  report::writeReport(out, *parsed, report::ReportInput{{session::reportEntry(program, analysis)}});
  return out.str();
}

[[noreturn]] void throwIfFailed(const Error &error) { throw UserError(error.message); }

// ---- simulee.load ----------------------------------------------------------

ProgramHandle load(const std::string &path, const std::vector<std::string> &defines,
                   const std::vector<std::string> &includeDirs, int optLevel) {
  if (optLevel < 0 || optLevel > 3)
    throw UserError(path + ": bad opt " + std::to_string(optLevel) + ": expected 0 to 3");
  ir::LoadOptions options;
  options.optLevel = optLevel;
  for (const std::string &define : defines)
    options.extraClangArgs.push_back("-D" + define);
  for (const std::string &include : includeDirs)
    options.extraClangArgs.push_back("-I" + include);
  std::atomic<bool> cancel{false};
  Result<ir::Program> program =
      runInterruptibly([&] { return ir::loadProgram(path, options); }, cancel);
  if (!program)
    throw UserError(program.error().message);
  ProgramHandle handle{std::make_shared<const ir::Program>(std::move(*program))};
  // Host code that cannot be read leaves the kernels to the free search.
  if (Result<host::HostCode> host = session::readHostCode(path, options); host)
    handle.hostCode = std::make_shared<const host::HostCode>(std::move(*host));
  return handle;
}

// ---- simulee.run -----------------------------------------------------------

struct LaunchResult {
  ProgramPtr program;
  const ir::KernelInfo *kernel = nullptr;
  session::KernelAnalysis analysis;
  bool hasTuples = false; // recorded as the full log
  memmodel::TupleColumns tuples;
  std::vector<BarrierArrival> barriers;
};

std::shared_ptr<LaunchResult> run(const ProgramHandle &handle,
                                  const std::optional<std::string> &kernelName,
                                  std::array<uint32_t, 3> grid, std::array<uint32_t, 3> block,
                                  const std::vector<ArgumentTuple> &args, uint32_t sharedBytes,
                                  bool independentThreads, const std::string &record, uint64_t seed,
                                  uint64_t budgetInstrs, bool repair, unsigned jobs,
                                  const std::string &engine) {
  const ir::Program &program = *handle.program;
  const ir::KernelInfo &kernel = *selectKernels(program, kernelName, /*requireOne=*/true).front();
  auto result = std::make_shared<LaunchResult>();
  result->program = handle.program;
  result->kernel = &kernel;

  session::LaunchSpec spec;
  spec.config.grid = toDim3(grid);
  spec.config.block = toDim3(block);
  spec.config.dynamicSharedBytes = sharedBytes;
  spec.args = argumentSpecs(args);
  spec.seed = seed;
  session::AnalysisOptions options = analysisOptions(independentThreads, record, budgetInstrs);
  options.blockJobs = jobs;
  options.engine = interp::engineNamed(engine);
  BarrierLog barrierLog;
  options.observer = &barrierLog;
  options.allBlocks = true; // the tuple log shows every access
  options.onModel = [&](const memmodel::MemoryModel &model) {
    result->hasTuples = model.representation() == memmodel::Representation::Full;
    if (result->hasTuples)
      result->tuples = model.tupleColumns();
  };
  std::atomic<bool> cancel{false};
  options.cancel = &cancel;
  Result<session::KernelAnalysis> analysis = runInterruptibly(
      [&] { return session::analyzeLaunch(program, kernel, spec, options); }, cancel);
  if (!analysis) {
    const std::string &message = analysis.error().message;
    std::string prefix = program.path + ": kernel '" + kernel.sourceName + "': ";
    throwIfFailed(message.rfind(program.path, 0) == 0 ? analysis.error()
                                                      : makeError(prefix + message));
  }
  if (repair) {
    // The re-simulations are the repairs' own: no observer, no tuples.
    session::AnalysisOptions rerun = analysisOptions(independentThreads, record, budgetInstrs);
    session::proveRepairs(program, kernel, *analysis, rerun);
  }
  result->analysis = std::move(*analysis);
  result->barriers = barrierLog.arrivals();
  return result;
}

py::list findingList(const ir::Program &program, const std::vector<detect::Finding> &findings) {
  py::list list;
  for (const detect::Finding &finding : findings)
    list.append(findingDict(program, finding));
  return list;
}

py::dict outputsOf(const LaunchResult &result) {
  py::dict outputs;
  const std::vector<interp::ArgumentValue> &values = result.analysis.arguments;
  for (size_t i = 0; i < result.kernel->params.size() && i < values.size(); ++i) {
    const ir::ParamInfo &param = result.kernel->params[i];
    if (param.kind == ir::ValueKind::Pointer &&
        values[i].kind == interp::ArgumentValue::Kind::Buffer)
      outputs[text(param.name)] = bufferArray(param, values[i].bytes);
  }
  return outputs;
}

// ---- simulee.analyze (one kernel) ------------------------------------------

struct AnalysisResult {
  ProgramPtr program;
  const ir::KernelInfo *kernel = nullptr;
  session::KernelAnalysis analysis;
  std::vector<session::SearchStep> history;
};

struct SearchRequest {
  std::optional<std::array<uint32_t, 3>> grid, block;
  std::vector<ArgumentTuple> args;
  uint32_t sharedBytes = 0;
  bool independentThreads = false;
  std::string record = "auto";
  uint32_t population = 10, generations = 10;
  double accept = 0.3;
  uint64_t seed = 1;
  unsigned jobs = 0;
  uint64_t maxThreads = uint64_t(1) << 12;
  uint64_t budgetInstrs = uint64_t(1) << 20;
  bool explore = false; // ignore the host code's launches and the implied block
  bool repair = false;  // prove repair proposals by re-simulation (--repair)
};

std::shared_ptr<AnalysisResult> analyzeKernel(const ProgramHandle &handle,
                                              const std::string &kernelName,
                                              const SearchRequest &request,
                                              const std::function<void(py::dict)> &progress) {
  const ir::Program &program = *handle.program;
  const ir::KernelInfo &kernel = *selectKernels(program, kernelName, true).front();
  auto result = std::make_shared<AnalysisResult>();
  result->program = handle.program;
  result->kernel = &kernel;

  session::FixedSettings fixed;
  if (request.grid)
    fixed.grid = toDim3(*request.grid);
  if (request.block)
    fixed.block = toDim3(*request.block);
  fixed.args = argumentSpecs(request.args);
  fixed.dynamicSharedBytes = request.sharedBytes;
  session::SearchSettings settings;
  settings.search.population = request.population;
  settings.search.generations = request.generations;
  settings.search.accept = request.accept;
  settings.search.seed = request.seed;
  settings.search.jobs = request.jobs;
  settings.maxThreads = request.maxThreads;
  settings.keepBlockContract = !request.explore;
  settings.explore = request.explore;
  settings.history = &result->history;
  session::LaunchSource source =
      request.explore ? session::LaunchSource{}
                      : session::launchSourceOf(program, kernel, *handle.hostCode);

  // The search reports each generation on its thread; the Python callback
  // sees the latest one on the calling thread, with the GIL.
  std::mutex progressMutex;
  std::optional<evo::Progress> latest;
  bool fresh = false;
  if (progress)
    settings.onProgress = [&](const evo::Progress &p) {
      std::lock_guard<std::mutex> lock(progressMutex);
      latest = p;
      fresh = true;
    };
  auto report = [&] {
    std::optional<evo::Progress> p;
    {
      std::lock_guard<std::mutex> lock(progressMutex);
      if (!fresh)
        return;
      fresh = false;
      p = latest;
    }
    py::dict d;
    d["kernel"] = text(kernel.sourceName);
    d["generation"] = p->generation;
    d["generations"] = p->generations;
    d["evaluations"] = p->evaluations;
    d["best_F"] = p->best.valid ? py::object(py::float_(p->best.ratio)) : py::none();
    progress(d);
  };

  session::AnalysisOptions options =
      analysisOptions(request.independentThreads, request.record, request.budgetInstrs);
  options.blockJobs = request.jobs;
  std::atomic<bool> cancel{false};
  options.cancel = &cancel;
  Result<session::KernelAnalysis> analysis = runInterruptibly(
      [&] { return session::analyzeKernel(program, kernel, source, fixed, settings, options); },
      cancel,
      report);
  if (!analysis)
    throwIfFailed(analysis.error());
  if (progress)
    report(); // the last generation
  if (request.repair)
    session::proveRepairs(program, kernel, *analysis, options);
  result->analysis = std::move(*analysis);
  return result;
}

// ---- simulee.cuda_path, simulee.FINDING_KINDS ------------------------------

// The CUDA installation .cu files compile against (ir/CudaInstallation.h),
// or None: simulee's stand-in header alone.
py::object cudaPath() {
  Result<std::optional<ir::CudaInstallation>> installation = ir::findCudaInstallation("");
  if (!installation)
    throw UserError(installation.error().message);
  return *installation ? py::object(py::str((*installation)->root)) : py::none();
}

// Every kind a finding can have, in the order of the reports' summaries:
// the detectors' (report/FindingRules.h), then exec's host API errors.
py::tuple findingKinds() {
  py::list kinds;
  for (const report::FindingRule &rule : report::findingRules())
    kinds.append(report::ruleId(rule.kind));
  kinds.append(session::kHostApiErrorKind);
  return py::tuple(kinds);
}

} // namespace
} // namespace simulee::python

using namespace simulee;
using namespace simulee::python;

PYBIND11_MODULE(_core, m) {
  m.doc() = "simulee's C++ core; use the `simulee` package, which wraps it.";
  // simulee.Error, its message decoded as text() does (a file or kernel
  // name that is not UTF-8 must not turn the error into a UnicodeDecodeError).
  static py::exception<UserError> error(m, "Error");
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised)
        std::rethrow_exception(raised);
    } catch (const UserError &e) {
      PyErr_SetObject(error.ptr(), text(e.what()).ptr());
    }
  });
  m.attr("FINDING_KINDS") = findingKinds();
  m.attr("BUILD_RUNTIME_DIR") = SIMULEE_RUNTIME_BUILD_DIR;
  m.def("cuda_path", &cudaPath,
        "The CUDA installation .cu files compile against, or None (the stand-in header).");
  bindExec(m);

  py::class_<ProgramHandle>(m, "ProgramHandle", "A loaded, lowered kernel file.")
      .def_property_readonly("path", [](const ProgramHandle &h) { return h.program->path; })
      .def("kernels",
           [](const ProgramHandle &h) {
             py::list list;
             for (const ir::KernelInfo &kernel : h.program->kernels)
               list.append(kernelDict(kernel));
             return list;
           })
      .def("instruction_text",
           [](const ProgramHandle &h, uint32_t id) { return h.program->instructionText(id); });

  m.def("load", &load, py::arg("path"), py::arg("defines"), py::arg("include_dirs"), py::arg("opt"),
        "Loads a .cu, .ll or .bc file.");

  py::class_<LaunchResult, std::shared_ptr<LaunchResult>>(m, "LaunchResult")
      .def_property_readonly("kernel", [](const LaunchResult &r) { return text(r.kernel->sourceName); })
      .def_property_readonly("thread_instructions",
                             [](const LaunchResult &r) { return r.analysis.threadInstrs; })
      .def_property_readonly("has_tuples", [](const LaunchResult &r) { return r.hasTuples; })
      .def_property_readonly("verdict",
                             [](const LaunchResult &r) { return verdictOf(r.analysis); })
      .def_property_readonly("cause",
                             [](const LaunchResult &r) { return r.analysis.firstLaunchError; })
      .def("findings",
           [](const LaunchResult &r) { return findingList(*r.program, r.analysis.findings); })
      .def("launch", [](const LaunchResult &r) { return launchDict(*r.analysis.bestLaunch); })
      .def("outputs", [](const LaunchResult &r) { return outputsOf(r); })
      .def("accesses",
           [](const LaunchResult &r) { return tupleTable(*r.program, *r.kernel, r.tuples); })
      .def("barriers", [](const LaunchResult &r) { return barrierTable(*r.program, r.barriers); })
      .def("report", [](const LaunchResult &r, const std::string &format) {
        return reportText(*r.program, r.analysis, format);
      });

  m.def("run", &run, py::arg("program"), py::arg("kernel"), py::arg("grid"), py::arg("block"),
        py::arg("args"), py::arg("shared_bytes"), py::arg("independent_threads"), py::arg("record"),
        py::arg("seed"), py::arg("budget"), py::arg("repair") = false, py::arg("jobs") = 1,
        py::arg("engine") = "auto", "Runs one launch and judges it (simulee run).");

  py::class_<SearchRequest>(m, "SearchRequest")
      .def(py::init<>())
      .def_readwrite("grid", &SearchRequest::grid)
      .def_readwrite("block", &SearchRequest::block)
      .def_readwrite("args", &SearchRequest::args)
      .def_readwrite("shared_bytes", &SearchRequest::sharedBytes)
      .def_readwrite("independent_threads", &SearchRequest::independentThreads)
      .def_readwrite("record", &SearchRequest::record)
      .def_readwrite("population", &SearchRequest::population)
      .def_readwrite("generations", &SearchRequest::generations)
      .def_readwrite("accept", &SearchRequest::accept)
      .def_readwrite("seed", &SearchRequest::seed)
      .def_readwrite("jobs", &SearchRequest::jobs)
      .def_readwrite("max_threads", &SearchRequest::maxThreads)
      .def_readwrite("budget", &SearchRequest::budgetInstrs)
      .def_readwrite("explore", &SearchRequest::explore)
      .def_readwrite("repair", &SearchRequest::repair);

  py::class_<AnalysisResult, std::shared_ptr<AnalysisResult>>(m, "AnalysisResult")
      .def_property_readonly("kernel", [](const AnalysisResult &r) { return text(r.kernel->sourceName); })
      .def_property_readonly("verdict",
                             [](const AnalysisResult &r) { return verdictOf(r.analysis); })
      .def_property_readonly("verdict_text",
                             [](const AnalysisResult &r) {
                               return report::verdictText(
                                   session::reportEntry(*r.program, r.analysis));
                             })
      .def_property_readonly("launches",
                             [](const AnalysisResult &r) { return r.analysis.counts.simulated(); })
      .def_property_readonly("judged_launches",
                             [](const AnalysisResult &r) { return judgedLaunches(r.analysis); })
      .def_property_readonly("failed_launches",
                             [](const AnalysisResult &r) { return r.analysis.counts.failed; })
      .def_property_readonly(
          "non_terminating_launches",
          [](const AnalysisResult &r) { return r.analysis.counts.nonTerminating; })
      // Less those judged for the blocks they ran (LaunchCounts::cutShort).
      .def_property_readonly("too_costly_launches",
                             [](const AnalysisResult &r) {
                               return r.analysis.counts.tooCostly - r.analysis.counts.cutShort;
                             })
      .def_property_readonly("out_of_bounds_launches",
                             [](const AnalysisResult &r) { return r.analysis.counts.outOfBounds; })
      .def_property_readonly("first_launch_error",
                             [](const AnalysisResult &r) { return r.analysis.firstLaunchError; })
      .def_property_readonly("thread_instructions",
                             [](const AnalysisResult &r) { return r.analysis.threadInstrs; })
      .def_property_readonly("best_F", [](const AnalysisResult &r) { return r.analysis.bestRatio; })
      .def("best_launch",
           [](const AnalysisResult &r) -> py::object {
             if (!r.analysis.bestLaunch)
               return py::none();
             return launchDict(*r.analysis.bestLaunch);
           })
      .def("findings",
           [](const AnalysisResult &r) { return findingList(*r.program, r.analysis.findings); })
      .def("history", [](const AnalysisResult &r) { return historyTable(r.history); })
      .def("report", [](const AnalysisResult &r, const std::string &format) {
        return reportText(*r.program, r.analysis, format);
      });

  m.def("analyze_kernel", &analyzeKernel, py::arg("program"), py::arg("kernel"), py::arg("request"),
        py::arg("progress") = nullptr,
        "Searches launches of one kernel and judges every one (simulee FILE --kernel K).");
}
