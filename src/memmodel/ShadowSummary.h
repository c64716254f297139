// The compact representation of the model (ThreadSanitizer-style shadow): a
// constant-size record of kCellsPerGranule packed cells per 8-byte granule.
// A new access is checked against the cells, then stored in one of them by a
// retention policy that keeps one witness per kind of earlier access the
// rules can tell apart (see ShadowSummary.cpp). Verdicts match the full log
// whenever no granule needs more witnesses than it has cells; beyond that it
// may miss a race (never invent one), like ThreadSanitizer's shadow.
#pragma once

#include "memmodel/AccessStore.h"
#include "memmodel/Granule.h"

#include <array>
#include <cstdint>
#include <unordered_map>

namespace simulee::memmodel {

// One packed Unit Tuple; layout next to pack() in ShadowSummary.cpp.
struct ShadowCell {
  uint64_t word0 = 0; // visitOrder | byteMask | action | thread | instruction
  uint64_t word1 = 0; // step | block

  static ShadowCell pack(const Access &access, ByteMask mask);
  Access unpack(const GranuleKey &key) const;

  bool empty() const { return byteMask() == 0; }
  uint32_t instruction() const;
  uint32_t thread() const;
  interp::AccessKind action() const;
  ByteMask byteMask() const;
  uint32_t visitOrder() const;
  uint32_t block() const;
  uint64_t step() const;
};

constexpr unsigned kCellsPerGranule = 4;

struct ShadowRecord {
  std::array<ShadowCell, kCellsPerGranule> cells;
};

class ShadowSummary final : public AccessStore {
public:
  void record(const Access &access, PriorAccessVisitor &visitor) override;
  uint64_t granuleCount() const override { return records_.size(); }

private:
  std::unordered_map<GranuleKey, ShadowRecord, GranuleKeyHash> records_;
};

} // namespace simulee::memmodel
