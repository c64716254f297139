// Calls to declared functions that the interpreter implements natively: LLVM
// and NVVM intrinsics, libdevice (__nv_*) math, vprintf, and the legacy
// research-tool style (@__syncthreads). Maps a callee name to what it lowers to.
#pragma once

#include "ir/Opcodes.h"

#include <llvm/ADT/StringRef.h>

#include <optional>

namespace simulee::ir {

enum class BuiltinKind : uint8_t {
  Ignore,       // debug info, lifetime markers, assumptions: no effect
  Identity,     // returns its first argument (llvm.expect, address-space casts)
  SpecialReg,   // selector = SpecialRegister
  Barrier,      // selector = BarrierKind; predicate argument index in `predicateArg`
  NamedBarrier, // selector = NamedBarrierMode; arguments (id[, thread count])
  WarpSync,
  Fence,
  MathUnary,  // selector = MathFunction
  MathBinary, // selector = MathFunction
  Fma,
  FDiv,
  FAdd,
  FMul,
  IntUnary,    // selector = IntFunction
  IntBinary,   // selector = IntFunction
  FunnelShift, // selector 0 = left, 1 = right
  FindNthSet,  // llvm.nvvm.fns(mask, base, offset): PTX fns
  RoundToInt,  // selector = MathFunction rounding (Rint/Trunc/Ceil/Floor); isSigned
  IntToFloat,  // selector = RoundingMode; isSigned: __int2float_rz, llvm.nvvm.ull2d.rp ...
  Shuffle,     // selector = ShuffleMode; hasMask
  Vote,        // selector = VoteMode; hasMask
  ActiveMask,
  MatchAny,
  WarpReduce, // llvm.nvvm.redux.sync.<op>: selector = WarpReduceOp
  Load,       // llvm.nvvm.ldg / ldu: a load through argument 0
  MemCopy,
  MemMove,
  MemSet,
  Print,
  Trap,
  Exit,
  PowI,        // llvm.powi: float base, int exponent
  Bitcast,     // __int_as_float and friends: reinterpret the bits
  AtomicRMW,   // llvm.nvvm.atomic.load.inc/dec, .atomic.<op>.gen.*: selector = AtomicOp
  CmpXchg,     // llvm.nvvm.atomic.cas.gen.i.<scope>: (pointer, expected, desired) -> old
  Texture,     // simulee's tex/suld/sust calls (ir/TexturePtx.h): selector = TextureAccess
  GridBarrier, // ir/GridSync.h's builtins: selector 0 = arrive, 1 = wait
  Malloc,      // device malloc(size)
  Free,        // device free(pointer)
};

enum class TextureAccess : uint8_t { Fetch, SurfaceLoad, SurfaceStore };

struct Builtin {
  BuiltinKind kind;
  uint8_t selector = 0;
  bool hasMask = false;  // shuffles and votes: first argument is the member mask
  bool isSigned = true;  // RoundToInt, IntToFloat
  bool fromPointer = false;
  bool required = false; // Barrier: never advised away (KernelInfo::requiredBarrierInstructions)
  bool blockScope = false; // AtomicRMW, CmpXchg: atomic within the block only (ir::kBlockScope)
  RoundingMode rounding = RoundingMode::Nearest; // MathUnary Sqrt and Rcp
};

// Returns what a call to `name` lowers to, or nothing for an unknown function.
std::optional<Builtin> classifyBuiltin(llvm::StringRef name);

} // namespace simulee::ir
