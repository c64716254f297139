#include "cli/Exec.h"

#include "session/ProgramExecution.h"
#include "support/FileText.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <csignal>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace simulee::cli {
namespace {

// libsimulee_cudart.so: next to the simulee binary (an installed copy), else
// in the build directory simulee was built in.
std::string runtimeDirectory() {
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  std::string besideSelf = llvm::sys::path::parent_path(self).str();
  for (const std::string &dir : {besideSelf, std::string(SIMULEE_RUNTIME_DIR)})
    if (!dir.empty() && llvm::sys::fs::exists(dir + "/libsimulee_cudart.so"))
      return dir;
  return "";
}

Status writeReport(const std::string &text, const std::string &output) {
  if (output.empty()) {
    std::cerr << text;
    return Ok{};
  }
  Status written = writeWholeFile(output, text);
  if (!written)
    return makeError(output + ": " + written.error().message);
  return Ok{};
}

} // namespace

std::vector<std::string> splitProgramArguments(int &argc, char **argv) {
  int exec = -1;
  for (int i = 1; i < argc; ++i) {
    if (exec < 0 && std::strcmp(argv[i], "exec") == 0) {
      exec = i;
      continue;
    }
    if (exec >= 0 && std::strcmp(argv[i], "--") == 0) {
      std::vector<std::string> rest(argv + i + 1, argv + argc);
      argc = i;
      return rest;
    }
  }
  return {};
}

std::vector<std::string> nvccFlagsAsOptions(int argc, char **argv) {
  std::vector<std::string> out(argv, argv + argc);
  auto exec = std::find(out.begin(), out.end(), "exec");
  if (exec == out.end())
    return out;
  std::vector<std::string> result(out.begin(), exec + 1);
  // nvcc's option (either spelling) taking a value, joined (-std=c++17) or
  // as the next argument; its simulee spelling.
  static const std::vector<std::pair<std::vector<std::string>, std::string>> valued = {
      {{"-std", "--std"}, "--std"},
      {{"-Xcompiler", "--compiler-options"}, "--Xcompiler"},
      {{"-Xlinker", "--linker-options"}, "--Xlinker"},
  };
  static const std::vector<std::string> droppedWithValue = {"-arch", "--gpu-architecture",
                                                            "-gencode", "--generate-code",
                                                            "-code", "--gpu-code", "-rdc",
                                                            "--relocatable-device-code"};
  static const std::vector<std::string> dropped = {
      "-lineinfo", "--generate-line-info", "-G", "--device-debug", "-use_fast_math",
      "--use_fast_math", "--expt-relaxed-constexpr", "--expt-extended-lambda",
      "--extended-lambda", "-m64", "-Wno-deprecated-gpu-targets"};
  for (size_t i = exec - out.begin() + 1; i < out.size(); ++i) {
    const std::string &arg = out[i];
    auto joined = [&](const std::string &name) {
      return arg.size() > name.size() && arg.compare(0, name.size() + 1, name + "=") == 0;
    };
    bool handled = false;
    for (const auto &[names, option] : valued)
      for (const std::string &name : names) {
        if (handled)
          break;
        if (arg == name && i + 1 < out.size()) {
          result.push_back(option + "=" + out[++i]);
          handled = true;
        } else if (joined(name)) {
          result.push_back(option + "=" + arg.substr(name.size() + 1));
          handled = true;
        }
      }
    if (handled)
      continue;
    if (arg == "-fopenmp") {
      result.push_back("--Xcompiler=-fopenmp");
      continue;
    }
    bool dropValue = std::find(droppedWithValue.begin(), droppedWithValue.end(), arg) !=
                     droppedWithValue.end();
    if (dropValue && i + 1 < out.size()) {
      ++i;
      continue;
    }
    bool drop = std::find(dropped.begin(), dropped.end(), arg) != dropped.end() ||
                std::any_of(droppedWithValue.begin(), droppedWithValue.end(),
                            [&](const std::string &name) { return joined(name); });
    if (!drop)
      result.push_back(arg);
  }
  return result;
}

int execProgram(const ExecOptions &options, const CommonOptions &common) {
  auto error = [](const std::string &message) {
    std::cerr << "simulee: error: " << message << "\n";
    return kExitError;
  };
  if (options.files.empty())
    return error("exec: no program file given");
  std::string runtimeDir = runtimeDirectory();
  if (runtimeDir.empty())
    return error("exec: libsimulee_cudart.so not found next to simulee or in " +
                 std::string(SIMULEE_RUNTIME_DIR) + " (build the simulee_cudart target)");

  bool toTerminal = common.output.empty() && isatty(STDERR_FILENO);
  session::ExecSettings settings;
  settings.files = options.files;
  settings.programArgs = options.programArgs;
  settings.defines = common.defines;
  settings.includes = common.includes;
  settings.libraries = options.libraries;
  settings.libraryDirs = options.libraryDirs;
  settings.standard = options.standard;
  // -Xcompiler takes nvcc's comma-separated lists.
  for (const std::string &flags : options.hostFlags)
    for (llvm::StringRef flag : llvm::split(flags, ','))
      if (!flag.empty())
        settings.hostFlags.push_back(flag.str());
  for (const std::string &flags : options.linkerFlags)
    for (llvm::StringRef flag : llvm::split(flags, ','))
      if (!flag.empty())
        settings.linkerFlags.push_back(flag.str());
  settings.cudaPath = common.cudaPath;
  settings.optLevel = common.optLevel;
  settings.runtimeDir = runtimeDir;
  settings.keepBuild = options.keepBuild;
  settings.format = common.format;
  settings.progress = toTerminal && !common.quiet;
  settings.color = common.color < 0 ? toTerminal : common.color != 0;
  settings.strict = common.strict;
  settings.lockstep = common.lockstep;
  settings.budgetInstrs = common.budgetInstrs ? common.budgetInstrs : kDefaultExecBudgetInstrs;
  settings.record = common.record;
  settings.allBlocks = common.allBlocks;
  settings.engine = common.engine;
  settings.blockJobs = common.jobs;
  settings.searchGenerations = options.searchGenerations;
  settings.checkedLaunches = options.checkAll ? 0 : options.checkedLaunches;
  settings.computeCapability = options.computeCapability;
  settings.onBuilt = [&](const std::string &executable) {
    if (options.keepBuild && !common.quiet)
      std::cerr << "simulee: exec: built " << executable << "\n";
  };
  Result<session::ExecOutcome> run = session::executeProgram(settings);
  if (!run)
    return error(run.error().message);
  const session::ExecOutcome &outcome = *run;
  if (!outcome.report.empty() && !(common.quiet && outcome.findings == 0 && common.output.empty()))
    if (Status written = writeReport(outcome.report, common.output); !written)
      return error(written.error().message);
  if (!outcome.runtimeError.empty())
    return error(outcome.runtimeError);

  if (int signal = outcome.killedBy()) {
    // The runtime writes its report at exit, whenever something is found,
    // and when SIGINT or SIGTERM stops the program (runtime/Signals.h): the
    // report holds what was judged before.
    std::string report = common.output.empty() ? "the report above" : "the report in " + common.output;
    std::cerr << "simulee: exec: the program was "
              << (signal == SIGINT || signal == SIGTERM ? "stopped" : "killed") << " by signal "
              << signal << " (" << strsignal(signal) << ") after " << outcome.launches
              << " launch(es); "
              << (outcome.report.empty() ? "nothing was found before"
                                         : report + " holds every launch judged before")
              << "\n";
  }
  if (options.exitStatus == "program")
    return outcome.programStatus();
  if (outcome.findings > 0)
    return kExitFindings;
  // A launch that could not be judged (it did not terminate) must not let
  // the run look clean.
  if (outcome.unjudged > 0)
    return kExitInconclusive;
  return outcome.programStatus();
}

} // namespace simulee::cli
