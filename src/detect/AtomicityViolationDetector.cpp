#include "detect/AtomicityViolationDetector.h"

#include <map>

namespace simulee::detect {

using ir::AtomicityPattern;
using memmodel::AtomicityTriple;
using memmodel::PairRelation;

const char *atomicityConsequence(AtomicityPattern pattern) {
  switch (pattern) {
  case AtomicityPattern::ReadWriteRead:
    return "the value checked first is not the value read again";
  case AtomicityPattern::ReadWriteWrite:
    return "the write computed from the first read overwrites the other thread's update (lost "
           "update)";
  case AtomicityPattern::WriteReadWrite:
    return "the other thread sees the intermediate value the pair meant to replace";
  case AtomicityPattern::WriteWriteRead:
    return "the read returns the other thread's value, not the one this thread wrote";
  case AtomicityPattern::CheckThenAct:
    return "the condition checked on the first read no longer holds when the write happens";
  }
  return "";
}

namespace {

Site siteOf(const memmodel::Access &access) {
  return Site{access.instruction, access.action, true, access.thread, access.block};
}

const char *scheduleReason(const AtomicityTriple &triple) {
  if (triple.relation == PairRelation::DifferentBlocks)
    return "another block's atomic, which nothing orders against the pair";
  if (!triple.sameWarp)
    return "another warp's atomic in the same barrier interval";
  if (triple.betweenInLockstep)
    return "another lane of the warp, between the pair's two steps";
  return "another lane of the warp with no __syncwarp between (independent thread scheduling)";
}

} // namespace

std::vector<Finding> findAtomicityViolations(const memmodel::MemoryModel &model,
                                             const LaunchRecord &launch) {
  bool independentThreads = model.options().independentThreads;
  std::vector<Finding> findings;
  std::map<FindingKey, size_t> indexByKey;
  for (const AtomicityTriple &triple : model.atomicityTriples()) {
    if (triple.sameWarp && !triple.betweenInLockstep && !independentThreads)
      continue;
    Finding finding;
    finding.kind = FindingKind::AtomicityViolation;
    finding.space = triple.first.space;
    finding.buffer = triple.first.buffer;
    finding.exampleOffset = triple.first.offset;
    finding.sites = {siteOf(triple.first), siteOf(triple.second), siteOf(triple.interleaved)};
    finding.subkind = ir::atomicityPatternName(triple.pattern);
    finding.detail = std::string(atomicityConsequence(triple.pattern)) + "; between them: " +
                     scheduleReason(triple);
    finding.launch = launch;
    // One example per pair: the first seen.
    if (indexByKey.try_emplace(keyOf(finding), findings.size()).second)
      findings.push_back(std::move(finding));
  }
  return findings;
}

} // namespace simulee::detect
