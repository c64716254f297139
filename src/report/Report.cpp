#include "report/Report.h"

#include "report/JsonReport.h"
#include "report/SarifReport.h"
#include "report/TextReport.h"

namespace simulee::report {

std::optional<Format> parseFormat(std::string_view name) {
  if (name == "text")
    return Format::Text;
  if (name == "json")
    return Format::Json;
  if (name == "sarif")
    return Format::Sarif;
  return std::nullopt;
}

void writeReport(std::ostream &out, Format format, const ReportInput &input,
                 const ReportOptions &options) {
  switch (format) {
  case Format::Text:
    writeTextReport(out, input, options);
    return;
  case Format::Json:
    writeJsonReport(out, input);
    return;
  case Format::Sarif:
    writeSarifReport(out, input, options);
    return;
  }
}

} // namespace simulee::report
