#include "report/TextReport.h"

#include "report/FindingRules.h"
#include "report/FindingText.h"
#include "report/SourceFile.h"
#include "report/Summary.h"

#include <cstdio>

namespace simulee::report {

using detect::Finding;

namespace {

// ANSI escapes in clang's palette; empty strings when colour is off.
struct Palette {
  explicit Palette(bool color) : enabled(color) {}
  std::string bold(const std::string &text) const { return wrap("\033[1m", text); }
  std::string warning(const std::string &text) const { return wrap("\033[1;35m", text); }
  std::string note(const std::string &text) const { return wrap("\033[1;36m", text); }
  std::string caret(const std::string &text) const { return wrap("\033[1;32m", text); }

private:
  std::string wrap(const char *escape, const std::string &text) const {
    return enabled ? escape + text + "\033[0m" : text;
  }
  bool enabled;
};

std::string gutter(uint32_t lineNumber) {
  char text[32];
  std::snprintf(text, sizeof(text), "%5u | ", lineNumber);
  return text;
}

// Spaces up to `column` (1-based), keeping the line's tabs so that the caret
// lines up however the terminal expands them.
std::string caretIndent(const std::string &line, uint32_t column) {
  std::string indent;
  for (uint32_t i = 0; i + 1 < column; ++i)
    indent += i < line.size() && line[i] == '\t' ? '\t' : ' ';
  return indent;
}

class TextWriter {
public:
  TextWriter(std::ostream &out, const ReportOptions &options, bool nameKernels)
      : out_(out), palette_(options.color), nameKernels_(nameKernels) {}

  void write(const ir::Program &program, const std::string &kernel, const Finding &finding) {
    uint32_t primary = finding.sites.empty() ? 0 : finding.sites.front().instruction;
    std::string prefix = finding.sites.empty() ? program.path : diagnosticPrefix(program, primary);
    Severity severity = severityOf(finding);
    std::string label = std::string(severityName(severity)) + ":";
    out_ << palette_.bold(prefix + ":") << " "
         << (severity == Severity::Warning ? palette_.warning(label) : palette_.note(label)) << " "
         << palette_.bold(findingMessage(program, finding)) << " [" << ruleId(finding.kind)
         << "]\n";
    if (!finding.sites.empty())
      writeSourceLine(program, primary);
    if (needsDetailNote(finding))
      writeNote(finding.detail);
    if (hasLaunchNote(finding))
      writeNote(launchNote(kernel, finding));
    for (const detect::Repair &repair : finding.repairs)
      writeRepair(repair);
  }

private:
  void writeSourceLine(const ir::Program &program, uint32_t instruction) {
    if (instruction >= program.instructions.size())
      return;
    const ir::SourceLocation &location = program.instructions[instruction].location;
    std::optional<std::string> line = sources_.line(location);
    if (!line)
      return;
    out_ << gutter(location.line) << *line << "\n";
    if (location.column == 0)
      return;
    out_ << "      | " << caretIndent(*line, location.column) << palette_.caret("^") << "\n";
  }

  // The repair and, as a diff against the source, the lines it removes or
  // rewrites (-) and the statement it inserts (+, indented as its line).
  void writeRepair(const detect::Repair &repair) {
    writeNote("proven repair: " + repairText(repair));
    for (const ir::SourceLocation &location : repair.replaced)
      if (std::optional<std::string> line = sources_.line(location))
        out_ << "-" << gutter(location.line).substr(1) << *line << "\n";
    if (repair.inserted.empty() || repair.kind != "insert-barrier")
      return;
    std::optional<std::string> line = sources_.line(repair.at);
    std::string indent;
    if (line)
      indent = line->substr(0, line->find_first_not_of(" \t"));
    out_ << "+" << gutter(repair.at.line).substr(1) << indent << repair.inserted << "\n";
    if (line)
      out_ << " " << gutter(repair.at.line).substr(1) << *line << "\n";
  }

  void writeNote(const std::string &text) { out_ << palette_.note("note:") << " " << text << "\n"; }

  std::string launchNote(const std::string &kernel, const Finding &finding) const {
    std::string note = launchNoteText(finding);
    return nameKernels_ ? "in kernel '" + kernel + "', " + note : note;
  }

  std::ostream &out_;
  Palette palette_;
  bool nameKernels_;
  SourceCache sources_;
};

} // namespace

void writeTextReport(std::ostream &out, const ReportInput &input, const ReportOptions &options) {
  TextWriter writer(out, options, input.kernels.size() > 1);
  for (const KernelFindings &kernel : input.kernels)
    if (kernel.program)
      for (const Finding &finding : kernel.findings)
        writer.write(*kernel.program, kernel.kernel + kernel.parameters, finding);
  // Every kernel's verdict, so that nothing unanalysed can pass for clean.
  for (const KernelFindings &kernel : input.kernels) {
    out << verdictLine(kernel) << "\n";
    for (const std::string &note : kernel.notes)
      out << "note: " << note << "\n";
  }
  out << summaryLine(summarize(input)) << "\n";
}

} // namespace simulee::report
