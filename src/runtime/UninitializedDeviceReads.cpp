#include "runtime/UninitializedDeviceReads.h"

#include "ir/Program.h"

namespace simulee::runtime {

bool UninitializedDeviceReads::wantsAccesses() const {
  for (uint32_t id = 1; id <= memory_.allocationCount(); ++id)
    if (const Allocation *allocation = memory_.byId(id);
        allocation && !allocation->freed && !allocation->fullyWritten())
      return true;
  return false;
}

bool UninitializedDeviceReads::wantsAccessesTo(interp::MemSpace space, uint32_t buffer) const {
  if (space != interp::MemSpace::Global || buffer < ir::kFirstBoundBuffer)
    return false;
  const Allocation *allocation = memory_.byId(buffer - ir::kFirstBoundBuffer + 1);
  return allocation && !allocation->freed && !allocation->fullyWritten();
}

void UninitializedDeviceReads::onAccess(const interp::AccessEvent &access) {
  if (access.space != interp::MemSpace::Global || access.buffer < ir::kFirstBoundBuffer)
    return;
  Allocation *allocation = memory_.byId(access.buffer - ir::kFirstBoundBuffer + 1);
  if (!allocation || allocation->fullyWritten())
    return;
  if (access.kind != interp::AccessKind::Write) {
    int64_t unwritten = allocation->firstUnwritten(access.offset, access.sizeBytes);
    if (unwritten >= 0 && reported_.insert(access.instruction).second) {
      detect::Finding finding;
      finding.kind = detect::FindingKind::UninitializedRead;
      finding.space = interp::MemSpace::Global;
      finding.buffer = access.buffer;
      finding.exampleOffset = uint64_t(unwritten);
      finding.sites.push_back(
          detect::Site{access.instruction, access.kind, true, access.thread, access.block});
      finding.detail = "no cudaMemcpy, cudaMemset or earlier kernel wrote these bytes of device "
                       "memory before this launch read them";
      findings_.push_back(std::move(finding));
    }
  }
  if (access.kind != interp::AccessKind::Read)
    allocation->markWritten(access.offset, access.sizeBytes);
}

} // namespace simulee::runtime
