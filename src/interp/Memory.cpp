#include "interp/Memory.h"

#include <algorithm>

namespace simulee::interp {

std::vector<std::vector<uint8_t>> initialValues(const std::vector<ir::VariableInfo> &variables) {
  std::vector<std::vector<uint8_t>> values;
  for (const ir::VariableInfo &var : variables) {
    std::vector<uint8_t> bytes(var.sizeBytes, 0);
    std::copy_n(var.initializer.begin(), std::min(var.initializer.size(), bytes.size()),
                bytes.begin());
    values.push_back(std::move(bytes));
  }
  return values;
}

LaunchMemory::LaunchMemory(const ir::Program &program, std::vector<ArgumentValue> &args,
                           uint32_t dynamicSharedBytes, BoundMemory *bound) {
  for (ArgumentValue &arg : args) {
    paramBuffers_.push_back(arg.kind == ArgumentValue::Kind::Buffer ? &arg.bytes : nullptr);
    memberBuffers_.push_back(&arg.members);
  }
  globalVariables_ = bound && bound->globalVariables ? bound->globalVariables : &ownGlobalVariables_;
  constantVariables_ =
      bound && bound->constantVariables ? bound->constantVariables : &ownConstantVariables_;
  if (globalVariables_ == &ownGlobalVariables_)
    ownGlobalVariables_ = initialValues(program.globalVariables);
  if (constantVariables_ == &ownConstantVariables_)
    ownConstantVariables_ = initialValues(program.constantVariables);
  if (bound) {
    boundAllocations_ = bound->allocations;
    external_ = bound->external;
  }
  for (const ir::VariableInfo &var : program.sharedVariables)
    sharedGarbage_.push_back(garbage(var.isDynamicShared ? dynamicSharedBytes : var.sizeBytes));
  shared_.resize(sharedGarbage_.size());
}

// Shared memory is not zeroed on a GPU: a block finds whatever was there. A
// fixed non-zero pattern stands for it, so that code relying on zeros takes
// the paths it would take on hardware (reads of it are reported by memmodel
// as uninitialized-read).
std::vector<uint8_t> LaunchMemory::garbage(uint64_t sizeBytes) {
  std::vector<uint8_t> bytes(sizeBytes);
  uint64_t state = 0x5EED5EED5EED5EEDull;
  for (uint64_t i = 0; i < sizeBytes; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    bytes[i] = uint8_t(state >> 56) | 1;
  }
  return bytes;
}

void LaunchMemory::beginBlock() {
  for (size_t i = 0; i < shared_.size(); ++i)
    shared_[i] = sharedGarbage_[i];
}

std::vector<uint8_t> *LaunchMemory::memberBuffer(ir::MemberBufferRef ref) {
  if (ref.parameter < memberBuffers_.size() && ref.member < memberBuffers_[ref.parameter]->size())
    return &(*memberBuffers_[ref.parameter])[ref.member];
  return nullptr;
}

// The global buffers a launch names in its own right: its arguments, their
// members, the caller's bound allocations and the module's variables (the
// hot path of every access).
inline std::vector<uint8_t> *LaunchMemory::globalBuffer(uint32_t buffer) {
  if (buffer < paramBuffers_.size())
    return paramBuffers_[buffer];
  if (std::optional<ir::MemberBufferRef> member = ir::memberBufferOf(buffer))
    return memberBuffer(*member);
  if (buffer >= ir::kFirstBoundBuffer && buffer - ir::kFirstBoundBuffer < boundAllocations_.size())
    return boundAllocations_[buffer - ir::kFirstBoundBuffer];
  if (buffer >= ir::kFirstGlobalVariableBuffer &&
      buffer - ir::kFirstGlobalVariableBuffer < globalVariables_->size())
    return &(*globalVariables_)[buffer - ir::kFirstGlobalVariableBuffer];
  return nullptr;
}

// The rarer global buffers, which an access finds only when globalBuffer has
// none: the device heap (the launch's own, or the caller's allocations made
// during the launch), and a program's own address of managed or host memory
// read from memory (a pointer the host stored in a managed linked list),
// which the allocation's encoded pointer stands for: the buffer, and the
// pointer that names it.
LaunchMemory::FoundBuffer LaunchMemory::otherGlobalBuffer(uint64_t pointer) {
  uint32_t buffer = ir::decodePointer(pointer).buffer;
  if (buffer >= ir::kFirstHeapBuffer && buffer < ir::kFirstBoundBuffer)
    return {buffer - ir::kFirstHeapBuffer < heap_.size() ? heap_[buffer - ir::kFirstHeapBuffer].get()
                                                         : nullptr,
            pointer};
  if (!external_)
    return {nullptr, pointer};
  if (buffer >= ir::kFirstBoundBuffer)
    return {external_->heapBuffer(buffer), pointer};
  uint64_t encoded = external_->fromProgramAddress(pointer);
  if (!encoded)
    return {nullptr, pointer};
  return {globalBuffer(ir::decodePointer(encoded).buffer), encoded};
}

ResolvedAccess LaunchMemory::resolve(uint64_t pointer, uint64_t sizeBytes,
                                     std::vector<uint8_t> &local) {
  ir::DecodedPointer p = ir::decodePointer(pointer);
  ResolvedAccess access{nullptr, MemSpace(uint8_t(p.space)), p.buffer, uint64_t(p.offset), 0, false};
  if (p.isNull) {
    access.buffer = 0;
    return access;
  }
  std::vector<uint8_t> *buffer = nullptr;
  switch (p.space) {
  case ir::PointerSpace::Global:
    buffer = globalBuffer(p.buffer);
    if (!buffer) [[unlikely]] {
      FoundBuffer other = otherGlobalBuffer(pointer);
      buffer = other.bytes;
      p = ir::decodePointer(other.pointer);
      access.buffer = p.buffer;
      access.offset = uint64_t(p.offset);
    }
    break;
  case ir::PointerSpace::Shared:
    if (p.buffer < shared_.size())
      buffer = &shared_[p.buffer];
    break;
  case ir::PointerSpace::Constant:
    if (p.buffer < constantVariables_->size())
      buffer = &(*constantVariables_)[p.buffer];
    break;
  case ir::PointerSpace::Local:
    buffer = &local;
    access.buffer = 0;
    break;
  }
  if (!buffer)
    return access;
  access.namesBuffer = true;
  access.bufferSizeBytes = buffer->size();
  // Written so that no sum can overflow, whatever the offset and size.
  if (p.offset < 0 || sizeBytes > buffer->size() || uint64_t(p.offset) > buffer->size() - sizeBytes)
    return access;
  access.bytes = buffer->data() + p.offset;
  return access;
}

void LaunchMemory::remember(uint64_t pointer, const ResolvedAccess &access, ResolveCache &cache) {
  ir::DecodedPointer p = ir::decodePointer(pointer);
  // Only a buffer the pointer's own bits name (not a program address found
  // another way), reached in bounds (so its start is known), never a stack.
  if (!access.bytes || access.space == MemSpace::Local || access.buffer != p.buffer ||
      access.offset != uint64_t(p.offset))
    return;
  cache.tag = pointer & ~ir::kOffsetMask;
  cache.base = access.bytes - access.offset;
  cache.sizeBytes = access.bufferSizeBytes;
  cache.space = access.space;
  cache.buffer = access.buffer;
}

uint64_t LaunchMemory::heapAllocate(uint64_t sizeBytes, uint32_t instruction) {
  if (external_)
    return external_->allocate(sizeBytes, instruction);
  if (sizeBytes > kDefaultHeapBytes - heapBytes_ || heap_.size() >= (1u << 19))
    return 0; // malloc returns null, as on a GPU whose heap is full
  heapBytes_ += sizeBytes;
  // Not zeroed on a GPU either: the same pattern as fresh shared memory.
  heap_.push_back(std::make_unique<std::vector<uint8_t>>(garbage(sizeBytes)));
  return ir::encodePointer(ir::PointerSpace::Global,
                           ir::kFirstHeapBuffer + uint32_t(heap_.size() - 1), 0);
}

bool LaunchMemory::heapFree(uint64_t pointer) {
  ir::DecodedPointer p = ir::decodePointer(pointer);
  if (p.isNull || p.space != ir::PointerSpace::Global || p.offset != 0)
    return false;
  if (external_) {
    if (!external_->release(p.buffer))
      return false;
    // Bound when the launch began (made by an earlier launch): gone now.
    if (p.buffer >= ir::kFirstBoundBuffer && p.buffer - ir::kFirstBoundBuffer < boundAllocations_.size())
      boundAllocations_[p.buffer - ir::kFirstBoundBuffer] = nullptr;
    return true;
  }
  if (p.buffer < ir::kFirstHeapBuffer || p.buffer - ir::kFirstHeapBuffer >= heap_.size())
    return false;
  std::unique_ptr<std::vector<uint8_t>> &allocation = heap_[p.buffer - ir::kFirstHeapBuffer];
  if (!allocation)
    return false;
  heapBytes_ -= allocation->size();
  allocation.reset();
  return true;
}

} // namespace simulee::interp
