// The interpreter's instruction set. Each LLVM instruction lowers to one or
// more of these; vectors and aggregates are split into scalar slots first, so
// every opcode works on 64-bit scalar lanes.
#pragma once

#include <cstdint>

namespace simulee::ir {

enum class Op : uint16_t {
  Nop,
  Move,  // dst = a
  // Integer arithmetic at `width` bits; values are kept zero-extended.
  Add, Sub, Mul, UDiv, SDiv, URem, SRem, Shl, LShr, AShr, And, Or, Xor,
  ICmp,  // flags = IntPredicate
  SExt,  // dst = sext(a from imm bits) at width bits
  Trunc, // dst = a masked to width
  // Floating point at `width` (16, 32 or 64) bits. FAdd, FSub, FMul, FDiv
  // (and Fma): flags = RoundingMode (__dadd_rd, add.rp.f32 ...; 0: nearest).
  FAdd, FSub, FMul, FDiv, FRem, FNeg,
  FCmp,    // flags = FloatPredicate (LLVM's numbering)
  FPConv,  // float width imm -> float width `width`
  FPToUI, FPToSI, // imm = source float width, width = int width
  UIToFP, SIToFP, // imm = source int width, width = float width
  Select,  // dst = a ? b : c
  PtrAdd,       // dst = a + imm
  PtrAddScaled, // dst = a + sext(b from width bits) * imm
  Load,    // dst = mem[a], imm = size in bytes, flags bit0 = atomic/volatile
  Store,   // mem[a] = b, imm = size
  AtomicRMW, // dst = old mem[a]; mem[a] = op(old, b); flags = AtomicOp | kBlockScope, imm = size
  CmpXchg,   // dst = old, dst+1 = success; if old == b: mem[a] = c; imm = size; flags = kBlockScope
  MemCopy,   // copy c bytes from b to a (memmove semantics)
  MemSet,    // set c bytes at a to b
  Alloca,    // dst = new local memory of imm bytes (per lane)
  Malloc,    // dst = a new device-heap allocation of a bytes per lane (null when full)
  Free,      // frees the device-heap allocation a starts, per lane
  ExtractDyn, // dst = slot[a + b], imm = number of elements (bounds)
  InsertDyn,  // slots dst..dst+imm-1 = slots a..; then slot[dst + b] = c
  BitcastPack,   // dst = concat(slots a.., each `imm` bits), count in flags
  BitcastUnpack, // dst.. = split(a) into `imm`-bit pieces, count in flags
  SpecialReg,  // dst = builtin; flags = SpecialRegister
  MathUnary,   // dst = f(a); flags = MathFunction; imm = source width | RoundingMode << 8
               // (Sqrt and Rcp: __dsqrt_rd, sqrt.rp.f ...)
  MathBinary,  // dst = f(a, b); flags = MathFunction
  Fma,         // dst = a * b + c (fused); flags = RoundingMode
  IntUnary,    // ctpop, ctlz, cttz, bswap, bitreverse, abs; flags = IntFunction
  IntBinary,   // smin, smax, umin, umax, mulhi, ...; flags = IntFunction
  FunnelShift, // flags 0 = fshl, 1 = fshr: dst = fsh(a, b, c)
  FindNthSet,  // dst = the c-th set bit of mask a counted from bit b (PTX fns), or ~0u
  Shuffle,     // dst = value of a from lane computed from b; flags = ShuffleMode, c = width/clamp
  Vote,        // flags = VoteMode: all/any/ballot/uni; a = predicate, b = member mask
  MatchAny,    // dst = mask of lanes with equal value
  WarpReduce,  // dst = a combined over the lanes of member mask b (PTX redux.sync); flags = WarpReduceOp
  Barrier,     // __syncthreads; flags = BarrierKind (plain/and/or/popc); a = predicate
  NamedBarrier, // bar.sync/bar.arrive id, count: a = id, b = thread count (0: the whole
               // block); flags = NamedBarrierMode
  WarpSync,    // __syncwarp(a)
  GridBarrier, // the wait of a grid-wide barrier (ir/GridSync.h): the block parks until every
               // block of the grid arrives; dst = a counter whose top bit flipped
  // Textures and surfaces (interp/Texture.h); the handle `a` points to the
  // parameter's texels; coordinates b, c and the operand in imm (z).
  TextureFetch, // dst..dst+3 = channels; flags = textureFetchFlags
  SurfaceLoad,  // dst.. = flags >> 4 elements of `width` bits; flags & 15 = surfaceFlags
  SurfaceStore, // aux -> {count, value slots...} of `width` bits; flags as SurfaceLoad
  Fence,       // memory fence; flags: FenceScope (a device fence releases to other blocks)
  Print,       // printf: a = format pointer, aux = argument list
  Trap,        // abort the launch with an error; flags = TrapReason, a = the bad pointer
  ChosenValue, // dst = a value chosen per launch (the result of a call of a function with no
               // body); width = bits, flags 1 = floating point
  Exit,        // lanes leave the kernel
  // Control flow. Branch targets are instruction indexes in Function::code.
  Br,      // imm = target; aux -> phi moves for the edge
  CondBr,  // a = cond; aux -> {trueTarget, falseTarget, reconv, movesT.., movesF..}
  Switch,  // a = value; aux -> table
  Call,    // imm = callee function index; aux -> arguments; dst = return slots
  Ret,     // a = return value (first slot), imm = number of slots
  Unreachable,
};

enum class IntPredicate : uint8_t { EQ, NE, UGT, UGE, ULT, ULE, SGT, SGE, SLT, SLE };

// AtomicRMW / CmpXchg flag: an atomic whose scope is its block
// (atomicAdd_block, cuda::thread_scope_block): atomic for the threads of
// its block only (interp::AccessKind::BlockAtomic).
constexpr uint8_t kBlockScope = 0x80;

enum class AtomicOp : uint8_t {
  Xchg, Add, Sub, And, Or, Xor, Max, Min, UMax, UMin, FAdd, FSub, FMax, FMin, UIncWrap, UDecWrap
};

enum class SpecialRegister : uint8_t {
  TidX, TidY, TidZ, NTidX, NTidY, NTidZ, CtaIdX, CtaIdY, CtaIdZ, NCtaIdX, NCtaIdY, NCtaIdZ,
  LaneId, WarpId, WarpSize, LaneMaskLt, LaneMaskLe, LaneMaskEq, LaneMaskGe, LaneMaskGt,
  Clock, Clock64, GlobalTimer, SmId, NSmId, DynamicSharedSize,
  // %envreg1, %envreg2: the driver's grid workspace, which cooperative
  // groups' grid_group needs non-null (a cooperative launch) to sync.
  GridWorkspaceLow, GridWorkspaceHigh,
};

// The rounding of an integer-to-float conversion (Op::SIToFP, Op::UIToFP's
// flags): IEEE's four directions, PTX's .rn, .rz, .rp and .rm.
enum class RoundingMode : uint8_t { Nearest, TowardZero, Up, Down };

enum class MathFunction : uint8_t {
  // unary
  Sqrt, Rsqrt, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Exp, Exp2,
  Exp10, Expm1, Log, Log2, Log10, Log1p, Fabs, Floor, Ceil, Trunc, Round, Rint, Cbrt, Rcbrt, Erf,
  Erfc, Lgamma, Tgamma, Saturate, Signbit, IsNan, IsInf, IsFinite, Logb, Ilogb, Rcp, NearbyInt,
  // binary
  Pow, Atan2, Fmin, Fmax, Fmod, Remainder, Copysign, Hypot, Fdim, Ldexp, Scalbn, NextAfter,
};

enum class IntFunction : uint8_t {
  // unary
  Popc, Clz, Ctz, Ffs, Bswap, Brev, Abs,
  // binary
  SMin, SMax, UMin, UMax, MulHi, UMulHi, Mul24, UMul24, Sad, USad, HAdd, UHAdd, RHAdd, URHAdd,
  // binary with a second result slot (dst + 1): the overflow bit
  UAddO, SAddO, USubO, SSubO, UMulO, SMulO,
  // saturating
  UAddSat, SAddSat, USubSat, SSubSat,
};

constexpr bool isBinaryIntFunction(IntFunction f) { return f >= IntFunction::SMin; }
constexpr bool isBinaryMathFunction(MathFunction f) { return f >= MathFunction::Pow; }

enum class ShuffleMode : uint8_t { Idx, Up, Down, Bfly };
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
enum class WarpReduceOp : uint8_t { Add, Min, Max, UMin, UMax, And, Or, Xor };
enum class BarrierKind : uint8_t { Plain, And, Or, Count };
// Why Op::Trap stops the launch. Assert: a failed `assert`, a = its
// condition's text (the first argument of __assertfail / __assert_fail).
enum class TrapReason : uint8_t { Kernel, CallThroughNonFunction, Assert };

enum class NamedBarrierMode : uint8_t { Sync, Arrive }; // Arrive: count, do not wait
// Which threads a fence orders memory for (Op::Fence flags): its block
// (__threadfence_block, membar.cta) or the device and beyond (__threadfence,
// __threadfence_system).
enum class FenceScope : uint8_t { Block, Device };

// Texture fetches (Op::TextureFetch): what each channel returns (PTX
// tex.*.v4.{f32,s32,u32}); flags: dims in bits 0-1, integer coordinates
// (tex1Dfetch) in bit 2, TextureResult in bits 3-4, TextureGeometry in bits
// 5-6. A layered fetch (tex.a1d, tex.a2d) has its integer layer as the z
// coordinate; a cube map fetch (tex.cube) has a direction (x, y, z).
enum class TextureResult : uint8_t { F32, S32, U32 };
enum class TextureGeometry : uint8_t { Plain, Layered, Cube };
constexpr uint8_t textureFetchFlags(unsigned dims, bool integerCoords, TextureResult result,
                                    TextureGeometry geometry = TextureGeometry::Plain) {
  return uint8_t(dims | unsigned(integerCoords) << 2 | unsigned(result) << 3 |
                 unsigned(geometry) << 5);
}
// Surface accesses (Op::SurfaceLoad/Store): flags: dims in bits 0-1, the
// boundary mode (PTX .trap/.clamp/.zero) in bits 2-3.
enum class SurfaceBoundary : uint8_t { Trap, Clamp, Zero };
constexpr uint8_t surfaceFlags(unsigned dims, SurfaceBoundary boundary) {
  return uint8_t(dims | unsigned(boundary) << 2);
}

} // namespace simulee::ir
