// Accumulates findings over the many launches the search simulates for one
// kernel: deduplicated by (kind, space, instruction pair), first example
// kept; a barrier is redundant only if redundant in every launch that
// executed it.
//
// Wiring: MemoryModel model(options); interp::runKernel(..., {.listener =
// &model}); collector.addLaunch(model, record);
#pragma once

#include "detect/Finding.h"
#include "detect/RedundantBarrierDetector.h"
#include "memmodel/MemoryModel.h"

#include <map>
#include <vector>

namespace simulee::detect {

class FindingCollector {
public:
  // The kernel's barrier instruction ids (static list from the program), and
  // the barriers no advice may remove (never redundant). With no barrier
  // instructions nothing is said about barriers: a launch under light
  // checks records no access, so its barriers would all seem to order
  // nothing.
  explicit FindingCollector(std::vector<uint32_t> barrierInstructions,
                            std::vector<uint32_t> requiredBarrierInstructions = {});

  void addLaunch(const memmodel::MemoryModel &model, const LaunchRecord &launch);
  // A launch cut short (its time budget ran out): what the blocks it ran
  // show that the rest of the launch cannot take back -- races, overruns,
  // undefined behaviour, atomicity violations. Barrier divergence (threads
  // not yet run may still arrive), reads of memory a later block may write,
  // and barrier advice need the whole launch: not said.
  void addPartialLaunch(const memmodel::MemoryModel &model, const LaunchRecord &launch);
  // Adds every launch `other` collected, as if added here after ours. Lets
  // launches simulated in parallel be combined in a fixed order.
  void merge(const FindingCollector &other);
  // Deduplicated, sorted by (kind, first instruction, second, space); with
  // redundant barriers and unreached-barrier notes. `variable` left empty.
  // `barrierGroups`: see RedundantBarrierDetector::findings.
  std::vector<Finding> findings(const std::vector<std::vector<uint32_t>> &barrierGroups = {}) const;
  const RedundantBarrierDetector &barriers() const { return barriers_; }
  // See RedundantBarrierDetector::requireEvidenceShapes.
  void requireEvidenceShapes(size_t shapes) { barriers_.requireEvidenceShapes(shapes); }

private:
  // Keeps the first example of each key and counts the occurrences.
  void add(Finding finding);

  std::map<FindingKey, Finding> byKey_;
  bool judgesBarriers_;
  RedundantBarrierDetector barriers_;
};

} // namespace simulee::detect
