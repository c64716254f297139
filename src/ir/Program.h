// The interpreter's compact program form: LLVM IR lowered once per module into
// flat arrays of decoded instructions with resolved operand slots, plus what
// diagnostics need (kernels, parameters, variables, source locations).
#pragma once

#include "ir/Opcodes.h"

#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
class Instruction;
} // namespace llvm

namespace simulee::jit {
class CodeCache;
} // namespace simulee::jit

namespace simulee::ir {

struct SourceLocation {
  std::string file; // as written in debug info (may be relative to `directory`)
  std::string directory;
  uint32_t line = 0; // 0 = unknown
  uint32_t column = 0;
  bool known() const { return line != 0; }
};

// Diagnostic information for one lowered instruction (Program-wide id).
// What an atomic access does to memory (ir/AtomicUnits.h): the interleaved
// access of an atomicity violation must write (or, between two writes, read).
enum class AtomicRole : uint8_t {
  None,      // not an atomic access
  Reads,     // an atomic load, or an update that leaves the value (atomicAdd(p, 0))
  Writes,    // an atomic store: writes, returns nothing
  Updates,   // a read-modify-write or compare-and-swap: reads and may write
  UpdatesMonotonic, // atomicMax/Min/Or/And: moves the value one way only
};

// The five ways a thread's pair of atomic accesses to one address, meant as
// one step, is broken by another thread's access between them (after the
// ARCAV paper; DESIGN.md, "Atomicity violation"; ir/AtomicUnits.h says when a
// pair counts as meant as one step).
enum class AtomicityPattern : uint8_t {
  ReadWriteRead,  // a value checked, then read again: the re-read sees another
  ReadWriteWrite, // a value read, then written back computed from it: lost update
  WriteReadWrite, // a value written, then overwritten from it: another sees the first
  WriteWriteRead, // a value written, then read back for use: another's write is read
  CheckThenAct,   // a value checked, then written under the check: the check is stale
};
// "read-write-read", ..., "check-then-act".
inline const char *atomicityPatternName(AtomicityPattern pattern) {
  switch (pattern) {
  case AtomicityPattern::ReadWriteRead: return "read-write-read";
  case AtomicityPattern::ReadWriteWrite: return "read-write-write";
  case AtomicityPattern::WriteReadWrite: return "write-read-write";
  case AtomicityPattern::WriteWriteRead: return "write-write-read";
  case AtomicityPattern::CheckThenAct: return "check-then-act";
  }
  return "?";
}

// A pair of one thread's atomic accesses to one address meant as one step.
struct AtomicUnit {
  uint32_t first = 0;  // instruction id, executed first
  uint32_t second = 0; // instruction id
  AtomicityPattern pattern = AtomicityPattern::ReadWriteWrite;
};

struct InstructionInfo {
  SourceLocation location;
  uint32_t function = 0;                   // index into Program::functions
  const llvm::Instruction *llvm = nullptr; // for instructionText()
  AtomicRole atomicRole = AtomicRole::None;
  // A volatile load or store: PTX's ld/st.volatile, a strong relaxed access
  // at system scope (DESIGN.md's race rule for volatile accesses).
  bool isVolatile = false;
};

enum class ValueKind : uint8_t { Int, Float, Pointer, Aggregate };

// A kernel parameter that is a texture or surface object handle.
enum class ResourceKind : uint8_t { None, Texture, Surface };

// A pointer stored inside an aggregate passed by value (a struct's `float
// *data`), or inside each struct a pointer parameter points to: the launch
// backs it with a buffer of its own, as it does a pointer parameter
// (ir::memberBufferId).
struct PointerMember {
  uint32_t offset = 0; // bytes from the aggregate's start
  std::string name;    // member path from debug info ("data", "in.m_iterator"); may be empty
  ValueKind elementKind = ValueKind::Int;
  uint32_t elementBytes = 0; // 0 = unknown (treated as 1-byte elements)
  bool elementSigned = true;
  bool isConst = false;
};

// A number stored inside an aggregate passed by value (a struct's `int n`),
// from debug info: the search varies it as it does a scalar parameter, and
// `--arg v.n=VALUE` sets it.
struct ScalarMember {
  uint32_t offset = 0; // bytes from the aggregate's start
  std::string name;    // member path ("n", "dims.width")
  ValueKind kind = ValueKind::Int; // Int or Float
  uint32_t bits = 32;
  bool isSigned = true;
  bool bfloat = false; // a 16-bit Float: bfloat16 (__nv_bfloat16), not IEEE half (__half)
};

// What a pointer parameter's contents are to the kernel's code
// (ir/ContentConventions.h).
enum class ContentRole : uint8_t {
  None,
  Index,   // read values index memory: conventionally in range
  Offsets, // pairs of read values bound a loop: conventionally non-decreasing
  Sorted,  // read values steer where the next read goes (a binary search):
           // conventionally sorted
  Scatter, // read values index where plain stores write (`out[perm[i]] = v`):
           // conventionally distinct and in range
};

struct ParamInfo {
  std::string name; // source name from debug info, else "argN"
  ValueKind kind = ValueKind::Int;
  uint32_t bits = 0; // scalar width; 64 for pointers
  // Pointers: what they point to, from debug info or the first typed use.
  ValueKind elementKind = ValueKind::Int;
  uint32_t elementBytes = 0; // 0 = unknown (treated as 1-byte elements)
  uint32_t byValueBytes = 0; // aggregate passed by value (byval): its size
  // Aggregates: their pointers, by offset. Pointers to structs: the pointers
  // inside each element (offsets in one element, from debug info).
  std::vector<PointerMember> pointerMembers;
  std::vector<ScalarMember> scalarMembers;   // aggregates: their named numbers, by offset
  bool isConst = false;      // `const T*` in the source
  bool isSigned = true;      // integers: from debug info (unsigned, bool)
  bool bfloat = false;       // 16-bit floats: bfloat16 (__bf16), not IEEE half
  bool elementSigned = true; // pointers to integers: from debug info
  // Pointers: what the kernel reads through it as indices or offsets, whose
  // contents CUDA code assumes in range or non-decreasing
  // (ir/ContentConventions.h).
  ContentRole contents = ContentRole::None;
  // Integers the code masks with (`i & (n - 1)`, `b & (2 * n / 128 - 1)`):
  // conventionally a power of two, and at least this one (2^k where the mask
  // divides the parameter by 2^k first); 0 for any other parameter
  // (ir/ContentConventions.h).
  uint64_t powerOfTwoFrom = 0;
  // Pointers to integers: the values the kernel's keyed accesses of a
  // fixed-size array take from it (`bins[(text[i] - 'a') / 4]` into a
  // 7-element shared array: 97..124), the range every such access stays in
  // bounds for; none where no access inverts to one
  // (ir/ContentConventions.h).
  std::optional<std::pair<int64_t, int64_t>> keyRange;
  // Whether an integer parameter's `value` is one its code conventionally
  // takes (a power of two where it masks with it).
  bool conventionalInteger(int64_t value) const {
    return powerOfTwoFrom == 0 ||
           (value >= int64_t(powerOfTwoFrom) && std::has_single_bit(uint64_t(value)));
  }
  // cudaTextureObject_t / cudaSurfaceObject_t (by its type in debug info):
  // kind is Pointer, so the launch backs it with a buffer of texels like a
  // pointer parameter; resourceDims is what the module's fetches use (1-3).
  ResourceKind resource = ResourceKind::None;
  uint8_t resourceDims = 0;

  // A pointer parameter backed by a buffer of its own: not an aggregate
  // passed by value, not a texture or surface object.
  bool isBufferPointer() const {
    return kind == ValueKind::Pointer && !byValueBytes && resource == ResourceKind::None;
  }
  // A pointer whose elements are structs or pointers: memory that may hold
  // the host's pointers (pointerMembers, where debug info names them).
  bool pointsToPointers() const {
    return kind == ValueKind::Pointer &&
           (elementKind == ValueKind::Aggregate || elementKind == ValueKind::Pointer);
  }
};

// A load or store no other thread's access can conflict with
// (ir/ConflictFreeAccesses.h), made through pointer parameter `param`.
struct UntrackedAccess {
  uint32_t instruction = 0;
  uint32_t param = 0;
  // Private to its thread in one-dimensional launches of fewer than 2^31
  // threads; false: read-only, in any launch.
  bool threadPrivate = false;
  // Private to its thread in rows of this width (elements of its stride): a
  // constant, or the value of integer parameter rowWidthParam; in launches
  // of depth 1 whose rows fit the width (ir/ConflictFreeAccesses.h).
  int64_t rowWidth = 0;
  int32_t rowWidthParam = -1;
  bool inRows() const { return rowWidth != 0 || rowWidthParam >= 0; }
};

// Which builtin variable components a kernel reads: readsBuiltin[BuiltinVariable][axis].
enum class BuiltinVariable : uint8_t { ThreadIdx, BlockIdx, BlockDim, GridDim };

struct KernelInfo {
  std::string name;       // symbol name (possibly mangled)
  std::string sourceName; // demangled base name, e.g. "reduce"
  // The parameter types as the symbol spells them ("(float*, int)"); empty
  // for a name that is not mangled (extern "C").
  std::string parameters;
  uint32_t function = 0;  // index into Program::functions
  std::vector<ParamInfo> params;
  // __launch_bounds__(N): the most threads per block a GPU launches it with
  // (0: no bound).
  uint32_t maxThreadsPerBlock = 0;
  // The block shape its CUB block collectives were instantiated for
  // (ir/BlockContract.h): x, y, z, all 0 when none.
  uint32_t contractBlock[3] = {0, 0, 0};
  std::string contractSource; // "cub::BlockReduce (BLOCK_DIM_X = 128)"
  // Defined in NVIDIA's headers (CUB, Thrust, libcu++): launched by the
  // library's own dispatch, with the block its tuning policy names, never by
  // the file's host code directly.
  bool library = false;
  // Whether memory contents can steer it (ir/ContentSteering.h): when not,
  // one launch stands for every content of its buffers.
  bool contentsSteer = true;
  // Its accesses the Memory-Access Model need not track, in instruction order
  // (interp::untrackedInstructions picks those a launch allows).
  std::vector<UntrackedAccess> untracked;
  // Pairs of atomic accesses meant as one step, in it and the functions it
  // calls (ir/AtomicUnits.h): what the atomicity-violation rule watches.
  std::vector<AtomicUnit> atomicUnits;
  bool readsBuiltin[4][3] = {};
  // How many axes of a grid (blockIdx, gridDim) or block (threadIdx,
  // blockDim) the kernel reads: 1 + the highest axis it reads of either.
  uint32_t rankRead(BuiltinVariable index, BuiltinVariable extent) const {
    uint32_t rank = 1;
    for (uint32_t axis = 0; axis < 3; ++axis)
      if (readsBuiltin[unsigned(index)][axis] || readsBuiltin[unsigned(extent)][axis])
        rank = axis + 1;
    return rank;
  }
  SourceLocation location;
  // Every barrier instruction reachable from the kernel (for "unreached").
  std::vector<uint32_t> barrierInstructions;
  // Barriers no advice may remove: those of barrierInstructions whose result
  // the kernel uses (__syncthreads_count/and/or), and the block barriers
  // inside a grid barrier (ir/GridSync.h), which barrierInstructions leaves
  // out.
  std::vector<uint32_t> requiredBarrierInstructions;
  // The static __shared__ memory of a block: the variables it and the
  // functions it calls use (cudaFuncGetAttributes's sharedSizeBytes).
  uint64_t staticSharedBytes = 0;
  // It (or a function it calls) synchronizes the whole grid
  // (this_grid().sync(), ir/GridSync.h): its blocks run interleaved.
  bool syncsGrid = false;
  // Non-empty when the kernel (or a function it calls) uses something the
  // interpreter cannot run; the message names the instruction and its line.
  std::string unsupported;
  // What the analysis assumed for it, for the verdict (e.g. "call to
  // undefined 'foo(int)' at f.cu:12 returned a chosen value"); each once.
  std::vector<std::string> notes;
};

// A module-level variable: __shared__, __device__ or __constant__.
struct VariableInfo {
  std::string name;       // source name ("tile"), else the symbol name
  std::string symbolName; // LLVM global name
  uint64_t sizeBytes = 0;
  std::vector<uint8_t> initializer; // empty = zero / undefined
  bool isDynamicShared = false;     // extern __shared__ T x[];
  bool managed = false;             // __managed__: the host uses it too
};

// One decoded instruction. Operands are slots: an index into the frame's
// registers, or (kConstantOperand | i) an index into Program::constants.
struct Instr {
  Op op = Op::Nop;
  uint8_t width = 0; // integer bit width, or float width (16/32/64)
  uint8_t flags = 0; // predicate, atomic operation, builtin selector ...
  uint32_t dst = 0;
  uint32_t a = 0, b = 0, c = 0;
  uint64_t imm = 0;  // immediate: size, scale, target pc ...
  uint32_t aux = 0;  // index into Function::aux side table
  uint32_t id = 0;   // Program-wide instruction id (for events and diagnostics)
};

constexpr uint32_t kConstantOperand = 0x80000000u;
constexpr uint32_t kNoReconvergence = 0xffffffffu; // reconverge at function exit

struct Function {
  std::string name;
  std::vector<Instr> code;
  std::vector<uint32_t> aux; // phi move lists, switch tables, call arguments
  uint32_t numSlots = 0;
  std::vector<uint32_t> paramSlots; // first slot of each parameter
  uint32_t returnSlots = 0;         // slots of the return value
  std::vector<uint32_t> callees;    // functions called directly
  std::vector<uint32_t> barriers;   // ids of its barrier instructions
  std::vector<uint32_t> requiredBarriers; // ... that no advice may remove (KernelInfo)
  bool readsBuiltin[4][3] = {};
  bool syncsGrid = false; // holds a grid barrier (Op::GridBarrier)
  std::vector<uint32_t> sharedVariables; // the static __shared__ ones it uses
  std::string error; // first unsupported construct, empty if none
  std::vector<std::string> notes; // calls of functions with no body (KernelInfo::notes)
  std::vector<AtomicUnit> atomicUnits; // its pairs meant as one step (ir/AtomicUnits.h)
};

// Buffer ids of module-level __device__ variables in MemSpace::Global start
// here; pointer parameters use 0..params-1.
constexpr uint32_t kFirstGlobalVariableBuffer = 1u << 20;
// Buffer ids of the memory the pointer members of by-value aggregate
// parameters (or of the structs a pointer parameter points to) point to:
// memberBufferId(parameter, member), below the global
// variables' ids. A kernel has at most kMaxMemberParams parameters with such
// buffers and each at most kMaxPointerMembers of them.
constexpr uint32_t kFirstMemberBuffer = 1u << 19;
constexpr uint32_t kMaxPointerMembers = 64;
constexpr uint32_t kMaxMemberParams = (kFirstGlobalVariableBuffer - kFirstMemberBuffer) /
                                      kMaxPointerMembers;
constexpr uint32_t memberBufferId(uint32_t parameter, uint32_t member) {
  return kFirstMemberBuffer + parameter * kMaxPointerMembers + member;
}
// The parameter and member of a memberBufferId; nullopt for any other id.
struct MemberBufferRef {
  uint32_t parameter = 0;
  uint32_t member = 0;
};
constexpr std::optional<MemberBufferRef> memberBufferOf(uint32_t buffer) {
  if (buffer < kFirstMemberBuffer || buffer >= kFirstGlobalVariableBuffer)
    return std::nullopt;
  return MemberBufferRef{(buffer - kFirstMemberBuffer) / kMaxPointerMembers,
                         (buffer - kFirstMemberBuffer) % kMaxPointerMembers};
}
// Buffer ids of device memory the caller binds to a launch (`simulee exec`:
// the program's cudaMalloc allocations, interp::BoundMemory) start here.
constexpr uint32_t kFirstBoundBuffer = 1u << 21;
// Buffer ids of the device heap a launch keeps itself (malloc and new in
// kernels outside `simulee exec`, whose heap allocations are bound buffers):
// in the upper half of the global variables' range, which no module fills.
constexpr uint32_t kFirstHeapBuffer = kFirstGlobalVariableBuffer + (1u << 19);

struct Program {
  Program();
  ~Program();
  Program(Program &&) noexcept;
  Program &operator=(Program &&) noexcept;

  std::string path; // the file it was loaded from
  // What loading assumed (old IR's debug info dropped ...); every kernel's
  // notes start with these.
  std::vector<std::string> notes;
  std::vector<Function> functions;
  std::vector<KernelInfo> kernels;
  std::vector<VariableInfo> sharedVariables;   // MemSpace::Shared buffers
  std::vector<VariableInfo> globalVariables;   // __device__: global buffers after the params
  std::vector<VariableInfo> constantVariables; // MemSpace::Constant buffers
  std::vector<InstructionInfo> instructions;
  // Each constant occupies kWarpSize consecutive copies so that an operand
  // reads the same way whether it is a register or a constant.
  std::vector<uint64_t> constants;
  // Its functions' native code, made on first use by the compiled engine
  // (jit::codeCacheOf); null until then.
  mutable std::shared_ptr<jit::CodeCache> compiledCode;

  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;

  const KernelInfo *findKernel(const std::string &name) const; // source or symbol name
  // The parameters that tell `kernel` from other kernels of its source name
  // (overloads): KernelInfo::parameters, or empty when it has none.
  std::string overloadParameters(const KernelInfo &kernel) const;
  std::string instructionText(uint32_t id) const;              // the LLVM text
  std::string functionName(uint32_t id) const;                 // enclosing function (source name)
};

} // namespace simulee::ir
