#include "detect/DataRaceDetector.h"

#include "memmodel/Access.h"

#include <map>

namespace simulee::detect {

using interp::AccessKind;
using memmodel::AccessPair;
using memmodel::PairRelation;

bool actionsConflict(AccessKind a, AccessKind b) {
  // The model already filters priors by the same rule; one definition.
  return memmodel::actionsCanConflict(a, b);
}

bool sameWarpAccessesRace(const memmodel::WarpOrdering &ordering, bool oneStoreOneStep,
                          bool independentThreads) {
  if (oneStoreOneStep)
    return true;
  if (independentThreads)
    return !ordering.warpSyncBetween;
  return !ordering.commonActiveStep;
}

namespace {

bool isOneStoreOneStep(const AccessPair &pair) {
  return pair.ordering.sameStep && pair.earlier.instruction == pair.later.instruction &&
         pair.earlier.action == AccessKind::Write && pair.later.action == AccessKind::Write;
}

Site siteOf(const memmodel::Access &access) {
  return Site{access.instruction, access.action, true, access.thread, access.block};
}

} // namespace

bool racesWith(const AccessPair &pair, bool independentThreads) {
  if (!actionsConflict(pair.earlier.action, pair.later.action))
    return false;
  if (pair.earlier.sameThreadAs(pair.later))
    return false;
  switch (pair.relation) {
  case PairRelation::DifferentBlocks:
    // Each block has its own shared memory; every other space is one.
    return pair.later.space != interp::MemSpace::Shared;
  case PairRelation::AdjacentVisitOrders:
    return false; // a barrier orders them
  case PairRelation::SameVisitOrder:
    break;
  }
  if (!pair.ordering.sameWarp)
    return true;
  return sameWarpAccessesRace(pair.ordering, isOneStoreOneStep(pair), independentThreads);
}

const char *raceReason(const AccessPair &pair) {
  if (pair.relation == PairRelation::DifferentBlocks &&
      (pair.earlier.action == AccessKind::BlockAtomic || pair.later.action == AccessKind::BlockAtomic))
    return "accesses from different blocks; a block-scoped atomic (atomic*_block, "
           "thread_scope_block) is atomic only for the threads of its own block";
  if (pair.relation == PairRelation::DifferentBlocks)
    return "accesses from different blocks, which no barrier orders";
  if (!pair.ordering.sameWarp)
    return "different warps in the same barrier interval";
  if (isOneStoreOneStep(pair))
    return "one store executed by several lanes of a warp in the same step";
  if (!pair.ordering.commonActiveStep)
    return "lanes of one warp on different sides of a divergent branch";
  // Lockstep would order them: only independent scheduling makes this a race.
  return kWarpSynchronousReason;
}

int exampleStrength(const Finding &finding) {
  if (finding.benign != Benign::No)
    return 0;
  return finding.detail == kWarpSynchronousReason ? 1 : 2;
}

std::vector<Finding> findDataRaces(const memmodel::MemoryModel &model,
                                   const LaunchRecord &launch) {
  bool independentThreads = model.options().independentThreads;
  std::vector<Finding> findings;
  std::map<FindingKey, size_t> indexByKey;
  for (const AccessPair &pair : model.accessPairs()) {
    if (!racesWith(pair, independentThreads))
      continue;
    Finding finding;
    finding.kind = FindingKind::DataRace;
    finding.space = pair.later.space;
    finding.buffer = pair.later.buffer;
    finding.exampleOffset = memmodel::firstSharedByte(pair.earlier, pair.later);
    // Smaller instruction first, so that sites read in key order.
    bool swap = pair.later.instruction < pair.earlier.instruction;
    finding.sites = {siteOf(swap ? pair.later : pair.earlier),
                     siteOf(swap ? pair.earlier : pair.later)};
    finding.detail = raceReason(pair);
    finding.launch = launch;
    if (memmodel::writesSameValue(pair.earlier, pair.later)) {
      finding.benign = Benign::SameValue;
      finding.detail = "both write the same value; the outcome does not depend on their order";
    }
    auto [known, added] = indexByKey.try_emplace(keyOf(finding), findings.size());
    if (added) {
      findings.push_back(std::move(finding));
      continue;
    }
    Finding &kept = findings[known->second];
    if (exampleStrength(finding) > exampleStrength(kept))
      kept = std::move(finding);
  }
  return findings;
}

} // namespace simulee::detect
