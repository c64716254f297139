#include "cli/Replay.h"

#include "replay/Replay.h"
#include "replay/ReplayReport.h"
#include "report/FindingText.h"
#include "support/FileText.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace simulee::cli {
namespace {

int fail(const std::string &message) {
  std::cerr << "simulee: error: " << message << "\n";
  return kExitError;
}

bool couldNotRun(const replay::LaunchReplay &result) {
  return !result.ran() && result.state != replay::RunState::KernelFailed;
}

// 1 when the GPU showed something: a confirmed finding, a fault, or a
// race-free launch whose outputs are not what the simulator computed.
bool gpuShowedProblem(const replay::LaunchReplay &result) {
  if (result.state == replay::RunState::KernelFailed || result.confirmedCount() > 0)
    return true;
  return result.ran() && result.raceFree &&
         (!result.matchesSimulation() || result.variesAcrossRuns());
}

replay::ReplayOptions replayOptionsOf(const CommonOptions &common, const std::string &directory,
                                      unsigned runs, bool sanitizer, uint64_t ulpBound) {
  replay::ReplayOptions options;
  options.directory = directory;
  options.runs = runs;
  options.sanitizer = sanitizer;
  options.ulpBound = ulpBound;
  options.analysis = analysisOptionsOf(common);
  options.compilerArgs = loadOptionsOf(common).extraClangArgs; // -D, -I
  return options;
}

Result<const ir::KernelInfo *> chooseKernel(const ir::Program &program, const std::string &name) {
  if (!name.empty()) {
    if (const ir::KernelInfo *kernel = program.findKernel(name))
      return kernel;
    return makeError(program.path + ": no kernel named '" + name + "'");
  }
  if (program.kernels.size() != 1)
    return makeError(program.path + ": " + std::to_string(program.kernels.size()) +
                     " kernels; choose one with --kernel");
  return &program.kernels.front();
}

} // namespace

void addReplayOptions(CLI::App &app, ReplayCommandOptions &options) {
  app.add_option("file", options.file, "The kernel's CUDA source (.cu)")->required();
  app.add_option("--launch", options.launchFile,
                 "The launch to replay, as written by --save-launch")
      ->required();
  app.add_option("--kernel,-k", options.kernel,
                 "Kernel (default: the launch file's, or the only one)");
  app.add_option("--runs", options.runs,
                 "Times to run the launch; outputs that differ between runs show a race "
                 "(default 10)")
      ->check(CLI::Range(1, 10000));
  app.add_flag("--sanitizer", options.sanitizer,
               "Also run compute-sanitizer's racecheck, synccheck and memcheck tools and match "
               "their reports to simulee's findings by source line");
  app.add_option("--ulp", options.ulpBound,
                 "Floating-point outputs match the simulation within this many units in the "
                 "last place (default 4)");
  app.add_option("--dir", options.directory,
                 "Directory for the harness, its buffers and outputs (default "
                 "simulee-replay/KERNEL)");
}

int replayCommand(const ReplayCommandOptions &options) {
  if (options.common.format == "sarif")
    return fail(options.file + ": replay results are text or json, not sarif");
  Result<ir::Program> program = ir::loadProgram(options.file, loadOptionsOf(options.common));
  if (!program)
    return fail(program.error().message);
  Result<std::string> text = readRegularFile(options.launchFile);
  if (!text)
    return fail(options.launchFile + ": cannot read the launch file: " + text.error().message);
  std::string savedKernel;
  Result<session::LaunchSpec> spec = session::launchFromJson(*text, &savedKernel);
  if (!spec)
    return fail(options.launchFile + ": " + spec.error().message);
  Result<const ir::KernelInfo *> kernel =
      chooseKernel(*program, options.kernel.empty() ? savedKernel : options.kernel);
  if (!kernel)
    return fail(kernel.error().message);
  if (options.common.sharedBytes)
    spec->config.dynamicSharedBytes = options.common.sharedBytes;

  std::string directory =
      options.directory.empty() ? "simulee-replay/" + (*kernel)->sourceName : options.directory;
  Result<replay::LaunchReplay> result =
      replay::replayLaunch(*program, **kernel, *spec, std::nullopt,
                           replayOptionsOf(options.common, directory, options.runs,
                                           options.sanitizer, options.ulpBound));
  if (!result)
    return fail(result.error().message);
  std::vector<replay::LaunchReplay> results = {std::move(*result)};
  if (options.common.format == "text")
    replay::writeReplayText(std::cout, *program, results);
  else
    std::cout << replay::replayJson(*program, results).dump(2) << "\n";
  if (couldNotRun(results.front()))
    return kExitNotRun;
  return gpuShowedProblem(results.front()) ? kExitFindings : kExitClean;
}

int replaySearchFindings(const ir::Program &program,
                         const std::vector<report::KernelFindings> &kernels,
                         const CommonOptions &common, const std::string &directory,
                         int reportExitCode) {
  std::vector<replay::LaunchReplay> results;
  for (const report::KernelFindings &found : kernels) {
    const ir::KernelInfo *kernel = program.findKernel(found.kernel);
    if (!kernel)
      continue;
    // One harness per distinct launch, its findings judged together.
    std::map<std::string, std::vector<detect::Finding>> byLaunch;
    std::map<std::string, detect::LaunchRecord> launches;
    for (const detect::Finding &finding : found.findings) {
      if (!detect::isBug(finding.kind))
        continue;
      std::string key = report::launchText(finding.launch);
      byLaunch[key].push_back(finding);
      launches.emplace(key, finding.launch);
    }
    unsigned index = 0;
    for (auto &[key, findings] : byLaunch) {
      std::string launchDirectory =
          directory + "/" + kernel->sourceName + "-" + std::to_string(++index);
      Result<replay::LaunchReplay> result =
          replay::replayLaunch(program, *kernel, replay::launchSpecOf(launches[key]), findings,
                               replayOptionsOf(common, launchDirectory, 10, /*sanitizer=*/true, 4));
      if (!result)
        return fail(result.error().message);
      results.push_back(std::move(*result));
    }
  }
  if (common.format == "text") {
    replay::writeReplayText(std::cout, program, results);
    return reportExitCode;
  }
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  std::string jsonPath = directory + "/replay.json";
  Status written = writeWholeFile(jsonPath, replay::replayJson(program, results).dump(2) + "\n");
  if (!written)
    return fail(jsonPath + ": cannot write the replay results: " + written.error().message);
  replay::writeReplayText(std::cerr, program, results);
  std::cerr << "simulee: replay results in " << jsonPath << "\n";
  return reportExitCode;
}

} // namespace simulee::cli
