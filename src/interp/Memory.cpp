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

std::vector<uint8_t> *LaunchMemory::buffer(ir::DecodedPointer p) {
  if (p.buffer < paramBuffers_.size())
    return paramBuffers_[p.buffer];
  if (std::optional<ir::MemberBufferRef> member = ir::memberBufferOf(p.buffer))
    return memberBuffer(*member);
  if (p.buffer >= ir::kFirstBoundBuffer) {
    if (p.buffer - ir::kFirstBoundBuffer < boundAllocations_.size() &&
        boundAllocations_[p.buffer - ir::kFirstBoundBuffer])
      return boundAllocations_[p.buffer - ir::kFirstBoundBuffer];
    return external_ ? external_->heapBuffer(p.buffer) : nullptr;
  }
  if (p.buffer >= ir::kFirstHeapBuffer)
    return p.buffer - ir::kFirstHeapBuffer < heap_.size() ? heap_[p.buffer - ir::kFirstHeapBuffer].get()
                                                          : nullptr;
  if (p.buffer >= ir::kFirstGlobalVariableBuffer &&
      p.buffer - ir::kFirstGlobalVariableBuffer < globalVariables_->size())
    return &(*globalVariables_)[p.buffer - ir::kFirstGlobalVariableBuffer];
  return nullptr;
}

ResolvedAccess LaunchMemory::resolve(uint64_t pointer, uint64_t sizeBytes,
                                     std::vector<uint8_t> &local) {
  ir::DecodedPointer p = ir::decodePointer(pointer);
  std::vector<uint8_t> *buffer = nullptr;
  if (p.space == ir::PointerSpace::Global && !p.isNull) {
    buffer = this->buffer(p);
    // A program's own address of managed or host memory, read from memory
    // (a pointer the host stored in a managed linked list): the allocation's
    // encoded pointer stands for it.
    if (!buffer && external_)
      if (uint64_t encoded = external_->fromProgramAddress(pointer)) {
        p = ir::decodePointer(encoded);
        buffer = this->buffer(p);
      }
  }
  ResolvedAccess access{nullptr, MemSpace(uint8_t(p.space)), p.buffer, uint64_t(p.offset), 0, false};
  if (p.isNull) {
    access.buffer = 0;
    return access;
  }
  switch (p.space) {
  case ir::PointerSpace::Global:
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
