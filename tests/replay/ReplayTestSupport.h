// Shared by the replay tests: temporary directories, the repository's
// kernels, running the simulee binary, and whether nvcc / a GPU are here.
// Tests that need nvcc skip without it; tests that need a GPU skip without
// one (CI machines have neither).
#pragma once

#include "ir/Loader.h"
#include "replay/Toolchain.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include "../support/TestFiles.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace simulee::replay_test {

namespace fs = std::filesystem;

using simulee::testing::readFile;

// Temporary directories named for these tests.
struct TempDir : simulee::testing::TempDir {
  TempDir() : simulee::testing::TempDir("simulee-replay") {}
};


inline void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

inline std::string sourcePath(const std::string &relative) {
  return std::string(SIMULEE_SOURCE_DIR) + "/" + relative;
}

// Programs compiled once per file for the whole test binary.
inline const ir::Program &programFor(const std::string &relative) {
  static std::map<std::string, std::unique_ptr<ir::Program>> cache;
  auto &slot = cache[relative];
  if (!slot) {
    Result<ir::Program> program = ir::loadProgram(sourcePath(relative));
    if (!program)
      ADD_FAILURE() << program.error().message;
    slot = std::make_unique<ir::Program>(program ? std::move(*program) : ir::Program());
  }
  return *slot;
}

inline bool haveNvcc() { return replay::findCudaTool("nvcc").has_value(); }

// A GPU the CUDA runtime can use: nvidia-smi lists one.
inline bool haveGpu() {
  std::optional<std::string> smi = replay::findCudaTool("nvidia-smi");
  if (!smi)
    return false;
  replay::CommandResult listed = replay::runCommand({*smi, "-L"}, 30);
  return listed.exitCode == 0 && contains(listed.output, "GPU ");
}

struct Outcome {
  int status = -1;
  std::string out, err;
};

inline std::ostream &operator<<(std::ostream &os, const Outcome &o) {
  return os << "exit " << o.status << "\n--- stdout\n" << o.out << "--- stderr\n" << o.err;
}

inline std::string quote(const std::string &word) {
  std::string quoted = "'";
  for (char c : word)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Runs the simulee binary under a timeout; `environment` ("env PATH=...
// CUDA_HOME=...", already quoted) runs it.
inline Outcome simulee(const std::vector<std::string> &args, const std::string &environment = "",
                       unsigned timeoutSeconds = 300) {
  TempDir capture;
  std::string command = "timeout " + std::to_string(timeoutSeconds) + " " + environment + " " +
                        quote(SIMULEE_BINARY);
  for (const std::string &arg : args)
    command += " " + quote(arg);
  command += " >" + quote(capture.file("out")) + " 2>" + quote(capture.file("err")) + " </dev/null";
  int raw = std::system(command.c_str());
  Outcome outcome;
  outcome.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  outcome.out = readFile(capture.file("out"));
  outcome.err = readFile(capture.file("err"));
  return outcome;
}

// A launch file as --save-launch writes it.
inline std::string launchJson(const std::string &kernel, const std::string &grid,
                              const std::string &block, const std::string &args) {
  return "{\"kernel\": \"" + kernel + "\", \"grid\": " + grid + ", \"block\": " + block +
         ", \"sharedBytes\": 0, \"seed\": 1, \"args\": {" + args + "}}";
}

} // namespace simulee::replay_test
