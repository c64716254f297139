// How simulee exec's runtime ends on a signal. SIGINT and SIGTERM (Ctrl-C, a
// timeout) stop the launch under way and write the report of every launch
// judged so far before the program ends by the signal. A crash (SIGSEGV,
// SIGBUS, SIGFPE, SIGILL) while the runtime works on a call or a launch is an
// error that names it, never a bare crash; one in the program's own code
// stays the program's.
#pragma once

#include <atomic>
#include <string>

namespace simulee::runtime {

// Once, when the runtime starts: a handler for each signal still at its
// default action (a program's own handler, installed before, wins).
void installSignalHandlers();

// Set by SIGINT or SIGTERM: launches poll it and stop.
const std::atomic<bool> &stopRequested();

// While alive, the runtime works on a call of `function` made at
// `returnAddress` (or, once described, on a launch): a crash is reported as
// the runtime's, naming it, and a stop signal that came meanwhile takes
// effect when the outermost one ends.
class RuntimeOperation {
public:
  RuntimeOperation(const char *function, const void *returnAddress);
  ~RuntimeOperation();
  RuntimeOperation(const RuntimeOperation &) = delete;
  RuntimeOperation &operator=(const RuntimeOperation &) = delete;

  // Names the operation in words ("the 3rd launch of 'scale' at main.cu:40").
  void describe(const std::string &what);

private:
  bool outermost_;
};

} // namespace simulee::runtime
