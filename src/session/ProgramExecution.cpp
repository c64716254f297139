#include "session/ProgramExecution.h"

#include "ir/HostCompile.h"
#include "support/FileText.h"
#include "support/MemoryLimit.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace simulee::session {
namespace {

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

// The files of a run in the work directory: the runtime writes its report
// and summary there, and the program its output when it is captured.
struct RuntimeFiles {
  std::string report, summary, output, errors;
  explicit RuntimeFiles(const std::string &workDir)
      : report(workDir + "/report"), summary(workDir + "/summary.json"),
        output(workDir + "/program.stdout"), errors(workDir + "/program.stderr") {}
};

// The runtime's settings (src/runtime/Runtime.cpp reads them at start).
std::vector<std::string> runtimeSettings(const ExecSettings &settings, const RuntimeFiles &files) {
  auto flag = [](bool value) { return std::string(value ? "1" : "0"); };
  // SIMULEE_EXEC_MAX_MEMORY: --max-memory, as the command line set it (or
  // its default).
  return {"SIMULEE_EXEC_REPORT=" + files.report,
          "SIMULEE_EXEC_SUMMARY=" + files.summary,
          "SIMULEE_EXEC_FORMAT=" + settings.format,
          "SIMULEE_EXEC_PROGRESS=" + flag(settings.progress),
          "SIMULEE_EXEC_COLOR=" + flag(settings.color),
          "SIMULEE_EXEC_STRICT=" + flag(settings.strict),
          "SIMULEE_EXEC_LOCKSTEP=" + flag(settings.lockstep),
          "SIMULEE_EXEC_BUDGET=" + std::to_string(settings.budgetInstrs),
          "SIMULEE_EXEC_RECORD=" + settings.record,
          "SIMULEE_EXEC_ALL_BLOCKS=" + flag(settings.allBlocks),
          "SIMULEE_EXEC_ENGINE=" + settings.engine,
          "SIMULEE_EXEC_JOBS=" + std::to_string(settings.blockJobs),
          "SIMULEE_EXEC_SEARCH=" + std::to_string(settings.searchGenerations),
          "SIMULEE_EXEC_CHECKED=" + std::to_string(settings.checkedLaunches),
          "SIMULEE_EXEC_SM=" + std::to_string(settings.computeCapability),
          "SIMULEE_EXEC_MAX_MEMORY=" + std::to_string(memoryLimitBytes())};
}

// The program a SIGTERM to simulee is passed on to while simulee waits.
volatile std::sig_atomic_t programToStop = 0;

void passOnStop(int signal) {
  if (programToStop > 0)
    kill(pid_t(programToStop), signal);
}

// Waits for the program; with a cancel flag, polls it and kills the program
// once it is set. The wait status, or nothing when cancelled.
std::optional<int> waitFor(pid_t child, const std::atomic<bool> *cancel) {
  int status = 0;
  if (!cancel) {
    // The program gets the terminal's Ctrl-C, and SIGTERM is passed on to it:
    // its runtime writes the report of what it judged so far and ends by the
    // signal, and simulee waits for that.
    programToStop = child;
    struct sigaction passOn {}, previousTerm {}, ignore {}, previousInt {};
    passOn.sa_handler = passOnStop;
    sigemptyset(&passOn.sa_mask);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGTERM, &passOn, &previousTerm);
    sigaction(SIGINT, &ignore, &previousInt);
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    sigaction(SIGINT, &previousInt, nullptr);
    sigaction(SIGTERM, &previousTerm, nullptr);
    programToStop = 0;
    return status;
  }
  for (;;) {
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child || (done < 0 && errno != EINTR))
      return status;
    if (*cancel) {
      kill(child, SIGKILL);
      while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// Runs the program with the runtime's settings in its environment. Its wait
// status; an error when it cannot be started, nothing when cancelled.
Result<std::optional<int>> runProgram(const std::string &executable, const ExecSettings &settings,
                                      const RuntimeFiles &files) {
  std::vector<std::string> environment;
  for (char **entry = environ; entry && *entry; ++entry)
    if (std::strncmp(*entry, "SIMULEE_EXEC_", 13) != 0)
      environment.push_back(*entry);
  std::vector<std::string> runtime = runtimeSettings(settings, files);
  environment.insert(environment.end(), runtime.begin(), runtime.end());
  std::vector<char *> envp, argv;
  for (std::string &variable : environment)
    envp.push_back(variable.data());
  envp.push_back(nullptr);
  std::string program = executable;
  argv.push_back(program.data());
  std::vector<std::string> args = settings.programArgs;
  for (std::string &arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);

  int output = -1, errors = -1;
  if (settings.captureOutput) {
    output = open(files.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    errors = open(files.errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
  auto closeCaptures = [&] {
    for (int fd : {output, errors})
      if (fd >= 0)
        close(fd);
  };
  if (settings.captureOutput && (output < 0 || errors < 0)) {
    closeCaptures();
    return makeError("exec: cannot create the files for the program's output");
  }
  std::cout.flush();
  std::cerr.flush();
  pid_t child = fork();
  if (child < 0) {
    closeCaptures();
    return makeError("exec: cannot start the program");
  }
  if (child == 0) {
    if (output >= 0 && (dup2(output, STDOUT_FILENO) < 0 || dup2(errors, STDERR_FILENO) < 0))
      _exit(127);
    execve(program.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  closeCaptures();
  return waitFor(child, settings.cancel);
}

} // namespace

int ExecOutcome::programStatus() const {
  if (WIFEXITED(waitStatus))
    return WEXITSTATUS(waitStatus);
  return WIFSIGNALED(waitStatus) ? 128 + WTERMSIG(waitStatus) : 0;
}

int ExecOutcome::killedBy() const { return WIFSIGNALED(waitStatus) ? WTERMSIG(waitStatus) : 0; }

Result<ExecOutcome> executeProgram(const ExecSettings &settings) {
  if (settings.files.empty())
    return makeError("exec: no program file given");
  WorkDirectory work(settings.keepBuild);
  if (work.path().empty())
    return makeError("exec: cannot create a temporary build directory");

  ir::HostBuildOptions build;
  build.sources = settings.files;
  build.defines = settings.defines;
  build.includes = settings.includes;
  build.libraries = settings.libraries;
  build.libraryDirs = settings.libraryDirs;
  build.standard = settings.standard;
  build.hostFlags = settings.hostFlags;
  build.linkerFlags = settings.linkerFlags;
  build.cudaPath = settings.cudaPath;
  build.deviceOptLevel = settings.optLevel;
  build.runtimeDir = settings.runtimeDir;
  build.workDir = work.path();
  Result<std::string> executable = ir::buildHostProgram(build);
  if (!executable)
    return executable.error();
  if (settings.onBuilt)
    settings.onBuilt(*executable);

  RuntimeFiles files(work.path());
  Result<std::optional<int>> status = runProgram(*executable, settings, files);
  if (!status)
    return status.error();
  if (!*status)
    return makeError("exec: the program was stopped");
  ExecOutcome outcome;
  outcome.waitStatus = **status;
  if (settings.captureOutput) {
    outcome.programOutput = readWholeFile(files.output);
    outcome.programErrors = readWholeFile(files.errors);
  }
  nlohmann::json summary = nlohmann::json::parse(readWholeFile(files.summary), nullptr, false);
  if (summary.is_discarded())
    return makeError(
        "exec: the program ended before simulee's runtime started (exit status " +
        std::to_string(WIFEXITED(outcome.waitStatus) ? WEXITSTATUS(outcome.waitStatus) : -1) + ")");
  outcome.runtimeError = summary.value("error", "");
  outcome.launches = summary.value("launches", uint64_t(0));
  outcome.unjudged = summary.value("unjudged", uint64_t(0));
  outcome.findings = summary.value("findings", uint64_t(0));
  outcome.report = readWholeFile(files.report);
  return outcome;
}

} // namespace simulee::session
