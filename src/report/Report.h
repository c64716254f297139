// The report part's entry point: findings of one or more kernels, written as
// compiler-style text, one JSON document, or SARIF 2.1.0.
#pragma once

#include "detect/Finding.h"
#include "detect/Verdict.h"
#include "ir/Program.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simulee::report {

inline constexpr const char *kToolName = "simulee";
inline constexpr const char *kToolVersion = "0.1.0";

enum class Format { Text, Json, Sarif };

// "text", "json" or "sarif"; nullopt for anything else.
std::optional<Format> parseFormat(std::string_view name);

// The findings and verdict of one kernel; instruction ids in them index
// `program`. A file that could not be loaded is one entry with no program and
// no kernel, verdict error.
struct KernelFindings {
  KernelFindings() = default;
  KernelFindings(const ir::Program *program, std::string kernel,
                 std::vector<detect::Finding> findings = {})
      : program(program), kernel(std::move(kernel)), findings(std::move(findings)) {}

  const ir::Program *program = nullptr;
  std::string kernel; // source name, e.g. "reduce"
  // The kernel's parameter types ("(float*, int)"), where the file has
  // other kernels of the same name (overloads) to tell it from.
  std::string parameters;
  std::vector<detect::Finding> findings;
  // Unset: derived from the findings (findings or clean).
  std::optional<detect::Verdict> verdict;
  detect::LaunchCounts launches;
  std::string cause; // error: why; inconclusive: the first failed launch's error
  std::string file;  // the analysed file; program->path when empty
  // The host code's call sites the search started from; empty = free search.
  std::vector<detect::LaunchOrigin> callSites;
  // Where the judged launches came from; unset when none was judged or run.
  std::optional<detect::Provenance> provenance;
  // What the analysis assumed (ir::KernelInfo::notes), shown with the verdict.
  std::vector<std::string> notes;

  const std::string &path() const { return file.empty() && program ? program->path : file; }
  detect::Verdict finalVerdict() const;
};

// Everything one report covers: several kernels, possibly of several files.
struct ReportInput {
  std::vector<KernelFindings> kernels;
};

// The verdict of a whole report, as the exit status states it: findings when
// any kernel has them; error when every entry is an error; inconclusive when
// some kernel is inconclusive or an error; clean only when all are clean or
// not launched (not launched when all are).
detect::Verdict overallVerdict(const ReportInput &input);

struct ReportOptions {
  bool color = false; // ANSI colours in text; the CLI turns them on for terminals
  // SARIF artifact URIs are made relative to this directory (%SRCROOT%);
  // empty = the current directory.
  std::filesystem::path sourceRoot;
};

void writeReport(std::ostream &out, Format format, const ReportInput &input,
                 const ReportOptions &options = {});

} // namespace simulee::report
