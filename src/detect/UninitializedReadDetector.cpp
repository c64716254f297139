#include "detect/UninitializedReadDetector.h"

namespace simulee::detect {

std::vector<Finding> findUninitializedReads(const memmodel::MemoryModel &model,
                                            const LaunchRecord &launch) {
  std::vector<Finding> findings;
  // The model keeps the first read per instruction already.
  for (const interp::AccessEvent &read : model.uninitializedReads()) {
    Finding finding;
    finding.kind = FindingKind::UninitializedRead;
    finding.space = read.space;
    finding.buffer = read.buffer;
    finding.exampleOffset = read.offset;
    finding.sites = {Site{read.instruction, read.kind, true, read.thread, read.block}};
    finding.detail = "no thread of the block wrote these bytes before";
    finding.launch = launch;
    findings.push_back(std::move(finding));
  }
  return findings;
}

} // namespace simulee::detect
