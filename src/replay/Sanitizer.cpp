#include "replay/Sanitizer.h"

#include <filesystem>
#include <regex>
#include <sstream>

namespace simulee::replay {
namespace {

// One report line without the "=========" prefix and the indentation.
std::string_view body(std::string_view line) {
  size_t start = 0;
  while (start < line.size() && (line[start] == '=' || line[start] == ' ' || line[start] == '\t'))
    ++start;
  size_t end = line.size();
  while (end > start && (line[end - 1] == '\r' || line[end - 1] == ' '))
    --end;
  return line.substr(start, end - start);
}

std::vector<std::string_view> bodies(std::string_view output) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; start <= output.size();) {
    size_t end = output.find('\n', start);
    if (end == std::string_view::npos)
      end = output.size();
    if (output.substr(start, 9) == "=========")
      lines.push_back(body(output.substr(start, end - start)));
    start = end + 1;
  }
  return lines;
}

// "... in /path/k.cu:12:kernel(int*) [24 hazards]" -> {"/path/k.cu", 12}. An
// access without line information ("in kernel(int*)") has line 0.
SourceLine locationAfterIn(const std::string &text) {
  static const std::regex pattern(R"( in (.+?):(\d+):)");
  std::smatch match;
  if (!std::regex_search(text, match, pattern))
    return {};
  return SourceLine{match[1].str(), uint32_t(std::stoul(match[2].str()))};
}

bool isErrorSeverity(const std::string &severity) {
  return severity == "Error" || severity == "ERROR";
}

std::string baseName(const std::string &path) {
  return std::filesystem::path(path).filename().string();
}

bool sameLine(const SourceLine &hazard, const ir::SourceLocation &location) {
  return hazard.line != 0 && hazard.line == location.line &&
         baseName(hazard.file) == baseName(location.file);
}

const ir::SourceLocation *siteLocation(const detect::Finding &finding, size_t site,
                                       const ir::Program &program) {
  if (site >= finding.sites.size() ||
      finding.sites[site].instruction >= program.instructions.size())
    return nullptr;
  const ir::SourceLocation &location =
      program.instructions[finding.sites[site].instruction].location;
  return location.known() ? &location : nullptr;
}

} // namespace

std::vector<Hazard> parseRacecheck(std::string_view output) {
  static const std::regex analysisHeader(
      R"(^(\w+): Race reported between (Read|Write) access at \S+ in .*)");
  static const std::regex analysisOther(R"(^and (Read|Write) access at \S+ in .*)");
  static const std::regex hazardHeader(R"(^(\w+): Potential (\w+) hazard detected at .*)");
  static const std::regex hazardAccess(R"(^(Read|Write) Thread \([0-9, ]+\) at \S+ in .*)");

  std::vector<Hazard> hazards;
  enum class Expect { Nothing, OtherAccesses, HazardAccesses } expect = Expect::Nothing;
  Hazard current;
  int accessesSeen = 0;
  for (std::string_view view : bodies(output)) {
    std::string line(view);
    std::smatch match;
    if (std::regex_match(line, match, analysisHeader)) {
      current = Hazard{};
      current.tool = Hazard::Tool::Racecheck;
      current.kind = "race";
      current.error = isErrorSeverity(match[1].str());
      current.first = locationAfterIn(line);
      current.text = line;
      expect = Expect::OtherAccesses;
    } else if (expect == Expect::OtherAccesses && std::regex_match(line, analysisOther)) {
      Hazard pair = current;
      pair.second = locationAfterIn(line);
      hazards.push_back(pair);
    } else if (std::regex_match(line, match, hazardHeader)) {
      current = Hazard{};
      current.tool = Hazard::Tool::Racecheck;
      current.kind = match[2].str();
      current.error = isErrorSeverity(match[1].str());
      current.text = line;
      accessesSeen = 0;
      expect = Expect::HazardAccesses;
    } else if (expect == Expect::HazardAccesses && std::regex_match(line, hazardAccess)) {
      (accessesSeen == 0 ? current.first : current.second) = locationAfterIn(line);
      if (++accessesSeen == 2) {
        hazards.push_back(current);
        expect = Expect::Nothing;
      }
    } else if (expect == Expect::OtherAccesses) {
      expect = Expect::Nothing;
    }
  }
  return hazards;
}

namespace {

// Reports of one header line then an "at ... in file:line" site line, as
// synccheck and memcheck write them; `kindOf` names a report from its header.
std::vector<Hazard> parseHeaderThenSite(std::string_view output, const std::regex &header,
                                        Hazard::Tool tool,
                                        std::string (*kindOf)(const std::smatch &)) {
  static const std::regex site(R"(^at \S+ in .*)");
  std::vector<Hazard> hazards;
  bool expectSite = false;
  Hazard current;
  for (std::string_view view : bodies(output)) {
    std::string line(view);
    std::smatch match;
    if (std::regex_match(line, match, header)) {
      current = Hazard{};
      current.tool = tool;
      current.kind = kindOf(match);
      current.text = line;
      expectSite = true;
    } else if (expectSite && std::regex_match(line, site)) {
      current.first = locationAfterIn(line);
      current.second = current.first;
      hazards.push_back(current);
      expectSite = false;
    }
  }
  return hazards;
}

} // namespace

std::vector<Hazard> parseSynccheck(std::string_view output) {
  static const std::regex header(R"(^(?:\w+: )?(\w+) error detected\. (.*))");
  return parseHeaderThenSite(output, header, Hazard::Tool::Synccheck,
                             [](const std::smatch &match) { return match[2].str(); });
}

std::vector<Hazard> parseMemcheck(std::string_view output) {
  static const std::regex header(R"(^Invalid (\S+ )?(read|write) of size \d+ bytes?.*)");
  return parseHeaderThenSite(output, header, Hazard::Tool::Memcheck, [](const std::smatch &match) {
    return match[1].str() + match[2].str();
  });
}

bool hazardMatches(const Hazard &hazard, const detect::Finding &finding,
                   const ir::Program &program) {
  const ir::SourceLocation *first = siteLocation(finding, 0, program);
  if (!first)
    return false;
  if (hazard.tool == Hazard::Tool::Synccheck)
    return finding.kind == detect::FindingKind::BarrierDivergence && sameLine(hazard.first, *first);
  if (hazard.tool == Hazard::Tool::Memcheck)
    return finding.kind == detect::FindingKind::OutOfBounds && sameLine(hazard.first, *first);
  if (finding.kind != detect::FindingKind::DataRace)
    return false;
  const ir::SourceLocation *second = siteLocation(finding, 1, program);
  if (!second)
    return false;
  return (sameLine(hazard.first, *first) && sameLine(hazard.second, *second)) ||
         (sameLine(hazard.first, *second) && sameLine(hazard.second, *first));
}

const char *toolName(Hazard::Tool tool) {
  switch (tool) {
  case Hazard::Tool::Racecheck:
    return "racecheck";
  case Hazard::Tool::Synccheck:
    return "synccheck";
  case Hazard::Tool::Memcheck:
    return "memcheck";
  }
  return "?";
}

} // namespace simulee::replay
