// The full representation of the model: every Unit Tuple kept, in arrival
// order, indexed by granule. Exact, and quadratic per address: for small runs,
// tests and the Python API (which reads the tuples back as arrays).
#pragma once

#include "memmodel/AccessStore.h"
#include "memmodel/Granule.h"

#include <unordered_map>
#include <vector>

namespace simulee::memmodel {

class FullTupleLog final : public AccessStore {
public:
  void record(const Access &access, PriorAccessVisitor &visitor) override;
  uint64_t granuleCount() const override { return byGranule_.size(); }

  const std::vector<Access> &tuples() const { return tuples_; }
  // The most tuples one granule holds: the per-access cost of record().
  uint64_t largestUnit() const { return largestUnit_; }

private:
  std::vector<Access> tuples_;
  uint64_t largestUnit_ = 0;
  std::unordered_map<GranuleKey, std::vector<uint32_t>, GranuleKeyHash> byGranule_;
};

} // namespace simulee::memmodel
