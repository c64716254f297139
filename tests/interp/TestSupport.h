// Helpers for the interpreter's kernel-output tests: loading the test kernels
// once per optimisation level, launching them, and moving typed host arrays in
// and out of the byte buffers the interpreter works on.
#pragma once

#include "interp/Interpreter.h"
#include "interp/Launch.h"
#include "ir/Loader.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace simulee::interp_test {

template <class T> std::vector<uint8_t> bytesOf(const std::vector<T> &values) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty())
    std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <class T> std::vector<T> valuesOf(const std::vector<uint8_t> &bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty())
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// A scalar kernel argument: the raw bits of its type, zero-extended.
template <class T> interp::ArgumentValue scalarArg(T value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8);
  if constexpr (sizeof(T) == 8)
    return interp::ArgumentValue::scalar(std::bit_cast<uint64_t>(value));
  else if constexpr (sizeof(T) == 4)
    return interp::ArgumentValue::scalar(std::bit_cast<uint32_t>(value));
  else if constexpr (sizeof(T) == 2)
    return interp::ArgumentValue::scalar(std::bit_cast<uint16_t>(value));
  else
    return interp::ArgumentValue::scalar(std::bit_cast<uint8_t>(value));
}

template <class T> interp::ArgumentValue bufferArg(const std::vector<T> &values) {
  return interp::ArgumentValue::buffer(bytesOf(values));
}

inline std::string kernelPath(const std::string &fileName) {
  return std::string(SIMULEE_SOURCE_DIR) + "/tests/interp/kernels/" + fileName;
}

// Compiles tests/interp/kernels/<fileName> at `optLevel` once per test
// program; later calls return the same Program. Null (with a test failure
// recorded) when it does not load.
inline const ir::Program *loadTestProgram(const std::string &fileName, int optLevel) {
  static std::map<std::pair<std::string, int>, ir::Program> cache;
  auto key = std::make_pair(fileName, optLevel);
  if (auto found = cache.find(key); found != cache.end())
    return &found->second;
  ir::LoadOptions options;
  options.optLevel = optLevel;
  Result<ir::Program> program = ir::loadProgram(kernelPath(fileName), options);
  if (!program.ok()) {
    ADD_FAILURE() << fileName << " -O" << optLevel << ": " << program.error().message;
    return nullptr;
  }
  return &cache.emplace(key, std::move(*program)).first->second;
}

// Runs kernel `kernelName` of `fileName`; buffers in `args` are updated.
inline ::testing::AssertionResult launch(const std::string &fileName, int optLevel,
                                         const std::string &kernelName, interp::Dim3 grid,
                                         interp::Dim3 block,
                                         std::vector<interp::ArgumentValue> &args,
                                         uint32_t dynamicSharedBytes = 0) {
  const ir::Program *program = loadTestProgram(fileName, optLevel);
  if (!program)
    return ::testing::AssertionFailure() << "could not load " << fileName;
  const ir::KernelInfo *kernel = program->findKernel(kernelName);
  if (!kernel)
    return ::testing::AssertionFailure() << "no kernel '" << kernelName << "' in " << fileName;
  interp::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  config.dynamicSharedBytes = dynamicSharedBytes;
  Result<interp::RunStats> stats = interp::runKernel(*program, *kernel, config, args);
  if (!stats.ok())
    return ::testing::AssertionFailure() << kernelName << ": " << stats.error().message;
  return ::testing::AssertionSuccess();
}

// Element-wise comparison; `tolerance` is relative to max(1, |expected|).
template <class T>
::testing::AssertionResult matches(const std::vector<T> &expected, const std::vector<T> &actual,
                                   double tolerance = 0.0) {
  if (expected.size() != actual.size())
    return ::testing::AssertionFailure()
           << "size " << actual.size() << ", expected " << expected.size();
  for (size_t i = 0; i < expected.size(); ++i) {
    double want = static_cast<double>(expected[i]);
    double got = static_cast<double>(actual[i]);
    double allowed = tolerance * std::max(1.0, std::fabs(want));
    if (std::fabs(want - got) > allowed || (std::isnan(got) && !std::isnan(want)))
      return ::testing::AssertionFailure()
             << "element " << i << " is " << got << ", expected " << want;
  }
  return ::testing::AssertionSuccess();
}

} // namespace simulee::interp_test
