#include "ir/Builtins.h"

#include "ir/GridSync.h"

#include "ir/TexturePtx.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringSwitch.h>

namespace simulee::ir {
namespace {

using MF = MathFunction;
using IF = IntFunction;

Builtin make(BuiltinKind kind, uint8_t selector = 0) { return Builtin{kind, selector}; }
template <class E> Builtin make(BuiltinKind kind, E selector) {
  return Builtin{kind, uint8_t(selector)};
}

// The rounding a conversion's name asks for, from its suffix: libdevice's
// (`rz`, `ru`, `rd`; `rn` or none for nearest) or NVVM's (`rz`, `rp`, `rm`,
// perhaps followed by `.ftz`).
RoundingMode roundingOf(llvm::StringRef suffix) {
  if (suffix.starts_with("rz"))
    return RoundingMode::TowardZero;
  if (suffix.starts_with("ru") || suffix.starts_with("rp"))
    return RoundingMode::Up;
  if (suffix.starts_with("rd") || suffix.starts_with("rm"))
    return RoundingMode::Down;
  return RoundingMode::Nearest;
}

// A float rounded to an integral value in `mode` (RoundToInt's selector).
MathFunction roundingFunction(RoundingMode mode) {
  switch (mode) {
  case RoundingMode::TowardZero: return MF::Trunc;
  case RoundingMode::Up: return MF::Ceil;
  case RoundingMode::Down: return MF::Floor;
  case RoundingMode::Nearest: break;
  }
  return MF::Rint;
}

// Math functions shared by LLVM intrinsics (llvm.<name>.*) and libdevice
// (__nv_<name> for double, __nv_<name>f for float).
const llvm::StringMap<MathFunction> &mathNames() {
  static const llvm::StringMap<MathFunction> names = {
      {"sqrt", MF::Sqrt},     {"rsqrt", MF::Rsqrt},     {"sin", MF::Sin},
      {"cos", MF::Cos},       {"tan", MF::Tan},         {"asin", MF::Asin},
      {"acos", MF::Acos},     {"atan", MF::Atan},       {"sinh", MF::Sinh},
      {"cosh", MF::Cosh},     {"tanh", MF::Tanh},       {"asinh", MF::Asinh},
      {"acosh", MF::Acosh},   {"atanh", MF::Atanh},     {"exp", MF::Exp},
      {"exp2", MF::Exp2},     {"exp10", MF::Exp10},     {"expm1", MF::Expm1},
      {"log", MF::Log},       {"log2", MF::Log2},       {"log10", MF::Log10},
      {"log1p", MF::Log1p},   {"fabs", MF::Fabs},       {"floor", MF::Floor},
      {"ceil", MF::Ceil},     {"trunc", MF::Trunc},     {"round", MF::Round},
      {"rint", MF::Rint},     {"roundeven", MF::Rint},  {"nearbyint", MF::NearbyInt},
      {"cbrt", MF::Cbrt},     {"rcbrt", MF::Rcbrt},     {"erf", MF::Erf},
      {"erfc", MF::Erfc},     {"lgamma", MF::Lgamma},   {"tgamma", MF::Tgamma},
      {"saturate", MF::Saturate}, {"signbit", MF::Signbit}, {"isnan", MF::IsNan},
      {"isinf", MF::IsInf},   {"finite", MF::IsFinite}, {"isfinite", MF::IsFinite},
      {"logb", MF::Logb},     {"ilogb", MF::Ilogb},     {"rcp", MF::Rcp},
      {"pow", MF::Pow},       {"atan2", MF::Atan2},     {"fmin", MF::Fmin},
      {"fmax", MF::Fmax},     {"minnum", MF::Fmin},     {"maxnum", MF::Fmax},
      {"minimum", MF::Fmin},  {"maximum", MF::Fmax},    {"fmod", MF::Fmod},
      {"remainder", MF::Remainder}, {"copysign", MF::Copysign}, {"hypot", MF::Hypot},
      {"fdim", MF::Fdim},     {"ldexp", MF::Ldexp},     {"scalbn", MF::Scalbn},
      {"nextafter", MF::NextAfter},
  };
  return names;
}

Builtin mathBuiltin(MathFunction f) {
  return make(isBinaryMathFunction(f) ? BuiltinKind::MathBinary : BuiltinKind::MathUnary, f);
}

std::optional<Builtin> classifyLibdevice(llvm::StringRef name) {
  static const llvm::StringMap<Builtin> special = {
      {"fmaf", make(BuiltinKind::Fma)},
      {"fma", make(BuiltinKind::Fma)},
      {"fmaf_rn", make(BuiltinKind::Fma)},
      {"fma_rn", make(BuiltinKind::Fma)},
      {"fdividef", make(BuiltinKind::FDiv)},
      {"fdiv_rn", make(BuiltinKind::FDiv)},
      {"ddiv_rn", make(BuiltinKind::FDiv)},
      {"fadd_rn", make(BuiltinKind::FAdd)},
      {"dadd_rn", make(BuiltinKind::FAdd)},
      {"fmul_rn", make(BuiltinKind::FMul)},
      {"dmul_rn", make(BuiltinKind::FMul)},
      {"frcp_rn", make(BuiltinKind::MathUnary, MF::Rcp)},
      {"drcp_rn", make(BuiltinKind::MathUnary, MF::Rcp)},
      {"fsqrt_rn", make(BuiltinKind::MathUnary, MF::Sqrt)},
      {"dsqrt_rn", make(BuiltinKind::MathUnary, MF::Sqrt)},
      {"float_as_int", make(BuiltinKind::Bitcast)},
      {"int_as_float", make(BuiltinKind::Bitcast)},
      {"float_as_uint", make(BuiltinKind::Bitcast)},
      {"uint_as_float", make(BuiltinKind::Bitcast)},
      {"double_as_longlong", make(BuiltinKind::Bitcast)},
      {"longlong_as_double", make(BuiltinKind::Bitcast)},
      {"popc", make(BuiltinKind::IntUnary, IF::Popc)},
      {"popcll", make(BuiltinKind::IntUnary, IF::Popc)},
      {"clz", make(BuiltinKind::IntUnary, IF::Clz)},
      {"clzll", make(BuiltinKind::IntUnary, IF::Clz)},
      {"ffs", make(BuiltinKind::IntUnary, IF::Ffs)},
      {"ffsll", make(BuiltinKind::IntUnary, IF::Ffs)},
      {"brev", make(BuiltinKind::IntUnary, IF::Brev)},
      {"brevll", make(BuiltinKind::IntUnary, IF::Brev)},
      {"abs", make(BuiltinKind::IntUnary, IF::Abs)},
      {"llabs", make(BuiltinKind::IntUnary, IF::Abs)},
      {"mul24", make(BuiltinKind::IntBinary, IF::Mul24)},
      {"umul24", make(BuiltinKind::IntBinary, IF::UMul24)},
      {"mulhi", make(BuiltinKind::IntBinary, IF::MulHi)},
      {"umulhi", make(BuiltinKind::IntBinary, IF::UMulHi)},
      {"mul64hi", make(BuiltinKind::IntBinary, IF::MulHi)},
      {"umul64hi", make(BuiltinKind::IntBinary, IF::UMulHi)},
      {"sad", make(BuiltinKind::IntBinary, IF::Sad)},
      {"usad", make(BuiltinKind::IntBinary, IF::USad)},
      {"hadd", make(BuiltinKind::IntBinary, IF::HAdd)},
      {"uhadd", make(BuiltinKind::IntBinary, IF::UHAdd)},
      {"rhadd", make(BuiltinKind::IntBinary, IF::RHAdd)},
      {"urhadd", make(BuiltinKind::IntBinary, IF::URHAdd)},
      {"min", make(BuiltinKind::IntBinary, IF::SMin)},
      {"max", make(BuiltinKind::IntBinary, IF::SMax)},
      {"umin", make(BuiltinKind::IntBinary, IF::UMin)},
      {"umax", make(BuiltinKind::IntBinary, IF::UMax)},
      {"llmin", make(BuiltinKind::IntBinary, IF::SMin)},
      {"llmax", make(BuiltinKind::IntBinary, IF::SMax)},
      {"ullmin", make(BuiltinKind::IntBinary, IF::UMin)},
      {"ullmax", make(BuiltinKind::IntBinary, IF::UMax)},
      {"isnand", make(BuiltinKind::MathUnary, MF::IsNan)},
      {"isinfd", make(BuiltinKind::MathUnary, MF::IsInf)},
      {"isfinited", make(BuiltinKind::MathUnary, MF::IsFinite)},
      {"signbitd", make(BuiltinKind::MathUnary, MF::Signbit)},
  };
  if (auto it = special.find(name); it != special.end())
    return it->second;

  // Arithmetic with a rounding mode: __nv_dadd_rd, __nv_fmul_ru, __nv_fmaf_rz ...
  {
    auto [operation, rounding] = name.split('_');
    static const llvm::StringMap<BuiltinKind> arithmetic = {
        {"fadd", BuiltinKind::FAdd}, {"dadd", BuiltinKind::FAdd}, {"fmul", BuiltinKind::FMul},
        {"dmul", BuiltinKind::FMul}, {"fdiv", BuiltinKind::FDiv}, {"ddiv", BuiltinKind::FDiv},
        {"fmaf", BuiltinKind::Fma},  {"fma", BuiltinKind::Fma}};
    bool directed = rounding == "rz" || rounding == "ru" || rounding == "rd";
    if (auto it = arithmetic.find(operation); it != arithmetic.end() && directed)
      return make(it->second, roundingOf(rounding));
    if ((operation == "fsqrt" || operation == "dsqrt" || operation == "frcp" ||
         operation == "drcp") &&
        directed) {
      Builtin b = make(BuiltinKind::MathUnary, operation.ends_with("sqrt") ? MF::Sqrt : MF::Rcp);
      b.rounding = roundingOf(rounding);
      return b;
    }
  }

  // Integers to floats with a rounding mode: __nv_int2float_rz, __nv_ull2double_ru ...
  for (const char *from : {"int2", "uint2", "ll2", "ull2"}) {
    llvm::StringRef rest = name;
    if (!rest.consume_front(from) || !(rest.starts_with("float_") || rest.starts_with("double_")))
      continue;
    Builtin b = make(BuiltinKind::IntToFloat, roundingOf(rest.split('_').second));
    b.isSigned = from[0] != 'u';
    return b;
  }

  // Conversions with a rounding mode: __nv_float2int_rn, __nv_double2uint_rz ...
  for (const char *from : {"float2", "double2"}) {
    if (!name.starts_with(from))
      continue;
    llvm::StringRef rest = name.drop_front(llvm::StringRef(from).size());
    bool isSigned = rest.starts_with("int") || rest.starts_with("ll");
    bool isUnsigned = rest.starts_with("uint") || rest.starts_with("ull");
    if (!isSigned && !isUnsigned)
      break;
    Builtin b = make(BuiltinKind::RoundToInt, roundingFunction(roundingOf(rest.split('_').second)));
    b.isSigned = isSigned;
    return b;
  }

  // __nv_fast_expf, __nv_fast_sinf ...: same function, our precision.
  name.consume_front("fast_");
  const auto &names = mathNames();
  if (auto it = names.find(name); it != names.end())
    return mathBuiltin(it->second);
  if (name.ends_with("f"))
    if (auto it = names.find(name.drop_back()); it != names.end())
      return mathBuiltin(it->second);
  return std::nullopt;
}

std::optional<SpecialRegister> specialRegister(llvm::StringRef reg) {
  static const llvm::StringMap<SpecialRegister> regs = {
      {"tid.x", SpecialRegister::TidX},       {"tid.y", SpecialRegister::TidY},
      {"tid.z", SpecialRegister::TidZ},       {"ntid.x", SpecialRegister::NTidX},
      {"ntid.y", SpecialRegister::NTidY},     {"ntid.z", SpecialRegister::NTidZ},
      {"ctaid.x", SpecialRegister::CtaIdX},   {"ctaid.y", SpecialRegister::CtaIdY},
      {"ctaid.z", SpecialRegister::CtaIdZ},   {"nctaid.x", SpecialRegister::NCtaIdX},
      {"nctaid.y", SpecialRegister::NCtaIdY}, {"nctaid.z", SpecialRegister::NCtaIdZ},
      {"laneid", SpecialRegister::LaneId},    {"warpid", SpecialRegister::WarpId},
      {"warpsize", SpecialRegister::WarpSize}, {"lanemask.lt", SpecialRegister::LaneMaskLt},
      {"lanemask.le", SpecialRegister::LaneMaskLe}, {"lanemask.eq", SpecialRegister::LaneMaskEq},
      {"lanemask.ge", SpecialRegister::LaneMaskGe}, {"lanemask.gt", SpecialRegister::LaneMaskGt},
      {"clock", SpecialRegister::Clock},      {"clock64", SpecialRegister::Clock64},
      {"globaltimer", SpecialRegister::GlobalTimer}, {"smid", SpecialRegister::SmId},
      {"nsmid", SpecialRegister::NSmId},
      {"dynamic_smem_size", SpecialRegister::DynamicSharedSize},
      {"envreg1", SpecialRegister::GridWorkspaceLow},
      {"envreg2", SpecialRegister::GridWorkspaceHigh},
  };
  if (auto it = regs.find(reg); it != regs.end())
    return it->second;
  return std::nullopt;
}

// operator new / new[] (size first; then nothrow or an alignment).
bool isHeapNew(llvm::StringRef name) {
  if (!name.consume_front("_Znwm") && !name.consume_front("_Znam"))
    return false;
  return name.empty() || name == "RKSt9nothrow_t" || name == "St11align_val_t" ||
         name == "St11align_val_tRKSt9nothrow_t";
}

// operator delete / delete[] (the pointer first; then a size, nothrow or an
// alignment).
bool isHeapDelete(llvm::StringRef name) {
  if (!name.consume_front("_ZdlPv") && !name.consume_front("_ZdaPv"))
    return false;
  name.consume_front("m");
  return name.empty() || name == "RKSt9nothrow_t" || name == "St11align_val_t" ||
         name == "St11align_val_tRKSt9nothrow_t";
}

// llvm.nvvm.atomic.<op>.gen.<i|ui|f>.<cta|sys>: the scoped atomics of
// atomicAdd_block, atomicCAS_system and their kind. System scope is the
// device's for a simulation of one device.
std::optional<Builtin> scopedAtomic(llvm::StringRef name) {
  llvm::SmallVector<llvm::StringRef, 6> parts;
  name.split(parts, '.');
  if (parts.size() < 5 || parts[0] != "atomic" || parts[2] != "gen" ||
      (parts[4] != "cta" && parts[4] != "sys"))
    return std::nullopt;
  llvm::StringRef op = parts[1], type = parts[3];
  Builtin builtin{BuiltinKind::AtomicRMW};
  if (op == "cas")
    builtin.kind = BuiltinKind::CmpXchg;
  else if (op == "add")
    builtin.selector = uint8_t(type == "f" ? AtomicOp::FAdd : AtomicOp::Add);
  else if (op == "exch")
    builtin.selector = uint8_t(AtomicOp::Xchg);
  else if (op == "max")
    builtin.selector = uint8_t(type == "ui" ? AtomicOp::UMax : AtomicOp::Max);
  else if (op == "min")
    builtin.selector = uint8_t(type == "ui" ? AtomicOp::UMin : AtomicOp::Min);
  else if (op == "inc")
    builtin.selector = uint8_t(AtomicOp::UIncWrap);
  else if (op == "dec")
    builtin.selector = uint8_t(AtomicOp::UDecWrap);
  else if (op == "and")
    builtin.selector = uint8_t(AtomicOp::And);
  else if (op == "or")
    builtin.selector = uint8_t(AtomicOp::Or);
  else if (op == "xor")
    builtin.selector = uint8_t(AtomicOp::Xor);
  else
    return std::nullopt;
  builtin.blockScope = parts[4] == "cta";
  return builtin;
}

std::optional<Builtin> classifyNvvm(llvm::StringRef name) {
  if (name.consume_front("read.ptx.sreg.")) {
    if (auto reg = specialRegister(name))
      return make(BuiltinKind::SpecialReg, *reg);
    return std::nullopt;
  }
  if (name == "barrier0")
    return make(BuiltinKind::Barrier, BarrierKind::Plain);
  // Named barriers: (id) waits for the whole block at barrier id, (id, count)
  // for `count` threads; arrive counts without waiting.
  if (name == "barrier.sync" || name == "barrier.sync.cnt" || name == "bar.sync" ||
      name == "barrier.n" || name == "barrier")
    return make(BuiltinKind::NamedBarrier, NamedBarrierMode::Sync);
  if (name == "barrier.arrive" || name == "bar.arrive")
    return make(BuiltinKind::NamedBarrier, NamedBarrierMode::Arrive);
  if (name == "barrier0.popc")
    return make(BuiltinKind::Barrier, BarrierKind::Count);
  if (name == "barrier0.and")
    return make(BuiltinKind::Barrier, BarrierKind::And);
  if (name == "barrier0.or")
    return make(BuiltinKind::Barrier, BarrierKind::Or);
  if (name == "bar.warp.sync")
    return make(BuiltinKind::WarpSync);
  if (name.starts_with("membar") || name.starts_with("fence"))
    return make(BuiltinKind::Fence, name.contains("cta") ? FenceScope::Block : FenceScope::Device);
  if (name == "activemask")
    return make(BuiltinKind::ActiveMask);
  if (name == "fns")
    return make(BuiltinKind::FindNthSet);
  if (name.starts_with("match.any.sync"))
    return make(BuiltinKind::MatchAny);
  if (name.consume_front("redux.sync.")) {
    std::optional<WarpReduceOp> op = llvm::StringSwitch<std::optional<WarpReduceOp>>(name)
                                         .Case("add", WarpReduceOp::Add)
                                         .Case("min", WarpReduceOp::Min)
                                         .Case("max", WarpReduceOp::Max)
                                         .Case("umin", WarpReduceOp::UMin)
                                         .Case("umax", WarpReduceOp::UMax)
                                         .Case("and", WarpReduceOp::And)
                                         .Case("or", WarpReduceOp::Or)
                                         .Case("xor", WarpReduceOp::Xor)
                                         .Default(std::nullopt);
    if (!op)
      return std::nullopt;
    return make(BuiltinKind::WarpReduce, *op);
  }
  if (name.starts_with("ldg.global") || name.starts_with("ldu.global"))
    return make(BuiltinKind::Load);
  if (name.starts_with("ptr.") || name.starts_with("move."))
    return make(BuiltinKind::Identity);
  if (name == "exit")
    return make(BuiltinKind::Exit);
  if (name.starts_with("atomic.load.inc"))
    return make(BuiltinKind::AtomicRMW, AtomicOp::UIncWrap);
  if (name.starts_with("atomic.load.dec"))
    return make(BuiltinKind::AtomicRMW, AtomicOp::UDecWrap);
  if (name.starts_with("atomic.load.add.f"))
    return make(BuiltinKind::AtomicRMW, AtomicOp::FAdd);
  if (auto scoped = scopedAtomic(name))
    return scoped;

  for (bool sync : {true, false}) {
    llvm::StringRef rest = name;
    if (!rest.consume_front(sync ? "shfl.sync." : "shfl."))
      continue;
    for (auto [mode, sel] : {std::pair{"idx", ShuffleMode::Idx}, std::pair{"up", ShuffleMode::Up},
                             std::pair{"down", ShuffleMode::Down},
                             std::pair{"bfly", ShuffleMode::Bfly}}) {
      if (rest.starts_with(mode)) {
        Builtin b = make(BuiltinKind::Shuffle, sel);
        b.hasMask = sync;
        return b;
      }
    }
  }
  for (bool sync : {true, false}) {
    llvm::StringRef rest = name;
    if (!rest.consume_front("vote."))
      continue;
    if (sync != rest.ends_with(".sync"))
      continue;
    for (auto [mode, sel] : {std::pair{"all", VoteMode::All}, std::pair{"any", VoteMode::Any},
                             std::pair{"uni", VoteMode::Uni},
                             std::pair{"ballot", VoteMode::Ballot}}) {
      if (rest.starts_with(mode)) {
        Builtin b = make(BuiltinKind::Vote, sel);
        b.hasMask = sync;
        return b;
      }
    }
  }

  // Conversions libdevice uses: f2i.rn, d2ull.rz.ftz, i2f.rz, ull2d.rp, bitcast.f2i ...
  if (name.starts_with("bitcast."))
    return make(BuiltinKind::Bitcast);
  for (const char *from : {"i2", "ui2", "ll2", "ull2"}) {
    llvm::StringRef rest = name;
    if (!rest.consume_front(from))
      continue;
    auto [target, rounding] = rest.split('.');
    if (target != "f" && target != "d")
      continue;
    Builtin b = make(BuiltinKind::IntToFloat, roundingOf(rounding));
    b.isSigned = from[0] != 'u';
    return b;
  }
  for (const char *from : {"f2", "d2"}) {
    llvm::StringRef rest = name;
    if (!rest.consume_front(from))
      continue;
    auto [target, rounding] = rest.split('.');
    bool isSigned = target == "i" || target == "ll";
    if (!isSigned && target != "ui" && target != "ull")
      break;
    Builtin b = make(BuiltinKind::RoundToInt, roundingFunction(roundingOf(rounding)));
    b.isSigned = isSigned;
    return b;
  }

  static const llvm::StringMap<Builtin> table = {
      {"mul24.i", make(BuiltinKind::IntBinary, IF::Mul24)},
      {"mul24.ui", make(BuiltinKind::IntBinary, IF::UMul24)},
      {"mulhi.i", make(BuiltinKind::IntBinary, IF::MulHi)},
      {"mulhi.ui", make(BuiltinKind::IntBinary, IF::UMulHi)},
      {"mulhi.ll", make(BuiltinKind::IntBinary, IF::MulHi)},
      {"mulhi.ull", make(BuiltinKind::IntBinary, IF::UMulHi)},
      {"sad.i", make(BuiltinKind::IntBinary, IF::Sad)},
      {"sad.ui", make(BuiltinKind::IntBinary, IF::USad)},
      {"brev32", make(BuiltinKind::IntUnary, IF::Brev)},
      {"brev64", make(BuiltinKind::IntUnary, IF::Brev)},
      {"clz.i", make(BuiltinKind::IntUnary, IF::Clz)},
      {"clz.ll", make(BuiltinKind::IntUnary, IF::Clz)},
      {"popc.i", make(BuiltinKind::IntUnary, IF::Popc)},
      {"popc.ll", make(BuiltinKind::IntUnary, IF::Popc)},
      {"abs.i", make(BuiltinKind::IntUnary, IF::Abs)},
      {"abs.ll", make(BuiltinKind::IntUnary, IF::Abs)},
      {"min.i", make(BuiltinKind::IntBinary, IF::SMin)},
      {"max.i", make(BuiltinKind::IntBinary, IF::SMax)},
      {"min.ui", make(BuiltinKind::IntBinary, IF::UMin)},
      {"max.ui", make(BuiltinKind::IntBinary, IF::UMax)},
      {"min.ll", make(BuiltinKind::IntBinary, IF::SMin)},
      {"max.ll", make(BuiltinKind::IntBinary, IF::SMax)},
      {"min.ull", make(BuiltinKind::IntBinary, IF::UMin)},
      {"max.ull", make(BuiltinKind::IntBinary, IF::UMax)},
      {"saturate.f", make(BuiltinKind::MathUnary, MF::Saturate)},
      {"saturate.d", make(BuiltinKind::MathUnary, MF::Saturate)},
      {"fabs.f", make(BuiltinKind::MathUnary, MF::Fabs)},
      {"fabs.d", make(BuiltinKind::MathUnary, MF::Fabs)},
      {"fabs.ftz.f", make(BuiltinKind::MathUnary, MF::Fabs)},
      {"ex2.approx.f", make(BuiltinKind::MathUnary, MF::Exp2)},
      {"ex2.approx.ftz.f", make(BuiltinKind::MathUnary, MF::Exp2)},
      {"ex2.approx.d", make(BuiltinKind::MathUnary, MF::Exp2)},
      {"lg2.approx.f", make(BuiltinKind::MathUnary, MF::Log2)},
      {"lg2.approx.ftz.f", make(BuiltinKind::MathUnary, MF::Log2)},
      {"lg2.approx.d", make(BuiltinKind::MathUnary, MF::Log2)},
      {"sin.approx.f", make(BuiltinKind::MathUnary, MF::Sin)},
      {"sin.approx.ftz.f", make(BuiltinKind::MathUnary, MF::Sin)},
      {"cos.approx.f", make(BuiltinKind::MathUnary, MF::Cos)},
      {"cos.approx.ftz.f", make(BuiltinKind::MathUnary, MF::Cos)},
  };
  if (auto it = table.find(name); it != table.end())
    return it->second;

  // Families with rounding-mode suffixes: sqrt.rn.f, rsqrt.approx.ftz.f,
  // rcp.rn.d, div.rn.f, fma.rn.f, add.rz.d, mul.rn.f, fmin.f, fmax.ftz.nan.f ...
  auto family = name.split('.').first;
  if (family == "rsqrt")
    return make(BuiltinKind::MathUnary, MF::Rsqrt);
  // The arithmetic keeps its rounding (add.rm.d: __dadd_rd).
  RoundingMode rounding = roundingOf(name.split('.').second);
  if (family == "sqrt" || family == "rcp") {
    Builtin b = make(BuiltinKind::MathUnary, family == "sqrt" ? MF::Sqrt : MF::Rcp);
    b.rounding = rounding;
    return b;
  }
  if (family == "div")
    return make(BuiltinKind::FDiv, rounding);
  if (family == "fma")
    return make(BuiltinKind::Fma, rounding);
  if (family == "add")
    return make(BuiltinKind::FAdd, rounding);
  if (family == "mul")
    return make(BuiltinKind::FMul, rounding);
  if (family == "fmin")
    return make(BuiltinKind::MathBinary, MF::Fmin);
  if (family == "fmax")
    return make(BuiltinKind::MathBinary, MF::Fmax);
  if (family == "floor")
    return make(BuiltinKind::MathUnary, MF::Floor);
  if (family == "ceil")
    return make(BuiltinKind::MathUnary, MF::Ceil);
  if (family == "trunc")
    return make(BuiltinKind::MathUnary, MF::Trunc);
  if (family == "round")
    return make(BuiltinKind::MathUnary, MF::Round);
  return std::nullopt;
}

std::optional<Builtin> classifyLlvmIntrinsic(llvm::StringRef name) {
  static const char *ignored[] = {"dbg.",       "lifetime.",     "assume",
                                  "experimental.noalias.scope.decl", "invariant.start",
                                  "invariant.end", "var.annotation", "sideeffect",
                                  "donothing",  "codeview.annotation", "pseudoprobe"};
  for (const char *prefix : ignored)
    if (name.starts_with(prefix))
      return make(BuiltinKind::Ignore);
  static const char *identities[] = {"expect",  "ptr.annotation", "launder.invariant.group",
                                     "strip.invariant.group", "ssa.copy", "canonicalize",
                                     "annotation", "arithmetic.fence", "threadlocal.address"};
  for (const char *prefix : identities)
    if (name.starts_with(prefix))
      return make(BuiltinKind::Identity);
  if (name.starts_with("memcpy"))
    return make(BuiltinKind::MemCopy);
  if (name.starts_with("memmove"))
    return make(BuiltinKind::MemMove);
  if (name.starts_with("memset"))
    return make(BuiltinKind::MemSet);
  if (name == "trap" || name == "debugtrap" || name == "ubsantrap")
    return make(BuiltinKind::Trap);
  if (name.starts_with("fma") || name.starts_with("fmuladd"))
    return make(BuiltinKind::Fma);
  if (name.starts_with("powi"))
    return make(BuiltinKind::PowI);
  if (name.starts_with("fshl"))
    return make(BuiltinKind::FunnelShift, 0);
  if (name.starts_with("fshr"))
    return make(BuiltinKind::FunnelShift, 1);

  static const llvm::StringMap<IntFunction> intFunctions = {
      {"ctpop", IF::Popc},  {"ctlz", IF::Clz},   {"cttz", IF::Ctz},   {"bswap", IF::Bswap},
      {"bitreverse", IF::Brev}, {"abs", IF::Abs}, {"smin", IF::SMin}, {"smax", IF::SMax},
      {"umin", IF::UMin},   {"umax", IF::UMax},  {"uadd.with.overflow", IF::UAddO},
      {"sadd.with.overflow", IF::SAddO}, {"usub.with.overflow", IF::USubO},
      {"ssub.with.overflow", IF::SSubO}, {"umul.with.overflow", IF::UMulO},
      {"smul.with.overflow", IF::SMulO}, {"uadd.sat", IF::UAddSat}, {"sadd.sat", IF::SAddSat},
      {"usub.sat", IF::USubSat}, {"ssub.sat", IF::SSubSat},
  };
  // Strip the type suffix: "ctpop.i32" -> "ctpop", "uadd.with.overflow.i32" -> ...
  llvm::StringRef base = name.rsplit('.').first;
  if (auto it = intFunctions.find(base); it != intFunctions.end()) {
    IntFunction f = it->second;
    return make(isBinaryIntFunction(f) ? BuiltinKind::IntBinary : BuiltinKind::IntUnary, f);
  }
  if (auto it = mathNames().find(base); it != mathNames().end())
    return mathBuiltin(it->second);
  return std::nullopt;
}

} // namespace

std::optional<Builtin> classifyBuiltin(llvm::StringRef name) {
  if (name.consume_front("llvm.nvvm."))
    return classifyNvvm(name);
  if (name.consume_front("llvm."))
    return classifyLlvmIntrinsic(name);
  if (name.consume_front("__nv_"))
    return classifyLibdevice(name);
  if (name == "vprintf" || name == "printf")
    return make(BuiltinKind::Print);
  if (name == "__assertfail" || name == "__assert_fail" || name == "abort")
    return make(BuiltinKind::Trap);
  if (name == "__syncthreads" || name == "_Z13__syncthreadsv" || name == "barrier")
    return make(BuiltinKind::Barrier, BarrierKind::Plain);
  if (name == kTextureFetchFunction)
    return make(BuiltinKind::Texture, TextureAccess::Fetch);
  // One declaration per element type and count: ".b32x2".
  if (name.starts_with(kSurfaceLoadFunction))
    return make(BuiltinKind::Texture, TextureAccess::SurfaceLoad);
  if (name.starts_with(kSurfaceStoreFunction))
    return make(BuiltinKind::Texture, TextureAccess::SurfaceStore);
  if (name == kGridArriveFunction)
    return make(BuiltinKind::GridBarrier, 0);
  if (name == kGridWaitFunction)
    return make(BuiltinKind::GridBarrier, 1);
  if (name == kGridBlockBarrierFunction) {
    Builtin barrier = make(BuiltinKind::Barrier, BarrierKind::Plain);
    barrier.required = true;
    return barrier;
  }
  // Device malloc/free, and operator new/delete, which CUDA's device runtime
  // defines over the same heap (arrays, nothrow, aligned and sized variants;
  // placement new and delete, _ZnwmPv and _ZdlPvS_, are not allocations).
  if (name == "malloc" || isHeapNew(name))
    return make(BuiltinKind::Malloc);
  if (name == "free" || isHeapDelete(name))
    return make(BuiltinKind::Free);
  if (name == "memcpy")
    return make(BuiltinKind::MemCopy);
  if (name == "memset")
    return make(BuiltinKind::MemSet);
  if (name == "memmove")
    return make(BuiltinKind::MemMove);
  return std::nullopt;
}

} // namespace simulee::ir
