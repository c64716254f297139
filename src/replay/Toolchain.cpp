#include "replay/Toolchain.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace simulee::replay {
namespace {

namespace fs = std::filesystem;

bool isExecutable(const fs::path &path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
}

} // namespace

std::optional<std::string> findCudaTool(const std::string &name) {
  if (const char *path = std::getenv("PATH")) {
    std::stringstream directories(path);
    for (std::string directory; std::getline(directories, directory, ':');)
      if (!directory.empty() && isExecutable(fs::path(directory) / name))
        return (fs::path(directory) / name).string();
  }
  // A CUDA_HOME (or CUDA_PATH) that is set names the installation to use.
  std::vector<fs::path> roots;
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *root = std::getenv(variable); root && *root)
      roots.emplace_back(root);
  if (roots.empty())
    roots.emplace_back("/usr/local/cuda");
  for (const fs::path &root : roots) {
    // compute-sanitizer lives in its own directory in some installations.
    for (const fs::path &candidate : {root / "bin" / name, root / "compute-sanitizer" / name})
      if (isExecutable(candidate))
        return candidate.string();
  }
  return std::nullopt;
}

CommandResult runCommand(const std::vector<std::string> &argv, unsigned timeoutSeconds) {
  CommandResult result;
  if (argv.empty())
    return result;
  int pipeEnds[2];
  if (pipe(pipeEnds) != 0)
    return result;
  pid_t child = fork();
  if (child < 0) {
    close(pipeEnds[0]);
    close(pipeEnds[1]);
    return result;
  }
  if (child == 0) {
    dup2(pipeEnds[1], STDOUT_FILENO);
    dup2(pipeEnds[1], STDERR_FILENO);
    close(pipeEnds[0]);
    close(pipeEnds[1]);
    setpgid(0, 0); // its own group, so a timeout ends its children too
    std::vector<char *> args;
    for (const std::string &word : argv)
      args.push_back(const_cast<char *>(word.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipeEnds[1]);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  char buffer[4096];
  for (;;) {
    int waitMs = -1;
    if (timeoutSeconds) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        kill(-child, SIGKILL);
        result.timedOut = true;
        break;
      }
      waitMs = int(std::min<long long>(left.count(), 1000));
    }
    pollfd descriptor{pipeEnds[0], POLLIN, 0};
    int ready = poll(&descriptor, 1, waitMs);
    if (ready < 0 && errno != EINTR)
      break;
    if (ready <= 0)
      continue;
    ssize_t got = read(pipeEnds[0], buffer, sizeof buffer);
    if (got <= 0)
      break;
    result.output.append(buffer, size_t(got));
  }
  close(pipeEnds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  result.started = !(WIFEXITED(status) && WEXITSTATUS(status) == 127 && result.output.empty());
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::optional<std::string> gpuArchitecture() {
  std::optional<std::string> smi = findCudaTool("nvidia-smi");
  if (!smi)
    return std::nullopt;
  CommandResult query = runCommand({*smi, "--query-gpu=compute_cap", "--format=csv,noheader"}, 30);
  if (query.exitCode != 0)
    return std::nullopt;
  // "9.0" -> "sm_90"
  std::string first = query.output.substr(0, query.output.find('\n'));
  size_t dot = first.find('.');
  if (dot == std::string::npos || dot == 0)
    return std::nullopt;
  std::string major = first.substr(0, dot), minor = first.substr(dot + 1, 1);
  for (char c : major + minor)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
  return "sm_" + major + minor;
}

std::vector<std::string> nvccCommand(const std::string &nvcc, const std::string &harnessSource,
                                     const std::string &executable,
                                     const std::string &includeDirectory,
                                     const std::optional<std::string> &architecture,
                                     const std::vector<std::string> &extraArgs) {
  std::vector<std::string> command = {nvcc,        "-std=c++17",  "-O3",
                                      "-lineinfo", "-fmad=false", "-I" + includeDirectory};
  command.insert(command.end(), extraArgs.begin(), extraArgs.end());
  if (architecture)
    command.push_back("-arch=" + *architecture);
  command.insert(command.end(), {"-o", executable, harnessSource});
  return command;
}

std::string shellLine(const std::vector<std::string> &argv) {
  std::string line;
  for (const std::string &word : argv) {
    bool plain =
        !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                "0123456789_-+=/.,:@") == std::string::npos;
    std::string quotedWord = "'";
    for (char c : word)
      quotedWord += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += (line.empty() ? "" : " ") + (plain ? word : quotedWord + "'");
  }
  return line;
}

} // namespace simulee::replay
