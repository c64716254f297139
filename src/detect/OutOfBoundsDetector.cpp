#include "detect/OutOfBoundsDetector.h"

namespace simulee::detect {

std::string outOfBoundsReason(const interp::OutOfBoundsEvent &event) {
  const interp::AccessEvent &access = event.access;
  std::string what = std::to_string(access.sizeBytes) + "-byte " +
                     interp::accessKindName(access.kind) + " at byte offset " +
                     byteOffsetText(access.offset);
  if (event.bufferSizeBytes == 0)
    return what + " through a pointer into no buffer";
  return what + " of a " + std::to_string(event.bufferSizeBytes) + "-byte buffer";
}

std::vector<Finding> findOutOfBounds(const memmodel::MemoryModel &model,
                                     const LaunchRecord &launch) {
  std::vector<Finding> findings;
  // The model keeps the first event per instruction already.
  for (const interp::OutOfBoundsEvent &event : model.outOfBounds()) {
    const interp::AccessEvent &access = event.access;
    Finding finding;
    finding.kind = FindingKind::OutOfBounds;
    finding.space = access.space;
    finding.buffer = access.buffer;
    finding.exampleOffset = access.offset;
    finding.sites = {Site{access.instruction, access.kind, true, access.thread, access.block}};
    finding.detail = outOfBoundsReason(event);
    finding.launch = launch;
    findings.push_back(std::move(finding));
  }
  return findings;
}

} // namespace simulee::detect
