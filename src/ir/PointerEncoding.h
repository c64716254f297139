// How a simulated pointer is packed into 64 bits. The encoding carries the
// memory space and the buffer, so every address is attributable to a named
// variable and generic pointers need no address-space tracking.
//
//   63 62 | 61 ............ 40 | 39 ................ 0
//   space | buffer + 1 (22 b)  | offset + 2^39 (40 b)
//
// buffer + 1 keeps the null pointer (all zeros) invalid; the biased offset
// keeps small negative offsets (p[-1]) inside their own buffer's field, so
// they are reported as out of bounds of the right variable.
#pragma once

#include <cstdint>

namespace simulee::ir {

enum class PointerSpace : uint8_t { Global = 0, Shared = 1, Local = 2, Constant = 3 };

constexpr unsigned kOffsetBits = 40;
constexpr uint64_t kOffsetBias = uint64_t(1) << 39;
constexpr uint64_t kOffsetMask = (uint64_t(1) << kOffsetBits) - 1;
constexpr uint64_t kBufferMask = (uint64_t(1) << 22) - 1;

constexpr uint64_t encodePointer(PointerSpace space, uint32_t buffer, int64_t offset) {
  return (uint64_t(space) << 62) | ((uint64_t(buffer + 1) & kBufferMask) << kOffsetBits) |
         ((uint64_t(offset) + kOffsetBias) & kOffsetMask);
}

struct DecodedPointer {
  PointerSpace space;
  bool isNull;     // buffer field 0: null or an integer cast to a pointer
  uint32_t buffer; // valid unless isNull
  int64_t offset;
};

inline DecodedPointer decodePointer(uint64_t bits) {
  uint64_t bufferField = (bits >> kOffsetBits) & kBufferMask;
  return DecodedPointer{PointerSpace(bits >> 62), bufferField == 0, uint32_t(bufferField - 1),
                        int64_t(bits & kOffsetMask) - int64_t(kOffsetBias)};
}

} // namespace simulee::ir
