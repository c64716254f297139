// The redundant-barrier rule of DESIGN.md over many launches of one kernel.
// Advice to delete code must be safe on every GPU, so a barrier is a
// candidate for removal only if
//  - no executed instance, in any launch, separates accesses that would race
//    in one visit order under independent thread scheduling (whatever
//    semantics the races were judged by), and
//  - either it orders nothing: in every executed instance no shared or
//    global memory is accessed, and nothing printed, on one side of it in
//    its block (a kernel's first or last statement), whatever the launch;
//  - or some instance is evidence: it separated accesses of one variable by
//    threads of several warps on both sides (a one-warp launch proves
//    nothing), in as many conventional launch shapes (blocks of a multiple
//    of 32 threads) as the caller requires (a search: two; one launch the
//    user or the program chose: that launch).
// Whether the candidates can go *together* is for the caller to re-check
// (session/ re-simulates launches without them) and state with groupWith.
// A barrier no judged launch executed is an unreached-barrier note; with no
// judged launch at all nothing is said.
#pragma once

#include "detect/Finding.h"
#include "memmodel/AccessPair.h"
#include "memmodel/MemoryModel.h"

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace simulee::detect {

// Would two accesses on either side of a barrier race if the barrier were
// removed, i.e. if they were in one visit order, under independent thread
// scheduling? Only a __syncwarp between lanes of one warp orders them then.
bool mergeWouldRace(const memmodel::BarrierCrossing &crossing);

// A barrier instance is needed when merging the visit orders it separates
// would create a race.
bool isNeeded(const memmodel::BarrierInstance &instance);

class RedundantBarrierDetector {
public:
  // The kernel's barrier instructions, as the program lists them.
  // `required`: barriers whose result the kernel uses
  // (__syncthreads_count/and/or), which communicate through the barrier
  // itself, and the block barriers a grid barrier is made of: removing one is
  // never harmless, so they are never redundant.
  explicit RedundantBarrierDetector(std::vector<uint32_t> barrierInstructions,
                                    std::vector<uint32_t> required = {});

  // Evidence must come from this many distinct conventional block shapes
  // (default 1: any launch with evidence).
  void requireEvidenceShapes(size_t shapes) { requiredShapes_ = shapes; }

  // Adds the launches `other` saw, as if they had been added here after ours.
  void merge(const RedundantBarrierDetector &other);

  void addLaunch(const memmodel::MemoryModel &model, const LaunchRecord &launch);

  // Barriers that may go one at a time: never needed, with evidence.
  std::vector<uint32_t> candidates() const;
  // Whether this detector's launch(es) executed `barrier` with evidence.
  bool hasEvidenceFor(uint32_t barrier) const;

  // Redundant barriers and unreached-barrier notes. `groups`: candidates
  // that cannot all go together, each reported once as "one of these".
  std::vector<Finding> findings(const std::vector<std::vector<uint32_t>> &groups = {}) const;

private:
  struct BarrierHistory {
    bool executed = false;
    bool needed = false; // in some instance of some launch
    bool timed = false;  // next to a clock read in some instance (BarrierInstance::timed)
    // One of the kernel's own barriers (not only a required one, such as a
    // grid barrier's block barriers): said to be unreached when no launch ran it.
    bool listed = false;
    uint64_t instances = 0;
    uint64_t evidenceInstances = 0;
    uint32_t launches = 0;
    uint32_t evidenceLaunches = 0;
    uint64_t orderingInstances = 0; // with shared or global accesses on both sides
    std::set<std::array<uint32_t, 3>> evidenceShapes; // conventional blocks with evidence
    uint32_t exampleBlock = 0;
    LaunchRecord exampleLaunch; // the first launch that gave evidence (else executed it)
  };

  bool removable(const BarrierHistory &history) const;
  Finding redundantFinding(uint32_t instruction, const BarrierHistory &history) const;

  std::map<uint32_t, BarrierHistory> history_;
  uint64_t launches_ = 0;
  size_t requiredShapes_ = 1;
};

} // namespace simulee::detect
