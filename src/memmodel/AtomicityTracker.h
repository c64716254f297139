// The facts behind the atomicity-violation rule (DESIGN.md): a pair of one
// thread's atomic accesses to one address meant as one step (an
// ir::AtomicUnit, found in the code), and another thread's atomic access to
// that address that can fall between them. The model keeps one example per
// distinct (pair, interleaved instruction, relation); detect/ decides which
// schedules count (under --lockstep only the simulated order within a warp).
//
// A pair is complete when its second instruction runs in the thread that ran
// its first, at the same byte offset of the same variable, in the same visit
// order (no barrier between), with no other run of the first in between. An
// interleaved access is any atomic of another thread at that offset that
// fits the pattern (a write for the read-first patterns and write-write-read,
// a read for write-read-write) and that can run between the two:
//  - another block's, on global memory, unless both are atomic only within
//    their blocks' scope or a fence and atomic (ReleaseOrder) orders them;
//  - another warp's of the block, in the same visit order;
//  - another lane's of the warp, in the same visit order, when it ran at a
//    step between the pair's two (lockstep order: `betweenInLockstep`), or
//    when no __syncwarp holding both lanes separates it from the pair
//    (independent thread scheduling only).
// Both orders of arrival are matched: a pair completed after the
// interleaved access ran, or an interleaved access after the pair. Each
// offset an atomic touched keeps its last few pairs and accesses
// (kKeptPerAddress), and at most kMaxWatched offsets are watched per launch
// (shared ones until their block ends): enough for an example, not a proof
// of absence. Only kernels with units pay for any of it.
#pragma once

#include "ir/Program.h"
#include "memmodel/AccessPair.h"
#include "memmodel/DivergenceTracker.h"
#include "memmodel/ReleaseOrder.h"

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace simulee::memmodel {

struct AtomicityTriple {
  Access first;       // the pair, by one thread
  Access second;
  Access interleaved; // another thread's access between them
  ir::AtomicityPattern pattern = ir::AtomicityPattern::ReadWriteWrite;
  PairRelation relation = PairRelation::SameVisitOrder; // or DifferentBlocks
  bool sameWarp = false;
  // Within one warp: the interleaved access ran at a step between the
  // pair's, so lockstep execution can produce it too.
  bool betweenInLockstep = false;
};

class AtomicityTracker {
public:
  static constexpr size_t kKeptPerAddress = 8;
  static constexpr size_t kMaxWatched = size_t(1) << 15;

  // `instructions`: the program's, by id (their atomicRole), outliving the
  // tracker. No units: inactive.
  AtomicityTracker(const std::vector<ir::AtomicUnit> &units,
                   const std::vector<ir::InstructionInfo> &instructions);

  bool active() const { return !unitsBySecond_.empty(); }
  // An atomic access (kept by the model), with the block's divergence and
  // release facts as they stand when it runs.
  void onAtomic(const Access &now, const DivergenceTracker &divergence,
                const ReleaseOrder &releases);
  // The block ended (or stopped at a grid barrier): its open pairs and its
  // shared memory are forgotten.
  void endBlock();
  // A grid barrier released: no earlier access can fall between later ones.
  void forgetAll();

  const std::vector<AtomicityTriple> &triples() const { return triples_; }

private:
  struct Unit {
    Access first, second;
    ir::AtomicityPattern pattern;
  };
  // Ring buffers of the last kKeptPerAddress pairs and accesses at an offset.
  struct Watched {
    std::vector<Unit> units;
    std::vector<Access> others;
    size_t nextUnit = 0, nextOther = 0;
  };
  struct Candidate {
    uint32_t first;
    ir::AtomicityPattern pattern;
  };

  ir::AtomicRole roleOf(uint32_t instruction) const;
  bool fits(ir::AtomicityPattern pattern, const Access &interleaved) const;
  Watched *watched(const Access &access, bool create);
  void relate(const Unit &unit, const Access &other, bool otherIsLater,
              const DivergenceTracker &divergence, const ReleaseOrder &releases);

  std::unordered_map<uint32_t, std::vector<Candidate>> unitsBySecond_;
  std::unordered_set<uint32_t> firsts_;
  const std::vector<ir::InstructionInfo> &instructions_;
  // The block's open firsts, by thread << 32 | first instruction.
  std::unordered_map<uint64_t, Access> open_;
  // Watched offsets by (space, buffer, offset); shared ones of the current
  // block only.
  std::unordered_map<uint64_t, Watched> global_, shared_;
  std::unordered_map<uint64_t, size_t> tripleIndex_;
  std::vector<AtomicityTriple> triples_;
};

} // namespace simulee::memmodel
