// Address identity in the model: memory is cut into naturally aligned 8-byte
// granules, and an access covers a byte mask of each granule it touches, so
// overlap of any two accesses is one AND of their masks (a 4-byte write and a
// 1-byte read of its last byte share bit 3 or 7 of one granule).
#pragma once

#include "memmodel/Access.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace simulee::memmodel {

constexpr unsigned kGranuleBytes = 8;
using ByteMask = uint8_t; // bit i = byte i of the granule

// Shared memory is per block, so its granules carry the block as scope;
// global and constant memory are one for the whole grid.
constexpr uint32_t kGridScope = ~0u;

struct GranuleKey {
  interp::MemSpace space = interp::MemSpace::Global;
  uint32_t buffer = 0;
  uint32_t scope = kGridScope;
  uint64_t index = 0; // byte offset / kGranuleBytes

  bool operator==(const GranuleKey &) const = default;
  uint64_t firstByte() const { return index * kGranuleBytes; }
};

struct GranuleKeyHash {
  size_t operator()(const GranuleKey &key) const {
    uint64_t h = key.index * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t(key.buffer) << 32 | key.scope) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    h ^= uint64_t(key.space) * 0xC2B2AE3D27D4EB4Full;
    return std::hash<uint64_t>()(h);
  }
};

inline uint32_t scopeOf(interp::MemSpace space, uint32_t block) {
  return space == interp::MemSpace::Shared ? block : kGridScope;
}

// Bytes [offset, offset + sizeBytes) restricted to granule `index`.
inline ByteMask bytesInGranule(uint64_t offset, uint32_t sizeBytes, uint64_t index) {
  uint64_t begin = index * kGranuleBytes;
  uint64_t end = begin + kGranuleBytes;
  uint64_t from = offset > begin ? offset : begin;
  uint64_t to = offset + sizeBytes < end ? offset + sizeBytes : end;
  if (from >= to)
    return 0;
  unsigned width = unsigned(to - from);
  unsigned shift = unsigned(from - begin);
  return ByteMask(((1u << width) - 1u) << shift);
}

// Calls f(GranuleKey, ByteMask) for every granule `access` touches.
template <class F> void forEachGranule(const Access &access, F &&f) {
  uint32_t size = access.sizeBytes == 0 ? 1 : access.sizeBytes;
  uint64_t first = access.offset / kGranuleBytes;
  uint64_t last = (access.offset + size - 1) / kGranuleBytes;
  for (uint64_t index = first; index <= last; ++index) {
    GranuleKey key{access.space, access.buffer, scopeOf(access.space, access.block), index};
    f(key, bytesInGranule(access.offset, size, index));
  }
}

// First byte and byte span of a mask: the offset and size a summary cell
// gives back for its access (narrowed to the granule).
inline unsigned firstByteOf(ByteMask mask) { return unsigned(std::countr_zero(unsigned(mask))); }
inline unsigned spanOf(ByteMask mask) {
  return 8u - unsigned(std::countl_zero(uint8_t(mask))) - firstByteOf(mask);
}

} // namespace simulee::memmodel
