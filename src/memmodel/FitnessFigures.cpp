#include "memmodel/FitnessFigures.h"

#include <algorithm>

namespace simulee::memmodel {

void FitnessFigures::record(const interp::AccessEvent &access) {
  if (access.space == interp::MemSpace::Local)
    return;
  AddressKey address{access.space, access.buffer, scopeOf(access.space, access.block),
                     access.offset};
  uint64_t &threads = threadsPerAddress_[address];
  if (seenInBlock_.insert({address, access.thread}).second) {
    ++threads;
    ++accessingThreadsSum_;
  }
  uint64_t last = access.offset + (access.sizeBytes ? access.sizeBytes - 1 : 0);
  minAddress_ = any_ ? std::min(minAddress_, access.offset) : access.offset;
  maxAddress_ = any_ ? std::max(maxAddress_, last) : last;
  any_ = true;
}

void FitnessFigures::endBlock() { seenInBlock_.clear(); }

double FitnessFigures::ratio() const {
  if (accessingThreadsSum_ == 0)
    return 1.0;
  return double(distinctAddresses()) / double(accessingThreadsSum_);
}

} // namespace simulee::memmodel
