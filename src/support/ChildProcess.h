// Running a piece of work in a forked child process, so that a crash or a
// hang inside code that is not hardened against hostile input (LLVM's
// bitcode reader) ends in an error here instead of taking simulee down.
#pragma once

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <poll.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

// Under a sanitizer runtime (the fuzzer, CI's sanitizer leg): lets the child
// drop the fuzzer's death callback, which would record the child's crash as
// the fuzzer's own.
extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace simulee {

struct ChildOutcome {
  enum class Kind {
    Finished, // the work returned; `message` is what it returned
    Failed,   // the child exited nonzero; `message` is what it wrote, if anything
    Crashed,  // killed by a signal (`signal`) or a sanitizer's report
    TimedOut, // still running after the time given; killed
    NoChild,  // fork or pipe failed (`message` says why)
  };
  Kind kind = Kind::NoChild;
  std::string message;
  int signal = 0;
};

namespace child_process_detail {

inline void writeAll(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    done += size_t(n);
  }
}

} // namespace child_process_detail

// Runs `work` in a child process with standard output and error discarded;
// its returned text comes back through a pipe whose write end the child
// also passes to `work` (for handlers that end the process early and want to
// say why). The parent waits at most `timeoutSeconds`. The child ends with
// _exit: no destructor or atexit handler of this process runs twice.
inline ChildOutcome runInChild(const std::function<std::string(int reportFd)> &work,
                               unsigned timeoutSeconds) {
  ChildOutcome outcome;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    outcome.message = std::string("cannot create a pipe: ") + std::strerror(errno);
    return outcome;
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    outcome.message = std::string("cannot fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return outcome;
  }
  if (pid == 0) {
    ::close(fds[0]);
    if (&__sanitizer_set_death_callback)
      __sanitizer_set_death_callback(nullptr);
    // A crash ends the child at once: a handler the host process installed
    // (Python's faulthandler, LLVM's stack printer) would report it as the
    // host's own crash.
    for (int crash : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP})
      std::signal(crash, SIG_DFL);
    int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      ::dup2(devnull, STDOUT_FILENO);
      ::dup2(devnull, STDERR_FILENO);
    }
    child_process_detail::writeAll(fds[1], work(fds[1]));
    ::_exit(0);
  }
  ::close(fds[1]);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  bool timedOut = false;
  char chunk[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    pollfd readable{fds[0], POLLIN, 0};
    int ready = ::poll(&readable, 1, int(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR)
      break;
    if (ready <= 0)
      continue;
    ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; // the child closed the pipe: it has ended
    outcome.message.append(chunk, size_t(n));
  }
  ::close(fds[0]);
  if (timedOut)
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut)
    outcome.kind = ChildOutcome::Kind::TimedOut;
  else if (WIFSIGNALED(status)) {
    outcome.kind = ChildOutcome::Kind::Crashed;
    outcome.signal = WTERMSIG(status);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    outcome.kind = ChildOutcome::Kind::Finished;
  else
    outcome.kind = outcome.message.empty() ? ChildOutcome::Kind::Crashed
                                           : ChildOutcome::Kind::Failed;
  return outcome;
}

} // namespace simulee
