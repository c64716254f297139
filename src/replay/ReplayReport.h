// Replay results for people (one block of lines per launch, then one line
// per finding with its verdict) and for programs (one JSON document).
#pragma once

#include "ir/Program.h"
#include "replay/Replay.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

namespace simulee::replay {

void writeReplayText(std::ostream &out, const ir::Program &program,
                     const std::vector<LaunchReplay> &replays);

// {"replays": [{kernel, launch, directory, state, reason, device, runs,
//  raceFree, variesAcrossRuns, matchesSimulation, buffers, sanitizer,
//  findings: [{kind, location, message, verdict, evidence}]}]}
nlohmann::json replayJson(const ir::Program &program, const std::vector<LaunchReplay> &replays);

} // namespace simulee::replay
