#include "interp/Launch.h"

#include "interp/MathLibrary.h"
#include "ir/PointerEncoding.h"
#include "support/MemoryLimit.h"

#include <map>

namespace simulee::interp {

std::string formatDim3(const Dim3 &d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

Status validateLaunch(const LaunchConfig &config) {
  const Dim3 &b = config.block, &g = config.grid;
  if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
    return makeError("launch dimensions must be at least 1 (grid " + formatDim3(g) + ", block " +
                     formatDim3(b) + ")");
  if (b.count() > kMaxThreadsPerBlock)
    return makeError("block " + formatDim3(b) + " has " + std::to_string(b.count()) +
                     " threads; the limit is " + std::to_string(kMaxThreadsPerBlock));
  if (b.z > kMaxBlockDimZ)
    return makeError("block z dimension " + std::to_string(b.z) + " exceeds the limit of " +
                     std::to_string(kMaxBlockDimZ));
  if (g.x > kMaxGridDimX)
    return makeError("grid " + formatDim3(g) + " exceeds the x limit of " +
                     std::to_string(kMaxGridDimX));
  if (g.y > kMaxGridDimYZ || g.z > kMaxGridDimYZ)
    return makeError("grid " + formatDim3(g) + " exceeds the y/z limit of " +
                     std::to_string(kMaxGridDimYZ));
  uint64_t sharedLimit = config.sharedBytesLimit
                             ? std::min<uint64_t>(config.sharedBytesLimit, kMaxSharedBytesPerBlockOptIn)
                             : kMaxSharedBytesPerBlock;
  if (config.dynamicSharedBytes > sharedLimit)
    return makeError("dynamic shared memory of " + std::to_string(config.dynamicSharedBytes) +
                     " bytes exceeds the limit of " + std::to_string(sharedLimit));
  return Ok{};
}

uint64_t maxSimulatedThreads() {
  return std::max(kMaxSimulatedThreads, memoryLimitBytes() / kModelBytesPerThread);
}

Status validateLaunchSize(const LaunchConfig &config) {
  // A launch that stops itself when its model outgrows --max-memory and
  // when it spends its budget (seconds or thread-instructions) runs at any
  // size: what it judged before it stopped stands.
  bool bounded = config.budgetSeconds > 0 || config.totalBudgetInstrs != kUnlimitedInstrs;
  if ((config.stopOverMemory && bounded) || !config.modelsAccesses)
    return Ok{};
  uint64_t threads = saturatingMultiply(config.grid.count(), config.block.count());
  if (threads > maxSimulatedThreads())
    return makeError("launch too large to simulate (" + std::to_string(threads) +
                     " threads; at most " + std::to_string(maxSimulatedThreads()) +
                     " in --max-memory " + std::to_string(memoryLimitBytes() >> 20) +
                     " MiB); limit it with a smaller --grid or --block, or raise --max-memory");
  return Ok{};
}

Status validateLaunchMemory(const ir::Program &program, const ir::KernelInfo &kernel,
                            const LaunchConfig &config, const std::vector<ArgumentValue> &args) {
  // Which kernel uses which __shared__ variable is not known here: each one
  // alone must fit a block.
  uint64_t total = config.dynamicSharedBytes;
  for (const ir::VariableInfo &var : program.sharedVariables) {
    if (var.isDynamicShared)
      continue;
    if (var.sizeBytes > kMaxSharedBytesPerBlock)
      return makeError("__shared__ variable '" + var.name + "' of " +
                       std::to_string(var.sizeBytes) + " bytes exceeds the limit of " +
                       std::to_string(kMaxSharedBytesPerBlock) + " bytes per block");
    total = saturatingAdd(total, var.sizeBytes);
  }
  for (const auto *variables : {&program.globalVariables, &program.constantVariables})
    for (const ir::VariableInfo &var : *variables) {
      if (var.sizeBytes > ir::kMaxBufferBytes)
        return makeError("variable '" + var.name + "' of " + std::to_string(var.sizeBytes) +
                         " bytes is too large to simulate");
      total = saturatingAdd(total, var.sizeBytes);
    }
  for (const ArgumentValue &arg : args) {
    total = saturatingAdd(total, arg.bytes.size());
    for (const std::vector<uint8_t> &member : arg.members)
      total = saturatingAdd(total, member.size());
  }
  // Registers: every warp of a block holds the kernel's frame.
  uint64_t warps = (config.block.count() + kWarpSize - 1) / kWarpSize;
  uint64_t slots = program.functions[kernel.function].numSlots;
  total = saturatingAdd(total, saturatingMultiply(warps, slots * kWarpSize * sizeof(uint64_t)));
  if (total > memoryLimitBytes())
    return makeError("the launch needs " + overMemoryLimit(total));
  return Ok{};
}

std::vector<bool> untrackedInstructions(const ir::Program &program, const ir::KernelInfo &kernel,
                                        const LaunchConfig &config,
                                        const std::vector<ArgumentValue> &args) {
  if (kernel.untracked.empty() || args.size() != kernel.params.size())
    return {};
  // Which buffer each pointer parameter points into: its own (a buffer
  // argument), or the one its encoded pointer names.
  constexpr uint64_t kOwnBuffer = uint64_t(1) << 63, kNotOwn = ~uint64_t(0);
  std::vector<uint64_t> target(args.size(), kNotOwn);
  std::map<uint64_t, unsigned> sharing;
  for (size_t p = 0; p < args.size(); ++p) {
    const ir::ParamInfo &param = kernel.params[p];
    if (param.resource != ir::ResourceKind::None) {
      // A texture's texels: its own buffer, or the one it aliases (another
      // parameter's, or memory `simulee exec` bound; never a __device__
      // variable's or a struct member's here).
      const std::optional<TextureDescriptor> &texture = args[p].texture;
      if (param.resource != ir::ResourceKind::Texture || !texture)
        continue;
      auto alias = uint32_t(texture->aliasOf);
      if (texture->aliasOf < 0)
        target[p] = kOwnBuffer | p;
      else if (alias < ir::kFirstMemberBuffer)
        target[p] = kOwnBuffer | alias;
      else if (alias >= ir::kFirstBoundBuffer)
        target[p] = alias;
      else
        continue;
      ++sharing[target[p]];
      continue;
    }
    if (param.kind != ir::ValueKind::Pointer || param.byValueBytes)
      continue;
    if (args[p].kind == ArgumentValue::Kind::Buffer) {
      target[p] = kOwnBuffer | p;
    } else {
      ir::DecodedPointer pointer = ir::decodePointer(args[p].bits);
      bool variable = pointer.buffer >= ir::kFirstGlobalVariableBuffer &&
                      pointer.buffer < ir::kFirstBoundBuffer;
      if (pointer.isNull || pointer.space != ir::PointerSpace::Global || variable)
        continue;
      // Into another parameter's buffer (session's same:NAME), or memory
      // `simulee exec` bound.
      target[p] =
          pointer.buffer < ir::kFirstMemberBuffer ? kOwnBuffer | pointer.buffer : pointer.buffer;
    }
    ++sharing[target[p]];
  }
  const Dim3 &g = config.grid, &b = config.block;
  bool oneDimensional = g.y == 1 && g.z == 1 && b.y == 1 && b.z == 1 &&
                        g.count() * b.count() < (uint64_t(1) << 31);
  // Rows of `width` elements hold a launch's threads apart when its depth
  // is 1, no row's x reaches the width, and every row index times the width
  // stays below 2^31.
  auto rowsApart = [&](const ir::UntrackedAccess &access) {
    int64_t width = access.rowWidth;
    if (access.rowWidthParam >= 0) {
      size_t p = size_t(access.rowWidthParam);
      if (p >= args.size() || args[p].kind != ArgumentValue::Kind::Scalar)
        return false;
      const ir::ParamInfo &param = kernel.params[p];
      if (param.bits == 0 || param.bits > 64)
        return false;
      uint64_t raw = args[p].bits & widthMask(param.bits);
      width = param.isSigned ? signExtend(raw, param.bits) : int64_t(raw);
    }
    uint64_t columns = uint64_t(g.x) * b.x, rows = uint64_t(g.y) * b.y, cells = 0;
    return g.z == 1 && b.z == 1 && width > 0 && uint64_t(width) >= columns &&
           !__builtin_mul_overflow(rows, uint64_t(width), &cells) && cells < (uint64_t(1) << 31);
  };
  std::vector<bool> untracked;
  for (const ir::UntrackedAccess &access : kernel.untracked) {
    if (access.param >= target.size() || target[access.param] == kNotOwn ||
        sharing[target[access.param]] != 1)
      continue;
    if (access.threadPrivate && !(access.inRows() ? rowsApart(access) : oneDimensional))
      continue;
    if (untracked.empty())
      untracked.resize(program.instructions.size());
    untracked[access.instruction] = true;
  }
  return untracked;
}

ArgumentValue ArgumentValue::scalar(uint64_t bits) {
  ArgumentValue value;
  value.kind = Kind::Scalar;
  value.bits = bits;
  return value;
}

ArgumentValue ArgumentValue::buffer(std::vector<uint8_t> bytes, bool autoSized) {
  ArgumentValue value;
  value.kind = Kind::Buffer;
  value.bytes = std::move(bytes);
  value.autoSized = autoSized;
  return value;
}

std::string bufferName(const ir::Program &program, const ir::KernelInfo &kernel, MemSpace space,
                       uint32_t buffer) {
  switch (space) {
  case MemSpace::Global:
    if (buffer < kernel.params.size())
      return kernel.params[buffer].name;
    if (std::optional<ir::MemberBufferRef> ref = ir::memberBufferOf(buffer);
        ref && ref->parameter < kernel.params.size() &&
        ref->member < kernel.params[ref->parameter].pointerMembers.size()) {
      const ir::ParamInfo &param = kernel.params[ref->parameter];
      const ir::PointerMember &pointer = param.pointerMembers[ref->member];
      return param.name + (pointer.name.empty()
                               ? " (pointer at byte " + std::to_string(pointer.offset) + ")"
                           : pointer.name.starts_with('[') ? pointer.name // "rows[]"
                                                           : "." + pointer.name);
    }
    if (buffer >= ir::kFirstHeapBuffer && buffer < ir::kFirstBoundBuffer)
      return "device-heap allocation #" + std::to_string(buffer - ir::kFirstHeapBuffer + 1) +
             " (malloc or new in a kernel)";
    if (buffer >= ir::kFirstGlobalVariableBuffer &&
        buffer - ir::kFirstGlobalVariableBuffer < program.globalVariables.size())
      return program.globalVariables[buffer - ir::kFirstGlobalVariableBuffer].name;
    return "<unknown global>";
  case MemSpace::Shared:
    return buffer < program.sharedVariables.size() ? program.sharedVariables[buffer].name
                                                   : "<unknown shared>";
  case MemSpace::Constant:
    return buffer < program.constantVariables.size() ? program.constantVariables[buffer].name
                                                     : "<unknown constant>";
  case MemSpace::Local:
    return "<local>";
  }
  return "?";
}

} // namespace simulee::interp
