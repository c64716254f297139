#include "replay/Replay.h"

#include "replay/Harness.h"
#include "replay/Toolchain.h"
#include "support/FileText.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

namespace simulee::replay {
namespace {

namespace fs = std::filesystem;

bool isRaceLike(detect::FindingKind kind) {
  return kind == detect::FindingKind::DataRace || kind == detect::FindingKind::BarrierDivergence ||
         kind == detect::FindingKind::OutOfBounds;
}

Status writeBytes(const fs::path &path, const std::vector<uint8_t> &bytes) {
  Status written = writeWholeFile(
      path.string(), std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
  if (!written)
    return makeError("'" + path.string() + "': " + written.error().message);
  return Ok{};
}

Status writeText(const fs::path &path, const std::string &text) {
  Status written = writeWholeFile(path.string(), text);
  if (!written)
    return makeError("'" + path.string() + "': " + written.error().message);
  return Ok{};
}

std::optional<std::vector<uint8_t>> readBytes(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), {});
}

// The value after "simulee-replay: KEY: " in the harness's output.
std::string harnessLine(const std::string &output, const std::string &key) {
  std::string prefix = std::string(kHarnessTag) + key + ": ";
  size_t at = output.find(prefix);
  if (at == std::string::npos)
    return "";
  size_t start = at + prefix.size();
  return output.substr(start, output.find('\n', start) - start);
}

std::string lastLine(const std::string &text) {
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\r'))
    trimmed.pop_back();
  size_t at = trimmed.rfind('\n');
  return at == std::string::npos ? trimmed : trimmed.substr(at + 1);
}

// __device__ variables the harness can reset by name: declared in the
// kernel's own source under their plain name (C++ does not mangle variables
// of the global namespace).
std::vector<DeviceVariable> resettableVariables(const ir::Program &program,
                                                const std::string &source) {
  std::vector<DeviceVariable> variables;
  for (const ir::VariableInfo &variable : program.globalVariables) {
    if (variable.name != variable.symbolName || variable.sizeBytes == 0 ||
        !std::all_of(variable.name.begin(), variable.name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        }))
      continue;
    std::regex declared("__device__[^;{}()]*\\b" + variable.name + "\\b");
    if (!std::regex_search(source, declared))
      continue;
    std::vector<uint8_t> bytes = variable.initializer;
    bytes.resize(variable.sizeBytes, 0);
    variables.push_back({variable.name, std::move(bytes)});
  }
  return variables;
}

// The harness's run outputs of every buffer, or an error naming the missing file.
Result<std::vector<std::vector<std::vector<uint8_t>>>>
readRunOutputs(const fs::path &directory, const ir::KernelInfo &kernel, unsigned runs) {
  std::vector<std::vector<std::vector<uint8_t>>> outputs(kernel.params.size());
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (kernel.params[i].kind != ir::ValueKind::Pointer)
      continue;
    for (unsigned run = 0; run < runs; ++run) {
      std::optional<std::vector<uint8_t>> bytes = readBytes(directory / runBufferFile(run, i));
      if (!bytes)
        return makeError("the harness wrote no '" + runBufferFile(run, i) + "'");
      outputs[i].push_back(std::move(*bytes));
    }
  }
  return outputs;
}

std::string notFound(const std::string &tool) {
  return tool + " not found (PATH, CUDA_HOME, /usr/local/cuda)";
}

void runSanitizers(const fs::path &directory, const std::string &executable,
                   const ReplayOptions &options, LaunchReplay &replay) {
  std::optional<std::string> sanitizer = findCudaTool("compute-sanitizer");
  if (!sanitizer) {
    replay.sanitizerNote = notFound("compute-sanitizer");
    return;
  }
  for (Hazard::Tool tool :
       {Hazard::Tool::Racecheck, Hazard::Tool::Synccheck, Hazard::Tool::Memcheck}) {
    std::string name = toolName(tool);
    // One run each, writing its buffers under its own prefix.
    CommandResult result =
        runCommand({*sanitizer, "--tool", name, executable, directory.string(), "1", name},
                   options.runTimeoutSeconds * 10);
    (void)writeText(directory / (name + ".log"), result.output);
    if (!result.started || result.timedOut) {
      replay.sanitizerNote = name + (result.timedOut ? " timed out" : " did not start");
      continue;
    }
    std::vector<Hazard> found = tool == Hazard::Tool::Racecheck   ? parseRacecheck(result.output)
                                : tool == Hazard::Tool::Synccheck ? parseSynccheck(result.output)
                                                                  : parseMemcheck(result.output);
    replay.hazards.insert(replay.hazards.end(), found.begin(), found.end());
  }
  replay.sanitizerRan = replay.sanitizerNote.empty();
}

// Writes build.sh and builds the harness; false (with state and reason set)
// when it cannot be built.
bool buildHarness(const fs::path &directory, const std::string &sourceDirectory,
                  const ReplayOptions &options, LaunchReplay &replay) {
  std::optional<std::string> nvcc = findCudaTool("nvcc");
  std::optional<std::string> architecture = gpuArchitecture();
  replay.architecture = architecture.value_or("");
  std::vector<std::string> build = nvccCommand(
      nvcc.value_or("nvcc"), (directory / "harness.cu").string(), (directory / "harness").string(),
      sourceDirectory, architecture, options.compilerArgs);
  (void)writeText(directory / "build.sh",
                  "#!/bin/sh\n# Builds the replay harness; run it as: ./harness DIR RUNS\n" +
                      shellLine(build) + "\n");
  std::error_code ec;
  fs::permissions(directory / "build.sh", fs::perms::owner_exec, fs::perm_options::add, ec);
  if (!nvcc) {
    replay.state = RunState::NoCompiler;
    replay.reason = notFound("nvcc");
    return false;
  }
  CommandResult compiled = runCommand(build, 900);
  (void)writeText(directory / "build.log", compiled.output);
  if (compiled.exitCode == 0 && !compiled.timedOut)
    return true;
  replay.state = RunState::BuildFailed;
  replay.reason = "nvcc could not build the harness (" + (directory / "build.log").string() +
                  "): " + lastLine(compiled.output);
  return false;
}

// Runs the built harness `runs` times; sets state (Ran only when every run's
// buffers came back), reason and device.
void runHarness(const fs::path &directory, const ReplayOptions &options, LaunchReplay &replay) {
  CommandResult ran = runCommand(
      {(directory / "harness").string(), directory.string(), std::to_string(options.runs)},
      options.runTimeoutSeconds);
  (void)writeText(directory / "run.log", ran.output);
  replay.device = harnessLine(ran.output, "device");
  if (ran.timedOut) {
    replay.state = RunState::TimedOut;
    replay.reason =
        "the kernel did not finish within " + std::to_string(options.runTimeoutSeconds) + " s";
    return;
  }
  switch (ran.exitCode) {
  case 0:
    replay.state = RunState::Ran;
    replay.runs = options.runs;
    return;
  case kHarnessNoGpu:
    replay.state = RunState::NoGpu;
    replay.reason = harnessLine(ran.output, "no-gpu");
    return;
  case kHarnessKernelFailed:
    replay.state = RunState::KernelFailed;
    replay.reason = "the kernel failed on the GPU: " + harnessLine(ran.output, "kernel-error");
    return;
  default:
    std::string setupError = harnessLine(ran.output, "setup-error");
    replay.state = RunState::SetupFailed;
    replay.reason =
        "the harness failed: " + (setupError.empty() ? lastLine(ran.output) : setupError);
    return;
  }
}

// Builds and runs the harness in `directory`, then compares its buffers and
// asks the sanitizers.
void buildAndRun(const ir::KernelInfo &kernel, const fs::path &directory,
                 const std::string &sourceDirectory,
                 const std::vector<interp::ArgumentValue> &simulated, const ReplayOptions &options,
                 LaunchReplay &replay) {
  if (!buildHarness(directory, sourceDirectory, options, replay))
    return;
  runHarness(directory, options, replay);
  if (replay.ran()) {
    auto outputs = readRunOutputs(directory, kernel, options.runs);
    if (!outputs) {
      replay.state = RunState::SetupFailed;
      replay.reason = outputs.error().message;
      return;
    }
    for (size_t i = 0; i < kernel.params.size(); ++i)
      if (kernel.params[i].kind == ir::ValueKind::Pointer)
        replay.buffers.push_back(compareBuffer(i, kernel.params[i], simulated[i].bytes,
                                               (*outputs)[i], options.ulpBound));
  }
  // A kernel that faults is memcheck's case above all.
  if (options.sanitizer && (replay.ran() || replay.state == RunState::KernelFailed))
    runSanitizers(directory, (directory / "harness").string(), options, replay);
}

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

const char *verdictName(Verdict verdict) {
  switch (verdict) {
  case Verdict::Confirmed:
    return "confirmed";
  case Verdict::NotReproduced:
    return "not reproduced";
  case Verdict::NoGpu:
    return "no GPU";
  case Verdict::NotChecked:
    return "not checked";
  }
  return "?";
}

const char *runStateName(RunState state) {
  switch (state) {
  case RunState::Ran:
    return "ran";
  case RunState::NoCompiler:
    return "no compiler";
  case RunState::BuildFailed:
    return "build failed";
  case RunState::NoGpu:
    return "no GPU";
  case RunState::KernelFailed:
    return "kernel failed";
  case RunState::TimedOut:
    return "timed out";
  case RunState::SetupFailed:
    return "setup failed";
  }
  return "?";
}

bool LaunchReplay::variesAcrossRuns() const {
  return std::any_of(buffers.begin(), buffers.end(),
                     [](const BufferComparison &b) { return b.variesAcrossRuns(); });
}

bool LaunchReplay::matchesSimulation() const {
  return std::all_of(buffers.begin(), buffers.end(),
                     [](const BufferComparison &b) { return b.matchesSimulation(); });
}

size_t LaunchReplay::confirmedCount() const {
  return size_t(std::count_if(findings.begin(), findings.end(), [](const FindingReplay &f) {
    return f.verdict == Verdict::Confirmed;
  }));
}

session::LaunchSpec launchSpecOf(const detect::LaunchRecord &record) {
  session::LaunchSpec spec;
  spec.config.grid = record.grid;
  spec.config.block = record.block;
  spec.config.dynamicSharedBytes = record.dynamicSharedBytes;
  spec.seed = record.seed;
  for (const auto &[name, value] : record.args)
    spec.args.push_back({name, value});
  return spec;
}

void judgeFindings(const ir::Program &program, const ir::KernelInfo &kernel, LaunchReplay &replay) {
  replay.hazardMatched.assign(replay.hazards.size(), false);
  // Which buffers came out differently from run to run.
  std::vector<std::string> varying;
  for (const BufferComparison &buffer : replay.buffers)
    if (buffer.variesAcrossRuns())
      varying.push_back(buffer.name);

  for (FindingReplay &result : replay.findings) {
    const detect::Finding &finding = result.finding;
    if (!isRaceLike(finding.kind)) {
      result.verdict = Verdict::NotChecked;
      result.evidence = "a run cannot show whether a barrier is needed";
      continue;
    }
    if (replay.state != RunState::Ran && replay.state != RunState::KernelFailed) {
      result.verdict = Verdict::NoGpu;
      result.evidence = replay.reason;
      continue;
    }
    std::vector<std::string> evidence;
    for (size_t h = 0; h < replay.hazards.size(); ++h) {
      if (!hazardMatches(replay.hazards[h], finding, program))
        continue;
      replay.hazardMatched[h] = true;
      evidence.push_back(std::string(toolName(replay.hazards[h].tool)) + ": " +
                         replay.hazards[h].text);
    }
    if (finding.kind == detect::FindingKind::DataRace && !varying.empty()) {
      // A race on a parameter's buffer shows in that buffer; one on shared
      // or other memory can only show in what the kernel wrote from it.
      bool onParameter =
          finding.space == interp::MemSpace::Global && finding.buffer < kernel.params.size();
      if (!onParameter)
        evidence.push_back("outputs vary across runs (" + varying.front() + ")");
      else if (std::find(varying.begin(), varying.end(), kernel.params[finding.buffer].name) !=
               varying.end())
        evidence.push_back("'" + kernel.params[finding.buffer].name + "' varies across runs");
    }
    if (finding.kind == detect::FindingKind::OutOfBounds && replay.state == RunState::KernelFailed)
      evidence.push_back(replay.reason);
    if (!evidence.empty()) {
      result.verdict = Verdict::Confirmed;
      std::string joined;
      for (const std::string &item : evidence)
        joined += (joined.empty() ? "" : "; ") + item;
      result.evidence = joined;
      continue;
    }
    result.verdict = Verdict::NotReproduced;
    result.evidence = std::to_string(replay.runs) + " runs with identical outputs" +
                      (replay.sanitizerRan ? ", no matching sanitizer hazard" : "");
    if (replay.state == RunState::KernelFailed)
      result.evidence = replay.reason;
  }
}

Result<LaunchReplay> replayLaunch(const ir::Program &program, const ir::KernelInfo &kernel,
                                  const session::LaunchSpec &spec,
                                  const std::optional<std::vector<detect::Finding>> &findings,
                                  const ReplayOptions &options) {
  std::string prefix = program.path + ": kernel '" + kernel.sourceName + "': ";
  if (!endsWith(program.path, ".cu"))
    return makeError(prefix + "replay needs the kernel's CUDA source (.cu), not IR");
  for (const ir::ParamInfo &param : kernel.params) {
    if (param.resource != ir::ResourceKind::None)
      return makeError(prefix + "replay does not create CUDA texture or surface objects yet "
                                "(parameter '" + param.name + "')");
    if (!param.pointerMembers.empty())
      return makeError(prefix + "replay does not allocate the memory the pointers inside a "
                                "struct argument (or behind a pointer argument) point to yet "
                                "(parameter '" + param.name + "')");
  }
  for (const session::ArgumentSpec &arg : spec.args)
    if (size_t colon = arg.value.find(':');
        colon != std::string::npos && arg.value.find('+', colon) != std::string::npos)
      return makeError(prefix + "replay does not pass a pointer into the middle of a buffer "
                                "yet (argument '" + arg.name + "=" + arg.value + "')");
  std::error_code ec;
  fs::path source = fs::absolute(program.path, ec);
  std::ifstream sourceIn(source);
  if (ec || !sourceIn)
    return makeError(prefix + "cannot read the source for the harness");
  std::string sourceText((std::istreambuf_iterator<char>(sourceIn)), {});

  Result<session::KernelAnalysis> simulated =
      session::analyzeLaunch(program, kernel, spec, options.analysis);
  if (!simulated) {
    const std::string &message = simulated.error().message;
    return makeError(message.rfind(program.path, 0) == 0 ? message : prefix + message);
  }
  Result<session::BuiltArguments> initial =
      session::buildArguments(kernel, spec.config, spec.args, spec.seed);
  if (!initial)
    return makeError(prefix + initial.error().message);

  LaunchReplay replay;
  replay.kernel = kernel.sourceName;
  replay.ulpBound = options.ulpBound;
  replay.launch = *simulated->bestLaunch;
  replay.raceFree = std::none_of(simulated->findings.begin(), simulated->findings.end(),
                                 [](const detect::Finding &f) { return isRaceLike(f.kind); });
  for (const detect::Finding &finding : findings ? *findings : simulated->findings)
    replay.findings.push_back({finding, Verdict::NoGpu, ""});

  fs::path directory = fs::absolute(options.directory, ec);
  fs::create_directories(directory, ec);
  if (ec)
    return makeError(prefix + "cannot create '" + options.directory + "': " + ec.message());
  replay.directory = directory.string();

  HarnessInput input;
  input.sourcePath = source.lexically_normal().string();
  input.kernel = &kernel;
  input.config = spec.config;
  input.arguments = initial->values;
  input.deviceVariables = resettableVariables(program, sourceText);
  Result<std::string> harness = harnessSource(input);
  if (!harness)
    return makeError(prefix + harness.error().message);
  for (Status written : {writeText(directory / "harness.cu", *harness),
                         writeText(directory / "launch.json",
                                   session::launchToJson(kernel.sourceName, replay.launch))})
    if (!written)
      return makeError(prefix + written.error().message);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (initial->values[i].kind != interp::ArgumentValue::Kind::Buffer)
      continue;
    for (Status written :
         {writeBytes(directory / initialBufferFile(i), initial->values[i].bytes),
          writeBytes(directory / simulatedBufferFile(i), simulated->arguments[i].bytes)})
      if (!written)
        return makeError(prefix + written.error().message);
  }

  buildAndRun(kernel, directory, source.parent_path().string(), simulated->arguments, options,
              replay);
  judgeFindings(program, kernel, replay);
  return replay;
}

} // namespace simulee::replay
