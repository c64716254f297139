// The full representation of the model: every Unit Tuple kept, in arrival
// order, indexed by granule. Exact, and quadratic per address: for small runs,
// tests and the Python API (which reads the tuples back as arrays).
#pragma once

#include "memmodel/AccessStore.h"
#include "memmodel/Granule.h"
#include "memmodel/PagedArray.h"
#include "memmodel/RegionTable.h"

#include <vector>

namespace simulee::memmodel {

class FullTupleLog final : public AccessStore {
public:
  void record(const Access &access, PriorAccessVisitor &visitor) override;
  // Drops the block's shared-memory index; its tuples stay in tuples().
  void endBlock(uint32_t block) override { regions_.releaseScope(block); }
  // Drops every index; the tuples stay in tuples().
  void forgetAll() override { regions_.releaseAll(); }
  uint64_t granuleCount() const override { return granuleCount_; }

  const std::vector<Access> &tuples() const { return tuples_; }
  // The most tuples one granule holds: the per-access cost of record().
  uint64_t largestUnit() const { return largestUnit_; }

private:
  // Per granule of one buffer, the indices of its tuples in tuples_.
  struct Region {
    PagedArray<std::vector<uint32_t>, 9> units;
    void reset() { units.reset(); }
    uint64_t retainedBytes() const { return units.retainedBytes(); }
  };

  std::vector<Access> tuples_;
  uint64_t largestUnit_ = 0;
  uint64_t granuleCount_ = 0; // granules ever touched, released ones included
  RegionTable<Region> regions_;
};

} // namespace simulee::memmodel
