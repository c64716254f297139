#include "memmodel/FitnessFigures.h"

#include "support/Assert.h"

#include <algorithm>

namespace simulee::memmodel {

// An address's record word:
//
//   63                42 41          32 31                             0
//  +--------------------+--------------+--------------------------------+
//  | thread set + 1     | last thread  | serial of the last block       |
//  +--------------------+--------------+--------------------------------+
//
// The serial is 0 while the address was never accessed. The other fields
// belong to that block: the thread that accessed last and, once a second
// thread came, the index + 1 of the address's ThreadSet in threadSets_
// (0 = one thread so far). A record of an older block is stale: the address
// starts over with no thread.
namespace {
constexpr unsigned kSerialBits = 32, kThreadBits = 10, kSetBits = 22;
static_assert(kSerialBits + kThreadBits + kSetBits == 64, "a record is one word");

constexpr uint64_t lowBits(unsigned n) { return (uint64_t(1) << n) - 1; }

uint64_t packRecord(uint32_t serial, uint32_t thread, uint64_t setPlus1) {
  return setPlus1 << (kSerialBits + kThreadBits) | uint64_t(thread) << kSerialBits | serial;
}
uint32_t serialOf(uint64_t record) { return uint32_t(record & lowBits(kSerialBits)); }
uint32_t threadOf(uint64_t record) {
  return uint32_t(record >> kSerialBits & lowBits(kThreadBits));
}
uint64_t setOf(uint64_t record) { return record >> (kSerialBits + kThreadBits); }

bool testAndSet(std::array<uint64_t, 16> &set, uint32_t thread) {
  uint64_t bit = uint64_t(1) << (thread % 64);
  uint64_t &word = set[thread / 64];
  bool had = word & bit;
  word |= bit;
  return !had;
}
} // namespace

static_assert(FitnessFigures::kMaxSharedAddresses < (uint64_t(1) << kSetBits),
              "set index fits its field");

bool FitnessFigures::isNewThreadOfAddress(uint64_t &record, uint32_t thread) {
  SIMULEE_ASSERT(thread <= lowBits(kThreadBits), "thread id exceeds 10 bits");
  if (serialOf(record) != blockSerial_) {
    record = packRecord(blockSerial_, thread, 0);
    return true;
  }
  if (threadOf(record) == thread)
    return false;
  uint64_t set = setOf(record);
  if (set == 0) {
    if (threadSets_.size() >= kMaxSharedAddresses) {
      // Out of sets: count changes of thread (see the header).
      record = packRecord(blockSerial_, thread, 0);
      return true;
    }
    threadSets_.emplace_back();
    testAndSet(threadSets_.back(), threadOf(record));
    set = threadSets_.size();
  }
  record = packRecord(blockSerial_, thread, set);
  return testAndSet(threadSets_[set - 1], thread);
}

void FitnessFigures::record(const interp::AccessEvent &access) {
  if (access.space == interp::MemSpace::Local)
    return;
  Region &region =
      regions_.find({access.space, access.buffer, scopeOf(access.space, access.block)});
  uint64_t &record = region.records.at(access.offset);
  if (record == 0)
    ++distinctAddresses_;
  if (isNewThreadOfAddress(record, access.thread))
    ++accessingThreadsSum_;
  uint64_t last = access.offset + (access.sizeBytes ? access.sizeBytes - 1 : 0);
  minAddress_ = any_ ? std::min(minAddress_, access.offset) : access.offset;
  maxAddress_ = any_ ? std::max(maxAddress_, last) : last;
  any_ = true;
}

void FitnessFigures::endBlock(uint32_t block) {
  SIMULEE_ASSERT(blockSerial_ < UINT32_MAX, "block serial overflow");
  ++blockSerial_;
  threadSets_.clear();
  regions_.releaseScope(block);
}

double FitnessFigures::ratio() const {
  if (accessingThreadsSum_ == 0)
    return 1.0;
  return double(distinctAddresses_) / double(accessingThreadsSum_);
}

} // namespace simulee::memmodel
