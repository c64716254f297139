// The simulated memory of one launch: global buffers (pointer arguments and
// __device__ variables), constant variables, one block's shared memory, and
// each thread's private stack. Resolves encoded pointers to bytes with bounds
// checks; an access outside its buffer is reported, never performed.
#pragma once

#include "interp/Events.h"
#include "interp/Launch.h"
#include "ir/PointerEncoding.h"
#include "ir/Program.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace simulee::interp {

// Where an encoded pointer points: bytes (null when out of bounds) and the
// identity the events report.
struct ResolvedAccess {
  uint8_t *bytes;
  MemSpace space;
  uint32_t buffer;
  uint64_t offset;         // as an unsigned byte offset (wraps for negative offsets)
  uint64_t bufferSizeBytes; // 0 when the pointer named no buffer
  bool namesBuffer = false; // false: null, or a pointer into no buffer (wild)
};

// The buffer the lanes of one warp instruction resolved to last
// (LaunchMemory::resolve): a lane whose pointer names the same buffer (the
// same bits above the offset) skips the lookup. Valid for one instruction
// only: the caller clears it before each, since an allocation between two
// instructions may move a buffer. Never holds a thread's local stack.
struct ResolveCache {
  uint64_t tag = ~uint64_t(0); // no pointer has every bit set
  uint8_t *base = nullptr;
  uint64_t sizeBytes = 0;
  MemSpace space = MemSpace::Global;
  uint32_t buffer = 0;

  void clear() { tag = ~uint64_t(0); }
};

// Each variable's bytes at the start of a program: its initializer, then
// zeros (a launch's own __device__/__constant__ storage, and simulee exec's
// per-module storage).
std::vector<std::vector<uint8_t>> initialValues(const std::vector<ir::VariableInfo> &variables);

class LaunchMemory {
public:
  // `bound` (optional) is caller-owned device memory, see BoundMemory.
  LaunchMemory(const ir::Program &program, std::vector<ArgumentValue> &args,
               uint32_t dynamicSharedBytes, BoundMemory *bound = nullptr);

  // Fresh shared memory for the next block: not zeroed, as on a GPU.
  void beginBlock();
  // A block that waits at a grid barrier takes its shared memory along and
  // brings it back when it goes on.
  std::vector<std::vector<uint8_t>> takeShared() {
    std::vector<std::vector<uint8_t>> taken = std::move(shared_);
    shared_.assign(sharedGarbage_.size(), {});
    return taken;
  }
  void restoreShared(std::vector<std::vector<uint8_t>> shared) { shared_ = std::move(shared); }

  // The __device__ and __constant__ variables the launch uses (its own or
  // the bound ones): what other LaunchMemory objects of the same launch
  // bind to share them (blocks in parallel).
  std::vector<std::vector<uint8_t>> *globalVariables() { return globalVariables_; }
  std::vector<std::vector<uint8_t>> *constantVariables() { return constantVariables_; }

  // `local` is the accessing thread's private stack.
  ResolvedAccess resolve(uint64_t pointer, uint64_t sizeBytes, std::vector<uint8_t> &local);
  // The same, through `cache`: a pointer into the buffer the cache holds is
  // resolved without a lookup, and a resolved buffer is remembered.
  ResolvedAccess resolve(uint64_t pointer, uint64_t sizeBytes, std::vector<uint8_t> &local,
                         ResolveCache &cache) {
    if ((pointer & ~ir::kOffsetMask) == cache.tag) [[likely]] {
      int64_t offset = int64_t(pointer & ir::kOffsetMask) - int64_t(ir::kOffsetBias);
      ResolvedAccess access{nullptr, cache.space, cache.buffer, uint64_t(offset), cache.sizeBytes,
                            true};
      if (offset >= 0 && sizeBytes <= cache.sizeBytes &&
          uint64_t(offset) <= cache.sizeBytes - sizeBytes)
        access.bytes = cache.base + offset;
      return access;
    }
    ResolvedAccess access = resolve(pointer, sizeBytes, local);
    remember(pointer, access, cache);
    return access;
  }

  // The device heap (malloc/free, new/delete in kernels): the caller's when
  // it binds external memory, else the launch's own (kDefaultHeapBytes).
  // An encoded pointer to `sizeBytes` new bytes, or 0 when the heap is full.
  uint64_t heapAllocate(uint64_t sizeBytes, uint32_t instruction);
  // Frees the allocation `pointer` starts; false when it starts none.
  bool heapFree(uint64_t pointer);

private:
  std::vector<std::vector<uint8_t> *> paramBuffers_; // null for scalars
  std::vector<std::vector<std::vector<uint8_t>> *> memberBuffers_; // by parameter
  std::vector<std::vector<uint8_t>> ownGlobalVariables_;
  std::vector<std::vector<uint8_t>> ownConstantVariables_;
  std::vector<std::vector<uint8_t>> *globalVariables_;   // own or bound
  std::vector<std::vector<uint8_t>> *constantVariables_; // own or bound
  std::vector<std::vector<uint8_t> *> boundAllocations_;
  static std::vector<uint8_t> garbage(uint64_t sizeBytes);
  // The buffer a pointer member points to, or null.
  std::vector<uint8_t> *memberBuffer(ir::MemberBufferRef ref);

  ExternalMemory *external_ = nullptr;
  // The launch's own heap: buffer kFirstHeapBuffer + i, null once freed.
  std::vector<std::unique_ptr<std::vector<uint8_t>>> heap_;
  uint64_t heapBytes_ = 0;
  std::vector<uint8_t> *globalBuffer(uint32_t buffer);
  struct FoundBuffer {
    std::vector<uint8_t> *bytes;
    uint64_t pointer; // the encoded pointer that names it
  };
  [[gnu::noinline]] FoundBuffer otherGlobalBuffer(uint64_t pointer);
  // Keeps `access`'s buffer in `cache` when `pointer` names it directly.
  static void remember(uint64_t pointer, const ResolvedAccess &access, ResolveCache &cache);

  std::vector<std::vector<uint8_t>> shared_;
  std::vector<std::vector<uint8_t>> sharedGarbage_; // each block's initial shared memory
};

} // namespace simulee::interp
