#include "memmodel/AtomicityTracker.h"

namespace simulee::memmodel {

using ir::AtomicityPattern;
using ir::AtomicRole;

namespace {

// A watched offset's key: its buffer above 40 bits of byte offset (buffers
// ids stay below 2^24, simulated buffers below 2^40 bytes).
uint64_t offsetKey(const Access &access) {
  return uint64_t(access.buffer) << 40 | (access.offset & ((uint64_t(1) << 40) - 1));
}

// The facts one example is kept per, packed: instructions of 24 bits.
uint64_t tripleKey(const AtomicityTriple &t) {
  uint64_t key = t.first.instruction & 0xffffff;
  key = key << 24 | (t.second.instruction & 0xffffff);
  key ^= uint64_t(t.interleaved.instruction & 0xffffff) * 0x9E3779B97F4A7C15ull;
  key = key * 31 + uint64_t(t.relation) * 4 + uint64_t(t.sameWarp) * 2 + t.betweenInLockstep;
  return key;
}

template <typename T> void keep(std::vector<T> &ring, size_t &next, const T &value) {
  if (ring.size() < AtomicityTracker::kKeptPerAddress) {
    ring.push_back(value);
    return;
  }
  ring[next] = value;
  next = (next + 1) % AtomicityTracker::kKeptPerAddress;
}

} // namespace

AtomicityTracker::AtomicityTracker(const std::vector<ir::AtomicUnit> &units,
                                   const std::vector<ir::InstructionInfo> &instructions)
    : instructions_(instructions) {
  for (const ir::AtomicUnit &unit : units) {
    unitsBySecond_[unit.second].push_back({unit.first, unit.pattern});
    firsts_.insert(unit.first);
  }
}

AtomicRole AtomicityTracker::roleOf(uint32_t instruction) const {
  return instruction < instructions_.size() ? instructions_[instruction].atomicRole
                                            : AtomicRole::None;
}

// The read-first patterns and write-write-read are broken by a write between;
// write-read-write by a read of the intermediate value.
bool AtomicityTracker::fits(AtomicityPattern pattern, const Access &interleaved) const {
  AtomicRole role = roleOf(interleaved.instruction);
  if (pattern == AtomicityPattern::WriteReadWrite)
    return role == AtomicRole::Reads || role == AtomicRole::Updates ||
           role == AtomicRole::UpdatesMonotonic;
  return role == AtomicRole::Writes || role == AtomicRole::Updates ||
         role == AtomicRole::UpdatesMonotonic;
}

AtomicityTracker::Watched *AtomicityTracker::watched(const Access &access, bool create) {
  auto &map = access.space == interp::MemSpace::Shared ? shared_ : global_;
  uint64_t key = offsetKey(access);
  if (auto found = map.find(key); found != map.end())
    return &found->second;
  if (!create || global_.size() + shared_.size() >= kMaxWatched)
    return nullptr;
  return &map[key];
}

void AtomicityTracker::onAtomic(const Access &now, const DivergenceTracker &divergence,
                                const ReleaseOrder &releases) {
  if (now.space != interp::MemSpace::Global && now.space != interp::MemSpace::Shared)
    return;
  // Any atomic may be the access between pairs that complete later.
  Watched *here = watched(now, true);
  if (!here)
    return;
  bool atomic = roleOf(now.instruction) != AtomicRole::None;
  // As the interleaved access of pairs already complete.
  if (atomic)
    for (const Unit &unit : here->units)
      relate(unit, now, true, divergence, releases);
  // As the second of a pair this thread opened.
  if (auto candidates = unitsBySecond_.find(now.instruction); candidates != unitsBySecond_.end()) {
    for (const Candidate &candidate : candidates->second) {
      auto open = open_.find(uint64_t(now.thread) << 32 | candidate.first);
      if (open == open_.end())
        continue;
      const Access &first = open->second;
      if (first.space != now.space || first.buffer != now.buffer || first.offset != now.offset ||
          first.visitOrder != now.visitOrder)
        continue;
      Unit unit{first, now, candidate.pattern};
      for (const Access &other : here->others)
        relate(unit, other, false, divergence, releases);
      keep(here->units, here->nextUnit, unit);
    }
  }
  if (atomic)
    keep(here->others, here->nextOther, now);
  if (firsts_.count(now.instruction))
    open_[uint64_t(now.thread) << 32 | now.instruction] = now;
}

// Whether `other` (arrived after the pair when otherIsLater, else before it)
// can run between the pair's two accesses; if so, keeps the example.
void AtomicityTracker::relate(const Unit &unit, const Access &other, bool otherIsLater,
                              const DivergenceTracker &divergence, const ReleaseOrder &releases) {
  const Access &first = unit.first, &second = unit.second;
  if (other.sameThreadAs(first) || !fits(unit.pattern, other))
    return;
  AtomicityTriple triple{first, second, other, unit.pattern};
  if (other.block != first.block) {
    // Shared memory is per block; block-scoped atomics of two blocks race,
    // which the data-race rule reports.
    if (other.space != interp::MemSpace::Global || other.action != interp::AccessKind::Atomic ||
        first.action != interp::AccessKind::Atomic || second.action != interp::AccessKind::Atomic)
      return;
    if (otherIsLater ? releases.ordered(second, other, divergence)
                     : releases.ordered(other, first, divergence))
      return;
    triple.relation = PairRelation::DifferentBlocks;
  } else {
    if (other.visitOrder != first.visitOrder)
      return;
    // A release the later thread acquired orders them within the block too.
    if (otherIsLater ? releases.ordered(second, other, divergence)
                     : releases.ordered(other, first, divergence))
      return;
    if (other.warp == first.warp) {
      triple.sameWarp = true;
      triple.betweenInLockstep = first.step <= other.step && other.step <= second.step;
      // Independent thread scheduling: outside the pair's steps, a lane can
      // still slip between them unless a __syncwarp of both separates it.
      if (!triple.betweenInLockstep) {
        bool separated =
            otherIsLater
                ? divergence.warpSyncBetween(first.warp, first.lane, second.step, other.lane,
                                             other.step)
                : divergence.warpSyncBetween(first.warp, other.lane, other.step, first.lane,
                                             second.step);
        if (separated)
          return;
      }
    }
  }
  if (tripleIndex_.try_emplace(tripleKey(triple), triples_.size()).second)
    triples_.push_back(triple);
}

void AtomicityTracker::endBlock() {
  open_.clear();
  shared_.clear();
}

void AtomicityTracker::forgetAll() {
  endBlock();
  global_.clear();
}

} // namespace simulee::memmodel
