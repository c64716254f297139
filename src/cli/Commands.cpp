#include "cli/Commands.h"

#include "cli/HostSites.h"
#include "cli/Replay.h"
#include "detect/Finding.h"
#include "ir/Loader.h"
#include "report/Report.h"
#include "report/Summary.h"
#include "session/Analysis.h"
#include "session/Repair.h"
#include "session/SiteSearch.h"
#include "support/FileText.h"

#include <atomic>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace simulee::cli {
namespace {

int fail(const std::string &message) {
  std::cerr << "simulee: error: " << message << "\n";
  return kExitError;
}

Result<interp::Dim3> parseDim3(const std::string &text, const char *what) {
  interp::Dim3 d;
  uint32_t *parts[] = {&d.x, &d.y, &d.z};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    size_t comma = text.find(',', start);
    std::string piece =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), value, 10);
    if (piece.empty() || ec != std::errc() || end != piece.data() + piece.size() || value == 0 ||
        value > 0xffffffffu)
      return makeError(std::string("bad ") + what + " '" + text +
                       "': expected X[,Y[,Z]] with positive integers");
    *parts[i] = uint32_t(value);
    if (comma == std::string::npos)
      return d;
    start = comma + 1;
  }
  return makeError(std::string("bad ") + what + " '" + text + "': at most three dimensions");
}

} // namespace

ir::LoadOptions loadOptionsOf(const CommonOptions &common) {
  ir::LoadOptions options;
  options.optLevel = common.optLevel;
  options.cudaPath = common.cudaPath;
  options.linkFiles = common.linkFiles;
  for (const std::string &define : common.defines)
    options.extraClangArgs.push_back("-D" + define);
  for (const std::string &include : common.includes)
    options.extraClangArgs.push_back("-I" + include);
  return options;
}

session::AnalysisOptions analysisOptionsOf(const CommonOptions &common) {
  session::AnalysisOptions options;
  options.independentThreads = !common.lockstep;
  options.strict = common.strict;
  options.budgetInstrs = common.budgetInstrs ? common.budgetInstrs : kDefaultBudgetInstrs;
  if (common.budgetInstrs) { // the user's cap holds for every launch
    options.soloBudgetInstrs = common.budgetInstrs;
    options.soloLaunchInstrs = 0;
  }
  if (common.maxCostInstrs) { // the user's cap holds for every searched launch
    options.searchLaunchBudgetInstrs = common.maxCostInstrs;
    options.judgeOneOverTheCap = false;
  }
  options.launchSeconds = common.launchSeconds;
  options.allBlocks = common.allBlocks;
  options.blockJobs = common.jobs;
  options.engine = interp::engineNamed(common.engine);
  options.representation = common.record == "full"      ? memmodel::Representation::Full
                           : common.record == "summary" ? memmodel::Representation::Summary
                                                        : memmodel::Representation::Auto;
  return options;
}

namespace {

// A kernel's name as --kernel takes it: overloads with their parameters.
std::string titleOf(const ir::Program &program, const ir::KernelInfo &kernel) {
  return kernel.sourceName + program.overloadParameters(kernel);
}

std::string kernelList(const ir::Program &program) {
  std::string known;
  for (const ir::KernelInfo &k : program.kernels)
    known += (known.empty() ? "" : ", ") + titleOf(program, k);
  return known;
}

// The kernels to analyse: the named one, or all of them.
Result<std::vector<const ir::KernelInfo *>> selectKernels(const ir::Program &program,
                                                          const std::string &name,
                                                          bool requireOne) {
  if (!name.empty()) {
    // A name several overloads share means them all, or (where one is
    // asked for) which one must be said.
    std::vector<const ir::KernelInfo *> named;
    for (const ir::KernelInfo &kernel : program.kernels)
      if (kernel.name == name || titleOf(program, kernel) == name)
        return std::vector<const ir::KernelInfo *>{&kernel};
      else if (kernel.sourceName == name)
        named.push_back(&kernel);
    if (named.size() > 1 && requireOne)
      return makeError(program.path + ": " + std::to_string(named.size()) + " kernels named '" +
                       name + "' (" + kernelList(program) +
                       "); choose one with its parameters, --kernel '" +
                       titleOf(program, *named.front()) + "'");
    if (!named.empty())
      return named;
    return makeError(program.path + ": no kernel named '" + name + "' (kernels: " +
                     kernelList(program) + ")");
  }
  if (requireOne && program.kernels.size() > 1)
    return makeError(program.path + ": " + std::to_string(program.kernels.size()) +
                     " kernels (" + kernelList(program) + "); choose one with --kernel");
  std::vector<const ir::KernelInfo *> all;
  for (const ir::KernelInfo &kernel : program.kernels)
    all.push_back(&kernel);
  return all;
}

Result<std::vector<session::ArgumentSpec>> parseSpecs(const std::vector<std::string> &texts) {
  std::vector<session::ArgumentSpec> specs;
  for (const std::string &text : texts) {
    Result<session::ArgumentSpec> spec = session::parseArgumentSpec(text);
    if (!spec)
      return spec.error();
    specs.push_back(*spec);
  }
  return specs;
}

// The search the options ask for (the default mode and scan).
session::SearchSettings searchSettingsOf(const SearchOptions &search, const LaunchOptions &launch) {
  session::SearchSettings settings;
  settings.search.population = search.population;
  settings.search.generations = search.generations;
  settings.search.accept = search.accept;
  settings.search.seed = launch.seed;
  settings.search.jobs = search.jobs;
  settings.maxThreads = search.maxThreads;
  settings.keepBlockContract = !search.explore;
  settings.explore = search.explore;
  return settings;
}

int exitStatusOf(detect::Verdict verdict) {
  switch (verdict) {
  case detect::Verdict::Clean:
  case detect::Verdict::NotLaunched: return kExitClean;
  case detect::Verdict::Findings: return kExitFindings;
  case detect::Verdict::Error: return kExitError;
  case detect::Verdict::Inconclusive: return kExitInconclusive;
  }
  return kExitError;
}

// Writes the report (to --output or standard output) and returns the exit
// status its verdicts call for. A report that could not be written (a full
// disk, a closed pipe) is an error, never a silent success.
int emitReport(const CommonOptions &common, const std::vector<report::KernelFindings> &kernels) {
  report::ReportOptions options;
  report::ReportInput input{kernels};
  std::ofstream file;
  if (!common.output.empty()) {
    file.open(common.output);
    if (!file)
      return fail(common.output + ": cannot write the report");
  }
  std::ostream &out = common.output.empty() ? std::cout : file;
  options.color = common.color < 0 ? (common.output.empty() && isatty(STDOUT_FILENO))
                                   : common.color != 0;
  report::writeReport(out, *report::parseFormat(common.format), input, options);
  out.flush();
  if (!out)
    return fail((common.output.empty() ? std::string("standard output") : common.output) +
                ": cannot write the report");
  return exitStatusOf(report::overallVerdict(input));
}


// The report entry of a kernel (or, without one, a file) that could not be
// analysed.
report::KernelFindings errorOf(const std::string &file, const ir::Program *program,
                               const std::string &kernel, const std::string &cause) {
  report::KernelFindings result;
  result.program = program;
  result.file = file;
  result.kernel = kernel;
  result.verdict = detect::Verdict::Error;
  result.cause = cause;
  return result;
}

// Notes on standard error for a searched kernel whose launches were skipped.
void noteSkippedLaunches(const std::string &kernel, const session::KernelAnalysis &analysis) {
  const detect::LaunchCounts &counts = analysis.counts;
  if (counts.skipped() == 0)
    return;
  std::cerr << "simulee: note: " << counts.skipped() << " of " << counts.simulated()
            << " launches of '" << kernel << "' were not judged ("
            << detect::skippedReasons(counts) << ")";
  if (counts.outOfBounds)
    std::cerr << "; out-of-bounds launches break the kernel's size assumptions: fix "
                 "--block/--grid to examine one";
  if (!analysis.firstLaunchError.empty())
    std::cerr << "; first failure: " << analysis.firstLaunchError;
  std::cerr << "\n";
}

// Progress on stderr while a search or scan runs: in a terminal one line
// redrawn in place; elsewhere (a log, a pipe) a line of its own at most
// every kProgressLogSeconds, so long work is never silent.
class ProgressLine {
public:
  explicit ProgressLine(bool enabled)
      : enabled_(enabled), terminal_(isatty(STDERR_FILENO) != 0),
        lastLogged_(std::chrono::steady_clock::now()) {}
  ~ProgressLine() { clear(); }
  void show(const std::string &text) {
    if (!enabled_)
      return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (terminal_) {
      std::cerr << "\r\033[K" << text << std::flush;
      shown_ = true;
      return;
    }
    auto now = std::chrono::steady_clock::now();
    if (now - lastLogged_ < std::chrono::seconds(kProgressLogSeconds))
      return;
    lastLogged_ = now;
    std::cerr << text << std::endl;
  }
  void clear() {
    if (enabled_ && terminal_ && shown_)
      std::cerr << "\r\033[K" << std::flush;
    shown_ = false;
  }

private:
  static constexpr int kProgressLogSeconds = 10;
  bool enabled_, terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point lastLogged_;
  std::mutex mutex_;
};

} // namespace

int listKernels(const std::string &file, const CommonOptions &common) {
  Result<ir::Program> program = ir::loadProgram(file, loadOptionsOf(common));
  if (!program)
    return fail(program.error().message);
  std::vector<host::CallSite> sites = hostCodeOf(file, common, /*explore=*/false).sites;
  for (const ir::KernelInfo &kernel : program->kernels) {
    std::cout << kernel.sourceName << "(";
    for (size_t i = 0; i < kernel.params.size(); ++i)
      std::cout << (i ? ", " : "") << kernel.params[i].name;
    std::cout << ")";
    if (kernel.name != kernel.sourceName)
      std::cout << "  [" << kernel.name << "]";
    if (kernel.location.known())
      std::cout << "  " << kernel.location.file << ":" << kernel.location.line;
    std::cout << "\n";
    listSites(std::cout, *program, kernel, sites);
  }
  std::cout.flush();
  if (!std::cout)
    return fail("cannot write the kernel list to standard output");
  return kExitClean;
}

namespace {

// A file that could not be loaded: the error line, and for JSON and SARIF
// also a report that carries it.
int failFile(const CommonOptions &common, const std::string &file, const std::string &message) {
  fail(message);
  if (common.format != "text")
    emitReport(common, {errorOf(file, nullptr, "", message)});
  return kExitError;
}

} // namespace

int runOnce(const RunOptions &options, const CommonOptions &common, const LaunchOptions &launch) {
  Result<ir::Program> program = ir::loadProgram(options.file, loadOptionsOf(common));
  if (!program)
    return failFile(common, options.file, program.error().message);

  session::LaunchSpec spec;
  std::string savedKernel;
  if (!options.launchFile.empty()) {
    Result<std::string> text = readRegularFile(options.launchFile);
    if (!text)
      return fail(options.launchFile + ": cannot read the launch file: " + text.error().message);
    Result<session::LaunchSpec> saved = session::launchFromJson(*text, &savedKernel);
    if (!saved)
      return fail(options.launchFile + ": " + saved.error().message);
    spec = *saved;
  }
  std::string kernelName = launch.kernel.empty() ? savedKernel : launch.kernel;
  Result<std::vector<const ir::KernelInfo *>> kernels =
      selectKernels(*program, kernelName, /*requireOne=*/true);
  if (!kernels)
    return fail(kernels.error().message);
  const ir::KernelInfo &kernel = *kernels->front();
  std::string prefix = options.file + ": kernel '" + kernel.sourceName + "': ";

  if (options.launchFile.empty()) {
    spec.config.grid = interp::Dim3{1, 1, 1};
    spec.config.block = interp::Dim3{32, 1, 1};
  }
  if (!launch.grid.empty()) {
    Result<interp::Dim3> grid = parseDim3(launch.grid, "--grid");
    if (!grid)
      return fail(prefix + grid.error().message);
    spec.config.grid = *grid;
  }
  if (!launch.block.empty()) {
    Result<interp::Dim3> block = parseDim3(launch.block, "--block");
    if (!block)
      return fail(prefix + block.error().message);
    spec.config.block = *block;
  }
  if (common.sharedBytes)
    spec.config.dynamicSharedBytes = common.sharedBytes;
  if (options.launchFile.empty() || launch.seed != 1)
    spec.seed = launch.seed;
  Result<std::vector<session::ArgumentSpec>> specs = parseSpecs(launch.args);
  if (!specs)
    return fail(prefix + specs.error().message);
  for (const session::ArgumentSpec &arg : *specs) {
    std::erase_if(spec.args, [&](const session::ArgumentSpec &a) { return a.name == arg.name; });
    spec.args.push_back(arg);
  }

  std::vector<std::pair<size_t, std::string>> dumps;
  for (const std::string &text : options.dumps) {
    Result<session::ArgumentSpec> dump = session::parseArgumentSpec(text);
    if (!dump)
      return fail(prefix + "--dump '" + text + "': expected NAME=PATH");
    Result<size_t> index = session::findParameter(kernel, dump->name);
    if (!index)
      return fail(prefix + index.error().message);
    if (kernel.params[*index].kind != ir::ValueKind::Pointer)
      return fail(prefix + "--dump: parameter '" + dump->name + "' is not a buffer");
    dumps.push_back({*index, dump->value});
  }

  Result<session::KernelAnalysis> analysis =
      session::analyzeLaunch(*program, kernel, spec, analysisOptionsOf(common));
  if (!analysis) {
    const std::string &message = analysis.error().message;
    return fail(message.rfind(options.file, 0) == 0 ? message : prefix + message);
  }
  if (common.repair)
    session::proveRepairs(*program, kernel, *analysis, analysisOptionsOf(common));
  for (const auto &[index, path] : dumps) {
    const std::vector<uint8_t> &bytes = analysis->arguments[index].bytes;
    Status written = writeWholeFile(
        path, std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
    if (!written)
      return fail(prefix + "--dump: cannot write '" + path + "': " + written.error().message);
  }
  return emitReport(common, {session::reportEntry(*program, *analysis)});
}

int searchFile(const std::string &file, const CommonOptions &common, const LaunchOptions &launch,
               const SearchOptions &search) {
  // The host side is read while clang compiles the device side.
  std::future<host::HostCode> hostCode =
      std::async(std::launch::async, [&] { return hostCodeOf(file, common, search.explore); });
  ProgressLine progress(!common.quiet);
  progress.show("simulee: compiling and loading " + file);
  Result<ir::Program> program = ir::loadProgram(file, loadOptionsOf(common));
  progress.clear();
  if (!program)
    return failFile(common, file, program.error().message);
  Result<std::vector<const ir::KernelInfo *>> kernels =
      selectKernels(*program, launch.kernel, /*requireOne=*/false);
  if (!kernels)
    return fail(kernels.error().message);

  session::FixedSettings fixed;
  fixed.dynamicSharedBytes = common.sharedBytes;
  if (!launch.grid.empty()) {
    Result<interp::Dim3> grid = parseDim3(launch.grid, "--grid");
    if (!grid)
      return fail(file + ": " + grid.error().message);
    fixed.grid = *grid;
  }
  if (!launch.block.empty()) {
    Result<interp::Dim3> block = parseDim3(launch.block, "--block");
    if (!block)
      return fail(file + ": " + block.error().message);
    fixed.block = *block;
  }
  Result<std::vector<session::ArgumentSpec>> specs = parseSpecs(launch.args);
  if (!specs)
    return fail(file + ": " + specs.error().message);
  fixed.args = *specs;

  session::SearchSettings settings = searchSettingsOf(search, launch);
  host::HostCode host = hostCode.get();

  std::vector<report::KernelFindings> results;
  std::optional<detect::LaunchRecord> launchToSave;
  std::string kernelToSave;
  for (const ir::KernelInfo *kernel : *kernels) {
    settings.onProgress = [&](const evo::Progress &p) {
      std::ostringstream line;
      line << "simulee: " << kernel->sourceName << ": generation " << p.generation << "/"
           << p.generations << ", " << p.evaluations << " launches, best F=" << std::fixed
           << std::setprecision(3) << p.best.ratio;
      progress.show(line.str());
    };
    Result<session::KernelAnalysis> analysis =
        session::analyzeKernel(*program, *kernel, session::launchSourceOf(*program, *kernel, host),
                               fixed, settings, analysisOptionsOf(common));
    progress.clear();
    if (!analysis) {
      // This kernel cannot be analysed; the others still are.
      fail(analysis.error().message);
      results.push_back(errorOf(file, &*program, kernel->sourceName, analysis.error().message));
      continue;
    }
    if (common.repair)
      session::proveRepairs(*program, *kernel, *analysis, analysisOptionsOf(common));
    if (!common.quiet) {
      noteSearchedSites(kernel->sourceName, *analysis);
      noteSkippedLaunches(kernel->sourceName, *analysis);
    }
    if (!launchToSave) {
      for (const detect::Finding &finding : analysis->findings)
        if (detect::isBug(finding)) {
          launchToSave = finding.launch;
          kernelToSave = kernel->sourceName;
          break;
        }
    }
    if (!launchToSave && analysis->bestLaunch && kernel == kernels->back()) {
      launchToSave = analysis->bestLaunch;
      kernelToSave = kernel->sourceName;
    }
    results.push_back(session::reportEntry(*program, *analysis));
  }
  if (!search.saveLaunch.empty() && launchToSave) {
    Status written =
        writeWholeFile(search.saveLaunch, session::launchToJson(kernelToSave, *launchToSave));
    if (!written)
      return fail(search.saveLaunch + ": cannot write the launch file: " +
                  written.error().message);
  }
  int code = emitReport(common, results);
  if (search.replay)
    return replaySearchFindings(*program, results, common, search.replayDirectory, code);
  return code;
}

namespace {

// The files other files of the scan `#include "..."`: analysed as part of
// their includer, not a second time on their own.
std::set<std::filesystem::path> includedFiles(const std::vector<std::string> &files,
                                              const std::vector<std::string> &includeDirs) {
  std::set<std::filesystem::path> included;
  for (const std::string &file : files) {
    if (std::filesystem::path(file).extension() != ".cu")
      continue;
    std::vector<std::string> closure = host::includeClosure(file, includeDirs);
    included.insert(closure.begin() + std::min<size_t>(closure.size(), 1), closure.end());
  }
  return included;
}

} // namespace

int scanDirectory(const ScanOptions &options, const CommonOptions &common,
                  const LaunchOptions &launch, const SearchOptions &search) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(options.dir, ec))
    return fail(options.dir + ": not a directory");
  std::vector<std::string> found;
  for (auto it = fs::recursive_directory_iterator(
           options.dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec))
      continue;
    std::string ext = it->path().extension().string();
    if (ext == ".cu" || ext == ".ll" || ext == ".bc")
      found.push_back(it->path().string());
  }
  std::sort(found.begin(), found.end());
  if (found.empty())
    return fail(options.dir + ": no .cu, .ll or .bc files");
  std::set<fs::path> included = includedFiles(found, common.includes);
  std::vector<std::string> files;
  for (const std::string &file : found) {
    fs::path canonical = fs::weakly_canonical(file, ec);
    if (!included.count(ec ? fs::path(file) : canonical))
      files.push_back(file);
  }
  if (files.size() < found.size() && !common.quiet)
    std::cerr << "simulee: note: " << found.size() - files.size()
              << " file(s) are #included by other files and analysed with them\n";

  struct FileResult {
    std::optional<ir::Program> program;
    std::vector<report::KernelFindings> kernels;
  };
  std::vector<FileResult> results(files.size());
  std::atomic<size_t> next{0}, done{0};
  ProgressLine progress(!common.quiet);
  session::AnalysisOptions analysisOptions = analysisOptionsOf(common);
  session::SearchSettings settings = searchSettingsOf(search, launch);
  settings.search.jobs = 1; // files run in parallel instead
  analysisOptions.blockJobs = 1;

  auto worker = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      FileResult &result = results[i];
      // A malformed .ll/.bc that crashes LLVM's reader is an error of its
      // own (the loader parses untrusted IR in a child first).
      Result<ir::Program> program = ir::loadProgram(files[i], loadOptionsOf(common));
      if (!program) {
        result.kernels.push_back(errorOf(files[i], nullptr, "", program.error().message));
      } else {
        result.program = std::move(*program);
        CommonOptions quietCommon = common;
        quietCommon.quiet = true; // the table says what matters
        host::HostCode host = hostCodeOf(files[i], quietCommon, search.explore);
        for (const ir::KernelInfo &kernel : result.program->kernels) {
          Result<session::KernelAnalysis> analysis = session::analyzeKernel(
              *result.program, kernel, session::launchSourceOf(*result.program, kernel, host), {},
              settings, analysisOptions);
          if (!analysis)
            result.kernels.push_back(errorOf(files[i], &*result.program, kernel.sourceName,
                                             analysis.error().message));
          else
            result.kernels.push_back(session::reportEntry(*result.program, *analysis));
        }
        if (result.program->kernels.empty())
          result.kernels.push_back(errorOf(files[i], &*result.program, "", "no kernel found"));
      }
      size_t finished = ++done;
      progress.show("simulee: scan [" + std::to_string(finished) + "/" +
                    std::to_string(files.size()) + "] " + files[i]);
    }
  };
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < std::min<size_t>(jobs, files.size()); ++j)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();
  progress.clear();

  // Summary table on stderr, so stdout stays a clean report: every kernel's
  // verdict with its full cause.
  std::vector<report::KernelFindings> all;
  std::map<detect::Verdict, size_t> byVerdict;
  std::map<detect::Provenance, size_t> warningsByProvenance;
  std::cerr << std::left << std::setw(40) << "file" << " " << std::setw(24) << "kernel" << " "
            << std::setw(11) << "launches" << " verdict\n";
  for (size_t i = 0; i < files.size(); ++i)
    for (report::KernelFindings &kernel : results[i].kernels) {
      ++byVerdict[kernel.finalVerdict()];
      for (const detect::Finding &finding : kernel.findings)
        if (detect::isBug(finding))
          ++warningsByProvenance[finding.launch.provenance];
      std::cerr << std::setw(40) << files[i] << " " << std::setw(24)
                << (kernel.kernel.empty() ? "-" : kernel.kernel) << " " << std::setw(11)
                << (kernel.provenance ? detect::provenanceName(*kernel.provenance) : "-") << " "
                << report::verdictText(kernel) << "\n";
      all.push_back(std::move(kernel));
    }
  std::cerr << files.size() << " files, " << all.size() << " kernels: ";
  bool first = true;
  for (auto [verdict, count] : byVerdict) {
    std::cerr << (first ? "" : ", ") << count << " " << detect::verdictName(verdict);
    first = false;
  }
  if (!warningsByProvenance.empty()) {
    std::cerr << "; warnings by launch provenance:";
    for (auto [provenance, count] : warningsByProvenance)
      std::cerr << " " << count << " " << detect::provenanceName(provenance);
  }
  std::cerr << "\n";
  return emitReport(common, all);
}

} // namespace simulee::cli
