// Numeric options parsed strictly (CLI11 would wrap "-1" into a huge
// unsigned value and accept "nan" inside a range), and the resource option
// `--max-memory SIZE`. main.cpp calls these once after declaring its options.
#pragma once

#include "support/Result.h"

#include <CLI/CLI.hpp>

#include <string>

namespace simulee::cli {

// Adds strict checks to every unsigned and floating option of `app` and its
// subcommands, by name (--budget, --seed, --jobs, --accept, ...).
void requireStrictNumbers(CLI::App &app);

// Adds `--max-memory SIZE` to `app` and each of its subcommands.
void addMaxMemoryOption(CLI::App &app, std::string &maxMemory);

// "8G", "512M", "1048576": sets the process-wide memory limit.
Status applyMaxMemory(const std::string &text);

} // namespace simulee::cli
