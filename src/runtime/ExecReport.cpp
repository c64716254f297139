#include "runtime/ExecReport.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace simulee::runtime {
namespace {

using Json = nlohmann::ordered_json;
constexpr const char *kHostRule = "host-api-error";

std::string hostLine(const HostFinding &finding) {
  return (finding.site.empty() ? std::string("<program>") : finding.site) +
         ": error: " + finding.function + ": " + finding.message +
         (finding.times > 1 ? " (" + std::to_string(finding.times) + " times)" : "") + " [" +
         kHostRule + "]";
}

Json hostJson(const HostFinding &finding) {
  return Json{{"kind", kHostRule},
              {"function", finding.function},
              {"site", finding.site},
              {"message", finding.message},
              {"times", finding.times}};
}

Json hostSarif(const HostFinding &finding) {
  Json result{{"ruleId", kHostRule},
              {"level", "error"},
              {"message", {{"text", finding.function + ": " + finding.message}}}};
  size_t colon = finding.site.rfind(':');
  if (colon != std::string::npos)
    result["locations"] =
        Json::array({{{"physicalLocation",
                       {{"artifactLocation", {{"uri", finding.site.substr(0, colon)}}},
                        {"region", {{"startLine", std::stoi(finding.site.substr(colon + 1))}}}}}}});
  return result;
}

} // namespace

std::string execReport(report::Format format, const std::vector<report::KernelFindings> &kernels,
                       const std::vector<HostFinding> &hostFindings, bool color) {
  report::ReportInput input;
  input.kernels = kernels;
  report::ReportOptions options;
  options.color = color;
  std::ostringstream out;
  if (format == report::Format::Text) {
    for (const HostFinding &finding : hostFindings)
      out << hostLine(finding) << "\n";
    if (!kernels.empty())
      report::writeReport(out, format, input, options);
    else
      out << "simulee exec: no kernel launch was simulated\n";
    if (!hostFindings.empty())
      out << hostFindings.size() << " host API error" << (hostFindings.size() == 1 ? "" : "s")
          << " (" << kHostRule << ")\n";
    return out.str();
  }
  report::writeReport(out, format, input, options);
  Json document = Json::parse(out.str(), nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded())
    return out.str();
  if (format == report::Format::Json) {
    Json host = Json::array();
    for (const HostFinding &finding : hostFindings)
      host.push_back(hostJson(finding));
    document["hostFindings"] = host;
  } else if (document.contains("runs") && !document["runs"].empty()) {
    for (const HostFinding &finding : hostFindings)
      document["runs"][0]["results"].push_back(hostSarif(finding));
  }
  return document.dump(2) + "\n";
}

} // namespace simulee::runtime
