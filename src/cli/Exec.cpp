#include "cli/Exec.h"

#include "ir/HostCompile.h"
#include "support/FileText.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

class WorkDirectory {
public:
  explicit WorkDirectory(bool keep) : keep_(keep) {
    llvm::SmallString<128> path;
    if (!llvm::sys::fs::createUniqueDirectory("simulee-exec", path))
      path_ = path.str().str();
  }
  ~WorkDirectory() {
    if (!path_.empty() && !keep_)
      llvm::sys::fs::remove_directories(path_, /*IgnoreErrors=*/true);
  }
  WorkDirectory(const WorkDirectory &) = delete;
  WorkDirectory &operator=(const WorkDirectory &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
  bool keep_;
};

// Runs the program with the runtime's settings in its environment; its
// wait status.
int runProgram(const std::string &executable, const std::vector<std::string> &programArgs,
               const std::vector<std::string> &settings) {
  std::vector<std::string> environment;
  for (char **entry = environ; entry && *entry; ++entry)
    if (std::strncmp(*entry, "SIMULEE_EXEC_", 13) != 0)
      environment.push_back(*entry);
  environment.insert(environment.end(), settings.begin(), settings.end());
  std::vector<char *> envp, argv;
  for (std::string &variable : environment)
    envp.push_back(variable.data());
  envp.push_back(nullptr);
  std::string program = executable;
  argv.push_back(program.data());
  std::vector<std::string> args = programArgs;
  for (std::string &arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  pid_t child = fork();
  if (child < 0)
    return -1;
  if (child == 0) {
    execve(program.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  // The program gets the terminal's Ctrl-C; simulee waits for it to end.
  std::signal(SIGINT, SIG_IGN);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::signal(SIGINT, SIG_DFL);
  return status;
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
  WorkDirectory work(options.keepBuild);
  if (work.path().empty())
    return error("exec: cannot create a temporary build directory");

  ir::HostBuildOptions build;
  build.sources = options.files;
  build.defines = common.defines;
  build.includes = common.includes;
  build.libraries = options.libraries;
  build.libraryDirs = options.libraryDirs;
  build.cudaPath = common.cudaPath;
  build.deviceOptLevel = common.optLevel;
  build.runtimeDir = runtimeDir;
  build.workDir = work.path();
  Result<std::string> executable = ir::buildHostProgram(build);
  if (!executable)
    return error(executable.error().message);
  if (options.keepBuild && !common.quiet)
    std::cerr << "simulee: exec: built " << *executable << "\n";

  std::string reportPath = work.path() + "/report", summaryPath = work.path() + "/summary.json";
  bool toTerminal = common.output.empty() && isatty(STDERR_FILENO);
  std::vector<std::string> settings = {
      "SIMULEE_EXEC_REPORT=" + reportPath,
      "SIMULEE_EXEC_SUMMARY=" + summaryPath,
      "SIMULEE_EXEC_FORMAT=" + common.format,
      "SIMULEE_EXEC_PROGRESS=" + std::string(toTerminal && !common.quiet ? "1" : "0"),
      "SIMULEE_EXEC_COLOR=" +
          std::string((common.color < 0 ? toTerminal : common.color != 0) ? "1" : "0"),
      "SIMULEE_EXEC_STRICT=" + std::string(common.strict ? "1" : "0"),
      "SIMULEE_EXEC_LOCKSTEP=" + std::string(common.lockstep ? "1" : "0"),
      "SIMULEE_EXEC_BUDGET=" + std::to_string(common.budgetInstrs ? common.budgetInstrs
                                                                   : kDefaultExecBudgetInstrs),
      "SIMULEE_EXEC_RECORD=" + common.record,
      "SIMULEE_EXEC_ALL_BLOCKS=" + std::string(common.allBlocks ? "1" : "0"),
      "SIMULEE_EXEC_SEARCH=" + std::to_string(options.searchGenerations),
      "SIMULEE_EXEC_CHECKED=" + std::to_string(options.checkAll ? 0 : options.checkedLaunches),
      "SIMULEE_EXEC_SM=" + std::to_string(options.computeCapability)};
  int status = runProgram(*executable, options.programArgs, settings);
  if (status < 0)
    return error("exec: cannot start the program");

  nlohmann::json summary = nlohmann::json::parse(readWholeFile(summaryPath), nullptr, false);
  if (summary.is_discarded())
    return error("exec: the program ended before simulee's runtime started (exit status " +
                 std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  std::string runtimeError = summary.value("error", "");
  uint64_t findings = summary.value("findings", uint64_t(0));
  std::string report = readWholeFile(reportPath);
  if (!report.empty() && !(common.quiet && findings == 0 && common.output.empty()))
    if (Status written = writeReport(report, common.output); !written)
      return error(written.error().message);
  if (!runtimeError.empty())
    return error(runtimeError);

  int programStatus = 0;
  if (WIFEXITED(status)) {
    programStatus = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    // The runtime writes its report at exit and whenever something is
    // found: without an exit, the report holds the findings made so far.
    std::cerr << "simulee: exec: the program was killed by signal " << signal << " ("
              << strsignal(signal) << ") after " << summary.value("launches", uint64_t(0))
              << " checked launch(es); "
              << (report.empty() ? "nothing was found before" : "the report above is partial")
              << "\n";
    programStatus = 128 + signal;
  }
  if (options.exitStatus == "program")
    return programStatus;
  if (findings > 0)
    return kExitFindings;
  // A launch that could not be judged (it did not terminate) must not let
  // the run look clean.
  if (summary.value("unjudged", uint64_t(0)) > 0)
    return kExitInconclusive;
  return programStatus;
}

} // namespace simulee::cli
