// Listens to one launch and reports reads of cudaMalloc'd bytes that neither
// the host (cudaMemcpy, cudaMemset) nor a kernel has written, and records the
// launch's writes so that later launches see them as written. One finding per
// reading instruction.
#pragma once

#include "detect/Finding.h"
#include "interp/Events.h"
#include "runtime/DeviceMemory.h"

#include <set>
#include <vector>

namespace simulee::runtime {

class UninitializedDeviceReads final : public interp::ExecutionListener {
public:
  explicit UninitializedDeviceReads(const DeviceMemory &memory) : memory_(memory) {}
  // Only while some device allocation has bytes nothing wrote yet, and
  // only those allocations' accesses.
  bool wantsAccesses() const override;
  bool wantsAccessesTo(interp::MemSpace space, uint32_t buffer) const override;
  void onAccess(const interp::AccessEvent &access) override;
  // The findings, without variable names or launch (the caller adds them).
  std::vector<detect::Finding> takeFindings() { return std::move(findings_); }

private:
  const DeviceMemory &memory_;
  std::set<uint32_t> reported_; // instructions
  std::vector<detect::Finding> findings_;
};

} // namespace simulee::runtime
