// The one interface behind the model's two representations (FullTupleLog,
// ShadowSummary): show a new access the earlier accesses it overlaps, then
// keep it. What "keep" means is the representation's business.
#pragma once

#include "memmodel/Access.h"

#include <cstdint>

namespace simulee::memmodel {

class PriorAccessVisitor {
public:
  virtual ~PriorAccessVisitor() = default;
  // `prior` shares at least one byte with the access being recorded and
  // their actions can conflict (actionsCanConflict). A prior access spanning
  // several granules may be shown once per shared granule.
  virtual void visit(const Access &prior) = 0;
};

class AccessStore {
public:
  virtual ~AccessStore() = default;
  virtual void record(const Access &access, PriorAccessVisitor &visitor) = 0;
  // `block` ended: its shared memory will never be accessed again.
  virtual void endBlock(uint32_t block) = 0;
  // Every access so far happens before every later one (a grid-wide barrier):
  // none needs to be shown to a later access.
  virtual void forgetAll() = 0;
  virtual uint64_t granuleCount() const = 0;
};

} // namespace simulee::memmodel
