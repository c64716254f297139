#include "cli/StrictOptions.h"

#include "support/MemoryLimit.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace simulee::cli {
namespace {

bool parseDecimal(const std::string &text, uint64_t &value) {
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  return !text.empty() && ec == std::errc() && ptr == end;
}

std::string checkUnsigned(std::string &text) {
  uint64_t value;
  if (!parseDecimal(text, value))
    return "expected a non-negative integer below 2^64, got '" + text + "'";
  return "";
}

std::string checkFinite(std::string &text) {
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    return "expected a finite number, got '" + text + "'";
  return "";
}

} // namespace

void requireStrictNumbers(CLI::App &app) {
  static const CLI::Validator isUnsigned(checkUnsigned, "UINT");
  static const CLI::Validator isFinite(checkFinite, "NUMBER");
  for (const char *name : {"--budget", "--seed", "--shared-bytes", "--jobs", "--max-threads",
                           "--population", "--generations"})
    if (CLI::Option *option = app.get_option_no_throw(name))
      option->check(isUnsigned);
  for (const char *name : {"--accept", "--launch-seconds"})
    if (CLI::Option *option = app.get_option_no_throw(name))
      option->check(isFinite);
  for (CLI::App *sub : app.get_subcommands(std::function<bool(CLI::App *)>{}))
    requireStrictNumbers(*sub);
}

void addMaxMemoryOption(CLI::App &app, std::string &maxMemory) {
  const char *help = "Memory the simulation may take: bytes, or with a K/M/G suffix (default: "
                     "half of the machine's memory)";
  app.add_option("--max-memory", maxMemory, help);
  for (CLI::App *sub : app.get_subcommands(std::function<bool(CLI::App *)>{}))
    sub->add_option("--max-memory", maxMemory, help);
}

Status applyMaxMemory(const std::string &text) {
  if (text.empty())
    return Ok{};
  std::string digits = text;
  uint64_t scale = 1;
  switch (digits.empty() ? '\0' : digits.back()) {
  case 'K':
  case 'k':
    scale = uint64_t(1) << 10;
    break;
  case 'M':
  case 'm':
    scale = uint64_t(1) << 20;
    break;
  case 'G':
  case 'g':
    scale = uint64_t(1) << 30;
    break;
  default:
    break;
  }
  if (scale != 1)
    digits.pop_back();
  uint64_t value;
  if (!parseDecimal(digits, value) || value == 0 || saturatingMultiply(value, scale) == UINT64_MAX)
    return makeError("--max-memory '" + text + "': expected a positive size (bytes, or N[K|M|G])");
  setMemoryLimitBytes(value * scale);
  return Ok{};
}

} // namespace simulee::cli
