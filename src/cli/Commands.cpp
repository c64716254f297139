#include "cli/Commands.h"

#include "cli/LoadProbe.h"

#include "detect/Finding.h"
#include "ir/Loader.h"
#include "report/Report.h"
#include "session/Analysis.h"

#include <atomic>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
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

ir::LoadOptions loadOptionsOf(const CommonOptions &common) {
  ir::LoadOptions options;
  options.optLevel = common.optLevel;
  for (const std::string &define : common.defines)
    options.extraClangArgs.push_back("-D" + define);
  for (const std::string &include : common.includes)
    options.extraClangArgs.push_back("-I" + include);
  return options;
}

session::AnalysisOptions analysisOptionsOf(const CommonOptions &common) {
  session::AnalysisOptions options;
  options.independentThreads = common.independentThreads;
  options.budgetInstrs = common.budgetInstrs;
  options.representation = common.record == "full"      ? memmodel::Representation::Full
                           : common.record == "summary" ? memmodel::Representation::Summary
                                                        : memmodel::Representation::Auto;
  return options;
}

std::string kernelList(const ir::Program &program) {
  std::string known;
  for (const ir::KernelInfo &k : program.kernels)
    known += (known.empty() ? "" : ", ") + k.sourceName;
  return known;
}

// The kernels to analyse: the named one, or all of them.
Result<std::vector<const ir::KernelInfo *>> selectKernels(const ir::Program &program,
                                                          const std::string &name,
                                                          bool requireOne) {
  if (!name.empty()) {
    if (const ir::KernelInfo *kernel = program.findKernel(name))
      return std::vector<const ir::KernelInfo *>{kernel};
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

bool hasBugs(const std::vector<report::KernelFindings> &kernels) {
  for (const report::KernelFindings &kernel : kernels)
    for (const detect::Finding &finding : kernel.findings)
      if (detect::isBug(finding.kind))
        return true;
  return false;
}

// A report that could not be written (a full disk, a closed pipe) is an
// error, never a silent success.
int emitReport(const CommonOptions &common, const std::vector<report::KernelFindings> &kernels,
               std::ostream &out = std::cout, const std::string &outName = "standard output") {
  report::ReportOptions options;
  options.color = common.color < 0 ? (&out == &std::cout && isatty(STDOUT_FILENO)) : common.color;
  report::ReportInput input{kernels};
  report::writeReport(out, *report::parseFormat(common.format), input, options);
  out.flush();
  if (!out)
    return fail("cannot write the report to " + outName);
  return hasBugs(kernels) ? kExitFindings : kExitClean;
}

// One line on stderr, redrawn in place, while a search runs in a terminal.
class ProgressLine {
public:
  explicit ProgressLine(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}
  ~ProgressLine() { clear(); }
  void show(const std::string &text) {
    if (!enabled_)
      return;
    std::lock_guard<std::mutex> lock(mutex_);
    std::cerr << "\r\033[K" << text << std::flush;
    shown_ = true;
  }
  void clear() {
    if (enabled_ && shown_)
      std::cerr << "\r\033[K" << std::flush;
    shown_ = false;
  }

private:
  bool enabled_;
  bool shown_ = false;
  std::mutex mutex_;
};

} // namespace

int listKernels(const std::string &file, const CommonOptions &common) {
  Result<ir::Program> program = ir::loadProgram(file, loadOptionsOf(common));
  if (!program)
    return fail(program.error().message);
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
  }
  std::cout.flush();
  if (!std::cout)
    return fail("cannot write the kernel list to standard output");
  return kExitClean;
}

int runOnce(const RunOptions &options) {
  Result<ir::Program> program = ir::loadProgram(options.file, loadOptionsOf(options.common));
  if (!program)
    return fail(program.error().message);

  session::LaunchSpec spec;
  std::string savedKernel;
  if (!options.launchFile.empty()) {
    std::ifstream in(options.launchFile);
    if (!in)
      return fail(options.launchFile + ": cannot read the launch file");
    std::stringstream text;
    text << in.rdbuf();
    Result<session::LaunchSpec> saved = session::launchFromJson(text.str(), &savedKernel);
    if (!saved)
      return fail(options.launchFile + ": " + saved.error().message);
    spec = *saved;
  }
  std::string kernelName = options.launch.kernel.empty() ? savedKernel : options.launch.kernel;
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
  if (!options.launch.grid.empty()) {
    Result<interp::Dim3> grid = parseDim3(options.launch.grid, "--grid");
    if (!grid)
      return fail(prefix + grid.error().message);
    spec.config.grid = *grid;
  }
  if (!options.launch.block.empty()) {
    Result<interp::Dim3> block = parseDim3(options.launch.block, "--block");
    if (!block)
      return fail(prefix + block.error().message);
    spec.config.block = *block;
  }
  if (options.common.sharedBytes)
    spec.config.dynamicSharedBytes = options.common.sharedBytes;
  if (options.launchFile.empty() || options.launch.seed != 1)
    spec.seed = options.launch.seed;
  Result<std::vector<session::ArgumentSpec>> specs = parseSpecs(options.launch.args);
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
      session::analyzeLaunch(*program, kernel, spec, analysisOptionsOf(options.common));
  if (!analysis) {
    const std::string &message = analysis.error().message;
    return fail(message.rfind(options.file, 0) == 0 ? message : prefix + message);
  }
  for (const auto &[index, path] : dumps) {
    const std::vector<uint8_t> &bytes = analysis->arguments[index].bytes;
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
    if (!out)
      return fail(prefix + "cannot write '" + path + "'");
  }
  return emitReport(options.common, {{&*program, kernel.sourceName, analysis->findings}});
}

int searchFile(const std::string &file, const CommonOptions &common, const LaunchOptions &launch,
               const SearchOptions &search) {
  Result<ir::Program> program = ir::loadProgram(file, loadOptionsOf(common));
  if (!program)
    return fail(program.error().message);
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

  session::SearchSettings settings;
  settings.search.population = search.population;
  settings.search.generations = search.generations;
  settings.search.accept = search.accept;
  settings.search.seed = launch.seed;
  settings.search.jobs = search.jobs;
  settings.maxThreads = search.maxThreads;
  ProgressLine progress(!search.quiet);

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
        session::searchKernel(*program, *kernel, fixed, settings, analysisOptionsOf(common));
    progress.clear();
    if (!analysis)
      return fail(analysis.error().message);
    if (analysis->failedLaunches && !search.quiet)
      std::cerr << "simulee: warning: " << analysis->failedLaunches << " of "
                << analysis->launches << " launches of '" << kernel->sourceName
                << "' failed; first: " << analysis->firstLaunchError << "\n";
    if (analysis->outOfBoundsLaunches && !search.quiet)
      std::cerr << "simulee: note: " << analysis->outOfBoundsLaunches << " of "
                << analysis->launches << " searched launches of '" << kernel->sourceName
                << "' went out of bounds and were not judged (the kernel assumes smaller "
                   "launches); fix --block/--grid to examine one\n";
    if (analysis->tooCostlyLaunches && !search.quiet)
      std::cerr << "simulee: note: " << analysis->tooCostlyLaunches << " of "
                << analysis->launches << " searched launches of '" << kernel->sourceName
                << "' were too costly to simulate and were skipped\n";
    if (!launchToSave) {
      for (const detect::Finding &finding : analysis->findings)
        if (detect::isBug(finding.kind)) {
          launchToSave = finding.launch;
          kernelToSave = kernel->sourceName;
          break;
        }
    }
    if (!launchToSave && analysis->bestLaunch && kernel == kernels->back()) {
      launchToSave = analysis->bestLaunch;
      kernelToSave = kernel->sourceName;
    }
    results.push_back({&*program, kernel->sourceName, std::move(analysis->findings)});
  }
  if (!search.saveLaunch.empty() && launchToSave) {
    std::ofstream out(search.saveLaunch);
    out << session::launchToJson(kernelToSave, *launchToSave);
    if (!out)
      return fail(search.saveLaunch + ": cannot write the launch file");
  }
  return emitReport(common, results);
}

int scanDirectory(const ScanOptions &options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(options.dir, ec))
    return fail(options.dir + ": not a directory");
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(
           options.dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec))
      continue;
    std::string ext = it->path().extension().string();
    if (ext == ".cu" || ext == ".ll" || ext == ".bc")
      files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  if (files.empty())
    return fail(options.dir + ": no .cu, .ll or .bc files");

  struct FileResult {
    std::optional<ir::Program> program;
    std::vector<report::KernelFindings> kernels;
    std::string error;
  };
  std::vector<FileResult> results(files.size());
  std::atomic<size_t> next{0}, done{0};
  ProgressLine progress(!options.quiet);
  session::AnalysisOptions analysisOptions = analysisOptionsOf(options.common);
  session::SearchSettings settings;
  settings.search.seed = options.seed;
  settings.search.jobs = 1;
  settings.maxThreads = options.maxThreads;

  std::error_code selfError;
  std::string self = fs::read_symlink("/proc/self/exe", selfError).string();
  auto worker = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      FileResult &result = results[i];
      // clang writes valid IR; a hand-made .ll/.bc is loaded in a child first.
      bool isIR = !files[i].ends_with(".cu");
      std::optional<std::string> failed = isIR ? probeLoad(self, files[i]) : std::nullopt;
      Result<ir::Program> program =
          failed ? Result<ir::Program>(makeError(*failed))
                 : ir::loadProgram(files[i], loadOptionsOf(options.common));
      if (!program) {
        result.error = program.error().message;
      } else {
        result.program = std::move(*program);
        for (const ir::KernelInfo &kernel : result.program->kernels) {
          Result<session::KernelAnalysis> analysis = session::searchKernel(
              *result.program, kernel, {}, settings, analysisOptions);
          if (!analysis) {
            result.error += (result.error.empty() ? "" : "; ") + analysis.error().message;
            continue;
          }
          result.kernels.push_back({&*result.program, kernel.sourceName, analysis->findings});
        }
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

  std::vector<report::KernelFindings> all;
  size_t errors = 0;
  // Summary table on stderr, so stdout stays a clean report.
  std::cerr << std::left << std::setw(48) << "file" << std::setw(24) << "kernel"
            << "findings\n";
  for (size_t i = 0; i < files.size(); ++i) {
    const FileResult &result = results[i];
    if (!result.error.empty()) {
      ++errors;
      std::cerr << std::setw(48) << files[i] << std::setw(24) << "-"
                << "error: " << result.error.substr(0, result.error.find('\n')) << "\n";
    }
    for (const report::KernelFindings &kernel : result.kernels) {
      size_t bugs = 0;
      for (const detect::Finding &finding : kernel.findings)
        bugs += detect::isBug(finding.kind);
      std::cerr << std::setw(48) << files[i] << std::setw(24) << kernel.kernel << bugs << "\n";
      all.push_back(kernel);
    }
  }
  std::cerr << files.size() << " files, " << all.size() << " kernels analysed, " << errors
            << " with errors\n";
  if (options.output.empty())
    return emitReport(options.common, all);
  std::ofstream out(options.output);
  if (!out)
    return fail(options.output + ": cannot write the report");
  return emitReport(options.common, all, out, options.output);
}

} // namespace simulee::cli
