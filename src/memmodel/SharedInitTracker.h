// Reads of shared memory that no thread of the block ever writes, as
// compute-sanitizer's initcheck reports them: shared memory holds whatever
// the hardware left there. Judged when the block ends, so that a read that
// merely ran before another warp's write (the simulation's warp order, a
// race reported as such) does not count; only bytes no thread of the block
// wrote at all do. One bit per byte per shared variable.
#pragma once

#include "interp/Events.h"

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace simulee::memmodel {

class SharedInitTracker {
public:
  void beginBlock() {
    for (std::vector<uint64_t> &bits : written_)
      std::fill(bits.begin(), bits.end(), 0);
    suspects_.clear();
    suspectKeys_.clear();
  }

  // Records a shared-memory access; a read (or atomic) of bytes not written
  // yet becomes a suspect, judged by blockEnd.
  void record(const interp::AccessEvent &access) {
    std::vector<uint64_t> &bits = bitsFor(access.buffer, access.offset + access.sizeBytes);
    bool reads = access.kind != interp::AccessKind::Write;
    if (reads && !allWritten(bits, access.offset, access.sizeBytes)) {
      uint64_t key = uint64_t(access.instruction) << 40 ^ uint64_t(access.buffer) << 32 ^
                     access.offset;
      if (suspectKeys_.insert(key).second)
        suspects_.push_back(access);
    }
    if (access.kind != interp::AccessKind::Read)
      for (uint64_t byte = access.offset; byte < access.offset + access.sizeBytes; ++byte)
        bits[byte / 64] |= uint64_t(1) << (byte % 64);
  }

  // The suspects whose bytes no thread of the block ever wrote.
  template <typename Report> void blockEnd(Report &&report) {
    for (const interp::AccessEvent &access : suspects_)
      if (!allWritten(written_[access.buffer], access.offset, access.sizeBytes))
        report(access);
    suspects_.clear();
    suspectKeys_.clear();
  }

private:
  std::vector<uint64_t> &bitsFor(uint32_t buffer, uint64_t endByte) {
    if (buffer >= written_.size())
      written_.resize(buffer + 1);
    std::vector<uint64_t> &bits = written_[buffer];
    if (bits.size() * 64 < endByte)
      bits.resize((endByte + 63) / 64, 0);
    return bits;
  }

  static bool allWritten(const std::vector<uint64_t> &bits, uint64_t offset, uint32_t sizeBytes) {
    for (uint64_t byte = offset; byte < offset + sizeBytes; ++byte)
      if (byte / 64 >= bits.size() || !(bits[byte / 64] >> (byte % 64) & 1))
        return false;
    return true;
  }

  std::vector<std::vector<uint64_t>> written_; // by shared buffer
  std::vector<interp::AccessEvent> suspects_;
  std::unordered_set<uint64_t> suspectKeys_; // (instruction, buffer, offset)
};

} // namespace simulee::memmodel
