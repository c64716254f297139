// What the CLI tests share: running the `simulee` binary with its streams
// and exit status captured, temporary directories, and the corpus and input
// paths.
#pragma once

#include "../support/TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>


namespace simulee::cli_test {

namespace fs = std::filesystem;

// Temporary directories and file reads for the CLI tests.
using simulee::testing::readFile;
using simulee::testing::TempDir;


inline std::string quote(const std::string &word) {
  std::string quoted = "'";
  for (char c : word)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

struct Outcome {
  int status = -1;
  std::string out;
  std::string err;

  // Lines of stderr that start with "simulee: error:".
  std::vector<std::string> errorLines() const {
    std::vector<std::string> lines;
    std::istringstream in(err);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("simulee: error:", 0) == 0)
        lines.push_back(line);
    return lines;
  }
};

inline std::ostream &operator<<(std::ostream &os, const Outcome &o) {
  return os << "exit " << o.status << "\n--- stdout\n" << o.out << "--- stderr\n" << o.err;
}

struct RunSettings {
  std::string environment; // "NAME=VALUE " prefix
  std::string stdoutPath;  // empty: captured
};

// Runs the simulee binary with `args`, capturing both streams and the exit
// status. A 60-second `timeout` guards against hangs: a crash shows as exit
// 128+N, a hang as 124.
inline Outcome simulee(const std::vector<std::string> &args, const RunSettings &settings = {}) {
  TempDir capture;
  std::string command = settings.environment + "timeout 60 " + quote(SIMULEE_BINARY);
  for (const std::string &arg : args)
    command += " " + quote(arg);
  std::string out = settings.stdoutPath.empty() ? capture.file("out") : settings.stdoutPath;
  command += " >" + quote(out) + " 2>" + quote(capture.file("err")) + " </dev/null";
  int raw = std::system(command.c_str());
  Outcome outcome;
  outcome.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  if (settings.stdoutPath.empty())
    outcome.out = readFile(capture.file("out"));
  outcome.err = readFile(capture.file("err"));
  return outcome;
}

inline std::string input(const std::string &name) {
  return std::string(SIMULEE_SOURCE_DIR) + "/tests/cli/inputs/" + name;
}

inline std::string corpus(const std::string &name) {
  return std::string(SIMULEE_SOURCE_DIR) + "/corpus/" + name;
}

inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

// Exit 2 and exactly one error line that mentions every one of `parts`.
inline ::testing::AssertionResult isOneLineError(const Outcome &o,
                                          std::initializer_list<std::string> parts) {
  if (o.status != 2)
    return ::testing::AssertionFailure() << "expected exit 2\n" << o;
  std::vector<std::string> lines = o.errorLines();
  if (lines.size() != 1)
    return ::testing::AssertionFailure() << lines.size() << " error lines, expected 1\n" << o;
  for (const std::string &part : parts)
    if (!contains(lines[0], part))
      return ::testing::AssertionFailure() << "error line lacks '" << part << "'\n" << o;
  return ::testing::AssertionSuccess();
}

// The racy and the clean corpus kernels at their manifests' launches.
inline std::vector<std::string> racyRun(const std::string &format) {
  return {"run",    corpus("reduce_missing_loop_barrier.cu"),
          "--grid", "1",
          "--block", "128",
          "--arg",  "in=random:128",
          "--arg",  "out=zeros:1",
          "--arg",  "n=128",
          "--format", format};
}

} // namespace simulee::cli_test
