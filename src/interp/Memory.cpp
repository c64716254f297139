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
  if (bound)
    boundAllocations_ = bound->allocations;
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
    if (p.buffer < paramBuffers_.size())
      buffer = paramBuffers_[p.buffer];
    else if (std::optional<ir::MemberBufferRef> member = ir::memberBufferOf(p.buffer))
      buffer = memberBuffer(*member);
    else if (p.buffer >= ir::kFirstBoundBuffer &&
             p.buffer - ir::kFirstBoundBuffer < boundAllocations_.size())
      buffer = boundAllocations_[p.buffer - ir::kFirstBoundBuffer];
    else if (p.buffer >= ir::kFirstGlobalVariableBuffer &&
             p.buffer - ir::kFirstGlobalVariableBuffer < globalVariables_->size())
      buffer = &(*globalVariables_)[p.buffer - ir::kFirstGlobalVariableBuffer];
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

} // namespace simulee::interp
