#include "detect/UndefinedBehaviorDetector.h"

#include <cstdio>

namespace simulee::detect {

std::string undefinedBehaviorReason(const interp::UndefinedBehaviorEvent &event) {
  using interp::UndefinedBehavior;
  std::string what = interp::undefinedBehaviorName(event.kind);
  std::string bits = std::to_string(event.width) + "-bit";
  switch (event.kind) {
  case UndefinedBehavior::ShiftTooLarge:
    return what + ": a " + bits + " value shifted by " + std::to_string(event.value);
  case UndefinedBehavior::DivisionByZero:
  case UndefinedBehavior::DivisionOverflow:
    return what + " (" + bits + ")";
  case UndefinedBehavior::NullPointer:
    return what + " (" + std::to_string(event.width) + " bytes)";
  case UndefinedBehavior::WildPointer: {
    char address[32];
    std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(event.value));
    return what + " (" + std::to_string(event.width) + " bytes at " + address +
           ", which names no buffer)";
  }
  case UndefinedBehavior::Misaligned:
    return what + ": " + std::to_string(event.width) + " bytes at byte offset " +
           std::to_string(event.value);
  case UndefinedBehavior::InvalidFree:
    return what + ": the pointer is not the start of a live device-heap allocation (freed "
                  "already, not from malloc or new, or past its start)";
  }
  return what;
}

std::vector<Finding> findUndefinedBehavior(const memmodel::MemoryModel &model,
                                           const LaunchRecord &launch) {
  std::vector<Finding> findings;
  // The model keeps the first event per instruction already.
  for (const interp::UndefinedBehaviorEvent &event : model.undefinedBehavior()) {
    Finding finding;
    finding.kind = FindingKind::UndefinedBehavior;
    finding.exampleOffset = event.value;
    finding.sites = {
        Site{event.instruction, interp::AccessKind::Read, false, event.thread, event.block}};
    finding.detail = undefinedBehaviorReason(event);
    finding.launch = launch;
    findings.push_back(std::move(finding));
  }
  return findings;
}

} // namespace simulee::detect
