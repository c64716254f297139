#include "runtime/Signals.h"

#include "runtime/CallSite.h"
#include "runtime/Runtime.h"

#include <csignal>
#include <cstdio>
#include <cstring>

namespace simulee::runtime {
namespace {

std::atomic<bool> stopFlag{false};
std::atomic<int> stopBy{0};
std::atomic<int> depth{0};

// What the outermost operation works on. The text is copied into fixed
// storage when described; a call is kept as its name and return address and
// put into words only when something crashes.
const char *operationFunction = nullptr;
const void *operationSite = nullptr;
char operationText[256];

void onStop(int signal) {
  stopBy = signal;
  stopFlag = true;
  if (depth == 0) // the program's own code runs: end now
    Runtime::get().endBySignal(signal);
}

void onCrash(int signal) {
  // A second crash, while this one is reported, ends the process plainly.
  for (int crash : {SIGSEGV, SIGBUS, SIGFPE, SIGILL})
    std::signal(crash, SIG_DFL);
  if (depth == 0)
    return; // the program's own crash: its default action when the instruction runs again
  std::string what = operationText;
  if (what.empty() && operationFunction) {
    std::string site = callSiteOf(operationSite);
    what = std::string(operationFunction) + (site.empty() ? "" : " at " + site);
  }
  Runtime::get().crashed(signal, what);
}

void install(int signal, void (*handler)(int)) {
  struct sigaction current;
  if (sigaction(signal, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
      (current.sa_flags & SA_SIGINFO))
    return;
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, nullptr);
}

} // namespace

void installSignalHandlers() {
  for (int signal : {SIGINT, SIGTERM})
    install(signal, onStop);
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL})
    install(signal, onCrash);
}

const std::atomic<bool> &stopRequested() { return stopFlag; }

RuntimeOperation::RuntimeOperation(const char *function, const void *returnAddress)
    : outermost_(depth == 0) {
  if (outermost_) {
    operationFunction = function;
    operationSite = returnAddress;
    operationText[0] = '\0';
  }
  ++depth;
}

void RuntimeOperation::describe(const std::string &what) {
  if (outermost_)
    std::snprintf(operationText, sizeof operationText, "%s", what.c_str());
}

RuntimeOperation::~RuntimeOperation() {
  --depth;
  if (outermost_ && stopFlag)
    Runtime::get().endBySignal(stopBy);
}

} // namespace simulee::runtime
