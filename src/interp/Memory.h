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

  std::vector<std::vector<uint8_t>> shared_;
  std::vector<std::vector<uint8_t>> sharedGarbage_; // each block's initial shared memory
};

} // namespace simulee::interp
