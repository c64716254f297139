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
//
// Arithmetic never changes the space or the buffer: offsetPointer() adds to
// the offset field only, and an offset beyond the field's range sticks at the
// field's end (-2^39 or 2^39 - 1), out of bounds of every buffer (buffers are
// far smaller, see kMaxBufferBytes), never inside another buffer.
#pragma once

#include <cstdint>

namespace simulee::ir {

enum class PointerSpace : uint8_t { Global = 0, Shared = 1, Local = 2, Constant = 3 };

constexpr unsigned kOffsetBits = 40;
constexpr uint64_t kOffsetBias = uint64_t(1) << 39;
constexpr uint64_t kOffsetMask = (uint64_t(1) << kOffsetBits) - 1;
constexpr uint64_t kBufferMask = (uint64_t(1) << 22) - 1;
constexpr int64_t kMinOffset = -int64_t(kOffsetBias);
constexpr int64_t kMaxOffset = int64_t(kOffsetBias) - 1;
// No simulated buffer may be this large, so a saturated offset is always out
// of bounds.
constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 38;

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

// A shared variable's address as PTX's shared window gives it (32 bits:
// __cvta_generic_to_shared, the integer operands of .shared instructions):
//
//   31 ........... 20 | 19 ............ 0
//   shared buffer     | offset
//
// Shared memory is at most a few hundred KiB and a kernel has few shared
// variables, so both fit; ir/SharedWindows.h converts between the two.
constexpr unsigned kSharedWindowOffsetBits = 20;
constexpr uint64_t kSharedWindowOffsetMask = (uint64_t(1) << kSharedWindowOffsetBits) - 1;
constexpr uint64_t kSharedWindowBufferMask = (uint64_t(1) << (32 - kSharedWindowOffsetBits)) - 1;

// Function addresses (Program-wide: 0xF in the top bits, the function's index
// below) are not memory.
constexpr uint64_t kFunctionPointerTag = uint64_t(0xF) << 60;
inline bool isFunctionPointer(uint64_t bits) { return (bits >> 60) == 0xF; }

// `bits` moved by `delta` bytes inside its own buffer's offset field. Null
// (buffer field 0) stays null however far it moves, so an access through it
// is reported as a null-pointer access.
// Branch-free (selects only), so the interpreter's per-lane loops stay tight.
inline uint64_t offsetPointer(uint64_t bits, int64_t delta) {
  // The biased field plus delta: in [0, 2^40) it is the new field; above it
  // the offset saturates high, and a negative sum wraps to a huge unsigned
  // value whose delta is negative: saturate low.
  uint64_t field = (bits & kOffsetMask) + uint64_t(delta);
  uint64_t saturated = delta < 0 ? 0 : kOffsetMask;
  uint64_t moved = (bits & ~kOffsetMask) | (field <= kOffsetMask ? field : saturated);
  return isFunctionPointer(bits) ? bits + uint64_t(delta) : moved;
}

// index * scale for pointer arithmetic, saturating instead of wrapping.
inline int64_t scaledOffset(int64_t index, int64_t scale) {
  __int128 product = __int128(index) * scale;
  return product > INT64_MAX ? INT64_MAX : product < INT64_MIN ? INT64_MIN : int64_t(product);
}

} // namespace simulee::ir
