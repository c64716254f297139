// The report part's entry point: findings of one or more kernels, written as
// compiler-style text, one JSON document, or SARIF 2.1.0.
#pragma once

#include "detect/Finding.h"
#include "ir/Program.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace simulee::report {

inline constexpr const char *kToolName = "simulee";
inline constexpr const char *kToolVersion = "0.1.0";

enum class Format { Text, Json, Sarif };

// "text", "json" or "sarif"; nullopt for anything else.
std::optional<Format> parseFormat(std::string_view name);

// The findings of one kernel; instruction ids in them index `program`.
struct KernelFindings {
  const ir::Program *program = nullptr;
  std::string kernel; // source name, e.g. "reduce"
  std::vector<detect::Finding> findings;
};

// Everything one report covers: several kernels, possibly of several files.
struct ReportInput {
  std::vector<KernelFindings> kernels;
};

struct ReportOptions {
  bool color = false; // ANSI colours in text; the CLI turns them on for terminals
  // SARIF artifact URIs are made relative to this directory (%SRCROOT%);
  // empty = the current directory.
  std::filesystem::path sourceRoot;
};

void writeReport(std::ostream &out, Format format, const ReportInput &input,
                 const ReportOptions &options = {});

} // namespace simulee::report
