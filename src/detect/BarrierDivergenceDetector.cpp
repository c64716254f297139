#include "detect/BarrierDivergenceDetector.h"

namespace simulee::detect {

using Cause = interp::BarrierDivergenceEvent::Cause;

const char *divergenceReason(Cause cause) {
  switch (cause) {
  case Cause::PartialWarp: return "only part of the warp's live lanes reached the barrier";
  case Cause::DifferentBarriers: return "threads of the block wait at different barriers";
  case Cause::ExitedThreads: return "threads of the block exited while others wait at the barrier";
  case Cause::IncompleteNamedBarrier:
    return "fewer threads than its thread count reach the named barrier (a deadlock on a GPU)";
  case Cause::GridBarrierNotReached:
    return "a block of the grid ended without reaching the grid-wide barrier others wait at (a "
           "deadlock on a GPU)";
  }
  return "?";
}

std::vector<Finding> findBarrierDivergences(const memmodel::MemoryModel &model,
                                            const LaunchRecord &launch) {
  std::vector<Finding> findings;
  // The model keeps the first event per (barrierInstr, otherInstr) already.
  for (const interp::BarrierDivergenceEvent &event : model.barrierDivergences()) {
    Finding finding;
    finding.kind = FindingKind::BarrierDivergence;
    finding.sites = {
        Site{event.barrierInstr, interp::AccessKind::Read, false, event.waitingThread, event.block},
        Site{event.otherInstr, interp::AccessKind::Read, false, event.otherThread,
             event.otherBlock != ~0u ? event.otherBlock : event.block}};
    finding.detail = divergenceReason(event.cause);
    finding.launch = launch;
    findings.push_back(std::move(finding));
  }
  return findings;
}

} // namespace simulee::detect
