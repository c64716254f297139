#include "detect/RedundantBarrierDetector.h"

#include "detect/DataRaceDetector.h"

#include <set>
#include <string>

namespace simulee::detect {

bool mergeWouldRace(const memmodel::BarrierCrossing &crossing, bool independentThreads) {
  if (!actionsConflict(crossing.earlierAction, crossing.laterAction))
    return false;
  if (!crossing.sameWarp)
    return true;
  memmodel::WarpOrdering ordering{true, crossing.commonActiveStep, crossing.warpSyncBetween,
                                  false};
  // A barrier lies between the two accesses, so they are never one step.
  return sameWarpAccessesRace(ordering, /*oneStoreOneStep=*/false, independentThreads);
}

bool isNeeded(const memmodel::BarrierInstance &instance, bool independentThreads) {
  for (const memmodel::BarrierCrossing &crossing : instance.crossings.members())
    if (mergeWouldRace(crossing, independentThreads))
      return true;
  return false;
}

RedundantBarrierDetector::RedundantBarrierDetector(std::vector<uint32_t> barrierInstructions,
                                                   std::vector<uint32_t> carryingValue) {
  for (uint32_t instruction : barrierInstructions)
    history_[instruction];
  for (uint32_t instruction : carryingValue)
    history_[instruction].needed = true;
}

void RedundantBarrierDetector::merge(const RedundantBarrierDetector &other) {
  for (const auto &[instruction, theirs] : other.history_) {
    BarrierHistory &mine = history_[instruction];
    if (!mine.executed && theirs.executed) {
      mine.exampleBlock = theirs.exampleBlock;
      mine.exampleLaunch = theirs.exampleLaunch;
    }
    mine.executed |= theirs.executed;
    mine.needed |= theirs.needed;
    mine.instances += theirs.instances;
    mine.launches += theirs.launches;
  }
}

void RedundantBarrierDetector::addLaunch(const memmodel::MemoryModel &model,
                                         const LaunchRecord &launch) {
  bool independentThreads = model.options().independentThreads;
  std::set<uint32_t> executedHere;
  for (const memmodel::BarrierInstance &instance : model.barrierInstances()) {
    bool needed = isNeeded(instance, independentThreads);
    for (uint32_t instruction : instance.barrierInstrs) {
      BarrierHistory &history = history_[instruction];
      if (!history.executed) {
        history.executed = true;
        history.exampleBlock = instance.exampleBlock;
        history.exampleLaunch = launch;
      }
      history.needed |= needed;
      history.instances += instance.count;
      if (executedHere.insert(instruction).second)
        ++history.launches;
    }
  }
}

std::vector<Finding> RedundantBarrierDetector::findings() const {
  std::vector<Finding> findings;
  for (const auto &[instruction, history] : history_) {
    if (history.executed && history.needed)
      continue;
    Finding finding;
    finding.sites = {Site{instruction, interp::AccessKind::Read, false, 0, history.exampleBlock}};
    if (!history.executed) {
      finding.kind = FindingKind::UnreachedBarrier;
      finding.detail = "no simulated launch executed this barrier";
    } else {
      finding.kind = FindingKind::RedundantBarrier;
      finding.detail = "removing it creates no race in any of its " +
                       std::to_string(history.instances) + " executed instances (" +
                       std::to_string(history.launches) +
                       (history.launches == 1 ? " launch)" : " launches)");
      finding.launch = history.exampleLaunch;
    }
    findings.push_back(std::move(finding));
  }
  return findings;
}

} // namespace simulee::detect
