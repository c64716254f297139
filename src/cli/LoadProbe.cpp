#include "cli/LoadProbe.h"

#include "support/MemoryLimit.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <vector>

extern char **environ;

namespace simulee::cli {

std::optional<std::string> probeLoad(const std::string &self, const std::string &file) {
  int pipeFds[2];
  if (pipe2(pipeFds, O_CLOEXEC) != 0)
    return std::nullopt; // no probe: load in process as before
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDERR_FILENO);
  std::string memory = std::to_string(memoryLimitBytes());
  std::vector<std::string> words = {self, "list", file, "--max-memory", memory};
  std::vector<char *> argv;
  for (std::string &word : words)
    argv.push_back(word.data());
  argv.push_back(nullptr);
  pid_t child = 0;
  int spawned = posix_spawn(&child, self.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipeFds[1]);
  if (spawned != 0) {
    close(pipeFds[0]);
    return std::nullopt;
  }
  std::string errors;
  char chunk[4096];
  for (ssize_t n; (n = read(pipeFds[0], chunk, sizeof chunk)) != 0;) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      break;
    if (errors.size() < 65536)
      errors.append(chunk, size_t(n));
  }
  close(pipeFds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    return file + ": crashed while loading (signal " + std::to_string(WTERMSIG(status)) + ", " +
           strsignal(WTERMSIG(status)) + "); please report it with this file";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return std::nullopt;
  // An error: the child's first line, without its "simulee: error: " prefix.
  std::string line = errors.substr(0, errors.find('\n'));
  const std::string prefix = "simulee: error: ";
  if (line.rfind(prefix, 0) == 0)
    line = line.substr(prefix.size());
  return line.empty() ? file + ": cannot be loaded (exit " +
                            std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")"
                      : line;
}

} // namespace simulee::cli
