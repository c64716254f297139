// Kernel arguments from the user's words: `--arg NAME=VALUE` where VALUE is a
// scalar, `@PATH` (a buffer read from a raw binary file), `zeros:N` or
// `random:N` (N elements of the pointee type). Pointer parameters not given
// get an automatic buffer, large enough for the launch, with seeded contents.
#pragma once

#include "detect/Finding.h"
#include "interp/Launch.h"
#include "ir/Program.h"
#include "support/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace simulee::session {

struct ArgumentSpec {
  std::string name; // source name, or a 0-based position ("1")
  std::string value;
  // Buffer contents given directly (the Python API's numpy arrays); `value`
  // then only describes them in reports ("array:N").
  std::optional<std::vector<uint8_t>> bytes = std::nullopt;
};

// Parses "NAME=VALUE".
Result<ArgumentSpec> parseArgumentSpec(const std::string &text);

// Index of the parameter `name` names (source name or position).
Result<size_t> findParameter(const ir::KernelInfo &kernel, const std::string &name);

// Number of elements an automatic buffer gets: enough for every thread of the
// launch, for the largest integer argument, and for a matrix (the product of
// the two largest integer arguments, or the largest squared when the kernel
// is two-dimensional), with headroom; capped at 2^22.
uint64_t automaticElements(const ir::KernelInfo &kernel, const interp::LaunchConfig &config,
                           const std::vector<uint64_t> &positiveIntArguments);

struct BuiltArguments {
  std::vector<interp::ArgumentValue> values;
  // name -> value as the user would write it, for reports and --save-launch.
  std::vector<std::pair<std::string, std::string>> record;
};

// Builds one value per parameter. `elementCounts` (optional, by parameter
// index, 0 = automatic) overrides the automatic buffer size.
Result<BuiltArguments> buildArguments(const ir::KernelInfo &kernel,
                                      const interp::LaunchConfig &config,
                                      const std::vector<ArgumentSpec> &specs, uint64_t seed,
                                      const std::vector<uint64_t> &elementCounts = {});

// Parses a scalar for a parameter of the given kind and width.
Result<uint64_t> parseScalar(const ir::ParamInfo &param, const std::string &text);

} // namespace simulee::session
