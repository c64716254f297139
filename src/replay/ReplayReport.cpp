#include "replay/ReplayReport.h"

#include "report/FindingText.h"

#include <sstream>

namespace simulee::replay {
namespace {

std::string bufferSummary(const BufferComparison &buffer, uint64_t ulpBound) {
  std::ostringstream out;
  out << "'" << buffer.name << "' (" << buffer.sizeBytes << " bytes): ";
  if (buffer.variesAcrossRuns())
    out << "varies across runs (" << buffer.runsDifferingFromFirst << " of " << buffer.runs - 1
        << " later runs differ from the first, first at byte " << buffer.firstRunDifferenceOffset
        << "); ";
  else
    out << "the same in every run; ";
  if (buffer.matchesSimulation()) {
    out << "matches the simulation";
    if (buffer.floating)
      out << (buffer.maxUlp ? " within " + std::to_string(buffer.maxUlp) + " ulp" : " exactly");
  } else {
    out << buffer.elementsDifferingFromSimulation << " element"
        << (buffer.elementsDifferingFromSimulation == 1 ? "" : "s") << " differ from the simulation"
        << (buffer.floating ? " by more than " + std::to_string(ulpBound) + " ulp" : "")
        << " (first at byte " << buffer.firstSimulationDifferenceOffset << ": simulated "
        << buffer.simulatedExample << ", GPU " << buffer.gpuExample << ")";
  }
  return out.str();
}

std::string findingLocation(const ir::Program &program, const detect::Finding &finding) {
  return finding.sites.empty() ? program.path
                               : report::diagnosticPrefix(program, finding.sites[0].instruction);
}

nlohmann::json sourceLineJson(const SourceLine &line) {
  return {{"file", line.file}, {"line", line.line}};
}

} // namespace

void writeReplayText(std::ostream &out, const ir::Program &program,
                     const std::vector<LaunchReplay> &replays) {
  for (const LaunchReplay &replay : replays) {
    out << "replay: kernel '" << replay.kernel << "' " << report::launchText(replay.launch) << "\n";
    out << "  harness: " << replay.directory << "/harness.cu\n";
    if (!replay.ran() && replay.state != RunState::KernelFailed) {
      out << "  not run (" << runStateName(replay.state) << "): " << replay.reason << "\n";
    } else {
      out << "  " << (replay.ran() ? "ran " + std::to_string(replay.runs) + " times" : "ran")
          << " on " << (replay.device.empty() ? "the GPU" : replay.device)
          << (replay.architecture.empty() ? "" : " (" + replay.architecture + ")") << "\n";
      if (replay.state == RunState::KernelFailed)
        out << "  " << replay.reason << "\n";
      for (const BufferComparison &buffer : replay.buffers)
        out << "  buffer " << bufferSummary(buffer, replay.ulpBound) << "\n";
      if (replay.ran() && replay.raceFree)
        out << "  race-free launch: "
            << (replay.matchesSimulation() && !replay.variesAcrossRuns()
                    ? "the GPU computes what the simulator computes"
                    : "the GPU and the simulator disagree")
            << "\n";
      if (!replay.sanitizerNote.empty())
        out << "  sanitizer: " << replay.sanitizerNote << "\n";
      for (size_t h = 0; h < replay.hazards.size(); ++h)
        out << "  " << toolName(replay.hazards[h].tool) << ": " << replay.hazards[h].text
            << (replay.hazardMatched[h] ? "" : " [matches no simulee finding]") << "\n";
    }
    for (const FindingReplay &result : replay.findings)
      out << findingLocation(program, result.finding) << ": "
          << detect::findingKindName(result.finding.kind) << ": " << verdictName(result.verdict)
          << (result.evidence.empty() ? "" : " (" + result.evidence + ")") << "\n";
    if (replay.findings.empty())
      out << "  no findings to replay\n";
  }
}

nlohmann::json replayJson(const ir::Program &program, const std::vector<LaunchReplay> &replays) {
  nlohmann::json list = nlohmann::json::array();
  for (const LaunchReplay &replay : replays) {
    nlohmann::json launch;
    launch["grid"] = {replay.launch.grid.x, replay.launch.grid.y, replay.launch.grid.z};
    launch["block"] = {replay.launch.block.x, replay.launch.block.y, replay.launch.block.z};
    launch["sharedBytes"] = replay.launch.dynamicSharedBytes;
    launch["seed"] = replay.launch.seed;
    launch["args"] = nlohmann::json::object();
    for (const auto &[name, value] : replay.launch.args)
      launch["args"][name] = value;

    nlohmann::json buffers = nlohmann::json::array();
    for (const BufferComparison &buffer : replay.buffers) {
      nlohmann::json entry = {
          {"name", buffer.name},
          {"param", buffer.param},
          {"sizeBytes", buffer.sizeBytes},
          {"floating", buffer.floating},
          {"runsDifferingFromFirst", buffer.runsDifferingFromFirst},
          {"elementsDifferingFromSimulation", buffer.elementsDifferingFromSimulation},
          {"maxUlp", buffer.maxUlp}};
      if (!buffer.matchesSimulation())
        entry["firstDifference"] = {{"offset", buffer.firstSimulationDifferenceOffset},
                                    {"simulated", buffer.simulatedExample},
                                    {"gpu", buffer.gpuExample}};
      buffers.push_back(entry);
    }

    nlohmann::json hazards = nlohmann::json::array();
    for (size_t h = 0; h < replay.hazards.size(); ++h) {
      const Hazard &hazard = replay.hazards[h];
      hazards.push_back({{"tool", toolName(hazard.tool)},
                         {"kind", hazard.kind},
                         {"error", hazard.error},
                         {"first", sourceLineJson(hazard.first)},
                         {"second", sourceLineJson(hazard.second)},
                         {"matched", bool(replay.hazardMatched[h])},
                         {"text", hazard.text}});
    }

    nlohmann::json findings = nlohmann::json::array();
    for (const FindingReplay &result : replay.findings)
      findings.push_back({{"kind", detect::findingKindName(result.finding.kind)},
                          {"location", findingLocation(program, result.finding)},
                          {"message", report::findingMessage(program, result.finding)},
                          {"verdict", verdictName(result.verdict)},
                          {"evidence", result.evidence}});

    list.push_back(
        {{"kernel", replay.kernel},
         {"launch", launch},
         {"directory", replay.directory},
         {"state", runStateName(replay.state)},
         {"reason", replay.reason},
         {"device", replay.device},
         {"architecture", replay.architecture},
         {"runs", replay.runs},
         {"ulpBound", replay.ulpBound},
         {"raceFree", replay.raceFree},
         {"variesAcrossRuns", replay.variesAcrossRuns()},
         {"matchesSimulation", replay.ran() && replay.matchesSimulation()},
         {"buffers", buffers},
         {"sanitizer",
          {{"ran", replay.sanitizerRan}, {"note", replay.sanitizerNote}, {"hazards", hazards}}},
         {"findings", findings}});
  }
  return {{"replays", list}};
}

} // namespace simulee::replay
