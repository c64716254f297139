#include "detect/Finding.h"

#include <algorithm>

namespace simulee::detect {

std::string byteOffsetText(uint64_t offset) {
  return std::to_string(static_cast<int64_t>(offset));
}

const char *findingKindName(FindingKind kind) {
  switch (kind) {
  case FindingKind::DataRace: return "data-race";
  case FindingKind::RedundantBarrier: return "redundant-barrier";
  case FindingKind::BarrierDivergence: return "barrier-divergence";
  case FindingKind::OutOfBounds: return "out-of-bounds";
  case FindingKind::UnreachedBarrier: return "unreached-barrier";
  case FindingKind::UninitializedRead: return "uninitialized-read";
  case FindingKind::UndefinedBehavior: return "undefined-behavior";
  case FindingKind::AssertionFailed: return "assertion-failed";
  case FindingKind::AtomicityViolation: return "atomicity-violation";
  }
  return "?";
}

const char *provenanceName(Provenance provenance) {
  switch (provenance) {
  case Provenance::Free: return "free";
  case Provenance::Site: return "site";
  case Provenance::SiteSearch: return "site+search";
  case Provenance::Program: return "program";
  case Provenance::User: return "user";
  }
  return "?";
}

bool isBug(FindingKind kind) { return kind != FindingKind::UnreachedBarrier; }

bool isBug(const Finding &finding) { return isBug(finding.kind) && finding.benign == Benign::No; }

Finding assertionFinding(const interp::AssertionEvent &event, const LaunchRecord &launch) {
  Finding finding;
  finding.kind = FindingKind::AssertionFailed;
  finding.sites = {Site{event.instruction, interp::AccessKind::Read, false, event.thread,
                        event.block}};
  finding.detail = event.condition;
  finding.launch = launch;
  return finding;
}

const char *benignName(Benign benign) {
  switch (benign) {
  case Benign::No: return nullptr;
  case Benign::SameValue: return "same-value";
  case Benign::Unconventional: return "unconventional";
  }
  return nullptr;
}

size_t identifyingSites(const Finding &finding) {
  if (finding.kind == FindingKind::AtomicityViolation)
    return std::min<size_t>(finding.sites.size(), 2);
  return finding.sites.size();
}

FindingKey keyOf(const Finding &finding) {
  FindingKey key{finding.kind, finding.space, 0, 0};
  if (finding.sites.empty())
    return key;
  key.first = finding.sites[0].instruction;
  key.second = finding.sites.size() > 1 ? finding.sites[1].instruction : key.first;
  if (finding.kind == FindingKind::DataRace && key.second < key.first)
    std::swap(key.first, key.second);
  return key;
}

} // namespace simulee::detect
