// How much memory a simulation may take (`--max-memory`): one process-wide
// limit, checked before anything large is allocated (buffers, variables,
// shared memory, registers, files read), so a hostile size ends in an error
// naming the limit instead of an allocation failure.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace simulee {

// Default: half of the machine's physical memory, at least 256 MiB.
inline uint64_t defaultMemoryLimitBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  uint64_t physical = pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
  return std::max<uint64_t>(physical / 2, uint64_t(256) << 20);
}

inline std::atomic<uint64_t> &memoryLimitStorage() {
  static std::atomic<uint64_t> limit{defaultMemoryLimitBytes()};
  return limit;
}

inline uint64_t memoryLimitBytes() { return memoryLimitStorage().load(std::memory_order_relaxed); }
inline void setMemoryLimitBytes(uint64_t bytes) { memoryLimitStorage().store(bytes); }

// Resident bytes of this process now (0 when unknown).
inline uint64_t residentBytes() {
  long pages = 0, resident = 0;
  if (FILE *statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%ld %ld", &pages, &resident) != 2)
      resident = 0;
    std::fclose(statm);
  }
  return uint64_t(std::max(resident, 0L)) * uint64_t(sysconf(_SC_PAGE_SIZE));
}

// The most bytes this process has had resident (since it was forked, in a
// child: its resident bytes at the fork, then its own peak).
inline uint64_t peakResidentBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return uint64_t(usage.ru_maxrss) * 1024;
}

// "N bytes exceeds the memory limit of M bytes (--max-memory)".
inline std::string overMemoryLimit(uint64_t bytes) {
  return std::to_string(bytes) + " bytes exceed the memory limit of " +
         std::to_string(memoryLimitBytes()) + " bytes (--max-memory)";
}

// a * b, saturating at UINT64_MAX: sizes computed from untrusted counts.
inline uint64_t saturatingMultiply(uint64_t a, uint64_t b) {
  uint64_t product;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}
inline uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  uint64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

} // namespace simulee
