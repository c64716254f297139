#include "detect/RedundantBarrierDetector.h"

#include "detect/DataRaceDetector.h"

#include <algorithm>
#include <set>
#include <string>

namespace simulee::detect {

bool mergeWouldRace(const memmodel::BarrierCrossing &crossing) {
  if (!actionsConflict(crossing.earlierAction, crossing.laterAction))
    return false;
  if (!crossing.sameWarp)
    return true;
  memmodel::WarpOrdering ordering{true, crossing.commonActiveStep, crossing.warpSyncBetween,
                                  false};
  // A barrier lies between the two accesses, so they are never one step.
  return sameWarpAccessesRace(ordering, /*oneStoreOneStep=*/false, /*independentThreads=*/true);
}

bool isNeeded(const memmodel::BarrierInstance &instance) {
  for (const memmodel::BarrierCrossing &crossing : instance.crossings.members())
    if (mergeWouldRace(crossing))
      return true;
  return false;
}

RedundantBarrierDetector::RedundantBarrierDetector(std::vector<uint32_t> barrierInstructions,
                                                   std::vector<uint32_t> required) {
  for (uint32_t instruction : barrierInstructions)
    history_[instruction].listed = true;
  for (uint32_t instruction : required)
    history_[instruction].needed = true;
}

void RedundantBarrierDetector::merge(const RedundantBarrierDetector &other) {
  for (const auto &[instruction, theirs] : other.history_) {
    BarrierHistory &mine = history_[instruction];
    bool takeExample = (!mine.executed && theirs.executed) ||
                       (mine.evidenceLaunches == 0 && theirs.evidenceLaunches > 0);
    if (takeExample) {
      mine.exampleBlock = theirs.exampleBlock;
      mine.exampleLaunch = theirs.exampleLaunch;
    }
    mine.executed |= theirs.executed;
    mine.needed |= theirs.needed;
    mine.timed |= theirs.timed;
    mine.listed |= theirs.listed;
    mine.instances += theirs.instances;
    mine.evidenceInstances += theirs.evidenceInstances;
    mine.launches += theirs.launches;
    mine.evidenceLaunches += theirs.evidenceLaunches;
    mine.orderingInstances += theirs.orderingInstances;
    mine.evidenceShapes.insert(theirs.evidenceShapes.begin(), theirs.evidenceShapes.end());
  }
  launches_ += other.launches_;
}

void RedundantBarrierDetector::addLaunch(const memmodel::MemoryModel &model,
                                         const LaunchRecord &launch) {
  ++launches_;
  std::set<uint32_t> executedHere, evidenceHere;
  for (const memmodel::BarrierInstance &instance : model.barrierInstances()) {
    bool needed = isNeeded(instance);
    for (uint32_t instruction : instance.barrierInstrs) {
      BarrierHistory &history = history_[instruction];
      bool firstEvidence = instance.evidence && history.evidenceLaunches == 0 &&
                           !evidenceHere.count(instruction);
      if (!history.executed || firstEvidence) {
        history.exampleBlock = instance.exampleBlock;
        history.exampleLaunch = launch;
      }
      history.executed = true;
      history.needed |= needed;
      history.timed |= instance.timed;
      history.instances += instance.count;
      if (!instance.ordersNothing)
        history.orderingInstances += instance.count;
      if (instance.evidence && launch.block.count() % 32 == 0)
        history.evidenceShapes.insert({launch.block.x, launch.block.y, launch.block.z});
      if (instance.evidence) {
        history.evidenceInstances += instance.count;
        if (evidenceHere.insert(instruction).second)
          ++history.evidenceLaunches;
      }
      if (executedHere.insert(instruction).second)
        ++history.launches;
    }
  }
}

bool RedundantBarrierDetector::removable(const BarrierHistory &history) const {
  if (!history.executed || history.needed || history.timed)
    return false;
  if (history.orderingInstances == 0)
    return true; // nothing on one side of it, ever
  if (history.evidenceInstances == 0)
    return false;
  return requiredShapes_ <= 1 || history.evidenceShapes.size() >= requiredShapes_;
}

std::vector<uint32_t> RedundantBarrierDetector::candidates() const {
  std::vector<uint32_t> result;
  for (const auto &[instruction, history] : history_)
    if (removable(history))
      result.push_back(instruction);
  return result;
}

bool RedundantBarrierDetector::hasEvidenceFor(uint32_t barrier) const {
  auto found = history_.find(barrier);
  return found != history_.end() && found->second.evidenceInstances > 0;
}

Finding RedundantBarrierDetector::redundantFinding(uint32_t instruction,
                                                   const BarrierHistory &history) const {
  Finding finding;
  finding.kind = FindingKind::RedundantBarrier;
  finding.sites = {Site{instruction, interp::AccessKind::Read, false, 0, history.exampleBlock}};
  if (history.orderingInstances == 0) {
    finding.detail = "it orders nothing: in each of its " + std::to_string(history.instances) +
                     " executed instances (" + std::to_string(history.launches) +
                     (history.launches == 1 ? " launch" : " launches") +
                     ") nothing is accessed in shared or global memory or printed before it, or "
                     "nothing after it, in its block";
    finding.launch = history.exampleLaunch;
    finding.occurrences = history.launches;
    return finding;
  }
  finding.detail =
      "removing it creates no race even under independent thread scheduling in any of its " +
      std::to_string(history.instances) + " executed instances (" +
      std::to_string(history.launches) + (history.launches == 1 ? " launch" : " launches") +
      "); " + std::to_string(history.evidenceInstances) + " of them, in " +
      std::to_string(history.evidenceLaunches) +
      (history.evidenceLaunches == 1 ? " launch" : " launches") +
      ", separated accesses of one variable by threads of several warps";
  finding.launch = history.exampleLaunch;
  finding.occurrences = history.evidenceLaunches;
  return finding;
}

std::vector<Finding>
RedundantBarrierDetector::findings(const std::vector<std::vector<uint32_t>> &groups) const {
  std::vector<Finding> findings;
  if (launches_ == 0)
    return findings; // nothing was judged: nothing to say about any barrier
  auto groupOf = [&](uint32_t instruction) -> const std::vector<uint32_t> * {
    for (const std::vector<uint32_t> &group : groups)
      if (std::find(group.begin(), group.end(), instruction) != group.end())
        return &group;
    return nullptr;
  };
  for (const auto &[instruction, history] : history_) {
    if (!history.executed) {
      if (!history.listed)
        continue;
      Finding finding;
      finding.kind = FindingKind::UnreachedBarrier;
      finding.sites = {Site{instruction, interp::AccessKind::Read, false, 0, 0}};
      finding.detail = "no judged launch executed this barrier";
      findings.push_back(std::move(finding));
      continue;
    }
    if (!removable(history))
      continue;
    const std::vector<uint32_t> *group = groupOf(instruction);
    if (group && group->front() != instruction)
      continue; // reported with the group's first barrier
    Finding finding = redundantFinding(instruction, history);
    if (group)
      finding.groupBarriers.assign(group->begin() + 1, group->end());
    findings.push_back(std::move(finding));
  }
  return findings;
}

} // namespace simulee::detect
