#include "ir/ConflictFreeAccesses.h"

#include "ir/Builtins.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace simulee::ir {
namespace {

// An integer as a linear form over the thread numbering:
//   constant + thread * threadIdx.x + blockBase * (blockIdx.x * blockDim.x)
//            + total * (blockDim.x * gridDim.x) + lattice * k * T + self * phi
//            + (rowThread * threadIdx.y + rowBase * (blockIdx.y * blockDim.y)) * W
// where k is an unknown integer (the trip of a grid-stride loop), T the
// launch's thread count, phi the loop variable under analysis, and W the
// integer kernel parameter `widthParam` (1 when there is none: a constant
// width is in the row coefficients).
struct Linear {
  int64_t constant = 0, thread = 0, blockBase = 0, total = 0, lattice = 0, self = 0;
  int64_t rowThread = 0, rowBase = 0;
  int32_t widthParam = -1;

  bool hasRow() const { return rowThread != 0 || rowBase != 0; }
  bool operator==(const Linear &) const = default;
};

std::optional<Linear> add(const Linear &a, const Linear &b, int64_t sign = 1) {
  Linear sum;
  auto one = [&](int64_t x, int64_t y, int64_t &out) {
    int64_t scaled;
    return !__builtin_mul_overflow(y, sign, &scaled) && !__builtin_add_overflow(x, scaled, &out);
  };
  // Rows of two widths (a parameter's and a constant's) make no form.
  if (a.hasRow() && b.hasRow() && a.widthParam != b.widthParam)
    return std::nullopt;
  if (!one(a.constant, b.constant, sum.constant) || !one(a.thread, b.thread, sum.thread) ||
      !one(a.blockBase, b.blockBase, sum.blockBase) || !one(a.total, b.total, sum.total) ||
      !one(a.self, b.self, sum.self) || !one(a.rowThread, b.rowThread, sum.rowThread) ||
      !one(a.rowBase, b.rowBase, sum.rowBase))
    return std::nullopt;
  sum.lattice = std::gcd(a.lattice, b.lattice); // k varies per thread: only its step stays
  sum.widthParam = sum.hasRow() ? (a.hasRow() ? a.widthParam : b.widthParam) : -1;
  return sum;
}

std::optional<Linear> scale(const Linear &a, int64_t factor) {
  Linear out;
  for (auto [from, to] : {std::pair{&a.constant, &out.constant},
                          {&a.thread, &out.thread},
                          {&a.blockBase, &out.blockBase},
                          {&a.total, &out.total},
                          {&a.lattice, &out.lattice},
                          {&a.self, &out.self},
                          {&a.rowThread, &out.rowThread},
                          {&a.rowBase, &out.rowBase}})
    if (__builtin_mul_overflow(*from, factor, to))
      return std::nullopt;
  out.widthParam = out.hasRow() ? a.widthParam : -1;
  return out;
}

enum class Axis : uint8_t {
  None,
  Thread,
  Block,
  BlockSize,
  GridSize,
  RowThread,
  RowBlock,
  RowBlockSize
};

// `value` under its integer casts; null where another cast is among them.
const llvm::Value *withoutIntegerCasts(const llvm::Value *value) {
  while (const auto *cast = llvm::dyn_cast<llvm::CastInst>(value)) {
    if (!cast->isIntegerCast())
      return nullptr;
    value = cast->getOperand(0);
  }
  return value;
}

// The special register `value` reads (through integer casts): x axis, and
// the y axis's thread, block and block size.
Axis axisOf(const llvm::Value *value) {
  const auto *call = llvm::dyn_cast_or_null<llvm::CallInst>(withoutIntegerCasts(value));
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee)
    return Axis::None;
  std::optional<Builtin> builtin = classifyBuiltin(callee->getName());
  if (!builtin || builtin->kind != BuiltinKind::SpecialReg)
    return Axis::None;
  switch (SpecialRegister(builtin->selector)) {
  case SpecialRegister::TidX: return Axis::Thread;
  case SpecialRegister::CtaIdX: return Axis::Block;
  case SpecialRegister::NTidX: return Axis::BlockSize;
  case SpecialRegister::NCtaIdX: return Axis::GridSize;
  case SpecialRegister::TidY:
    return Axis::RowThread;
  case SpecialRegister::CtaIdY:
    return Axis::RowBlock;
  case SpecialRegister::NTidY:
    return Axis::RowBlockSize;
  default: return Axis::None;
  }
}

// Linear forms of integers, and where pointers come from.
class Forms {
public:
  Forms(const llvm::DataLayout &layout, const llvm::Function &kernel)
      : layout_(layout), kernel_(&kernel) {}

  // Memoized: a form found while some phi was under analysis holds
  // everywhere (no form rests on a failed one), and a failure only loses
  // precision.
  std::optional<Linear> linear(const llvm::Value *value, const llvm::PHINode *self = nullptr,
                               unsigned depth = 0) {
    if (depth > kMaxDepth)
      return std::nullopt;
    auto key = std::pair{value, self};
    if (auto known = memo_.find(key); known != memo_.end())
      return known->second;
    std::optional<Linear> form = compute(value, self, depth);
    memo_.emplace(key, form);
    return form;
  }

  // Where a pointer points: into pointer parameter `param` at `offset`
  // (nullopt: an offset that is no linear form), into memory no parameter
  // reaches (a variable, the stack, null), or unknown.
  struct Origin {
    enum class Kind : uint8_t { Param, Elsewhere, Unknown } kind = Kind::Unknown;
    uint32_t param = 0;
    std::optional<Linear> offset = {};
  };

  Origin origin(const llvm::Value *pointer, const llvm::Function &kernel, unsigned depth = 0) {
    using Kind = Origin::Kind;
    if (depth > kMaxDepth)
      return {};
    pointer = pointer->stripPointerCasts();
    if (const auto *arg = llvm::dyn_cast<llvm::Argument>(pointer)) {
      if (arg->getParent() != &kernel)
        return callersOrigin(*arg, kernel, depth);
      if (arg->hasByValAttr())
        return {Kind::Elsewhere}; // the kernel's own copy of a by-value aggregate
      return {Kind::Param, arg->getArgNo(), Linear{}};
    }
    if (llvm::isa<llvm::GlobalVariable>(pointer) || llvm::isa<llvm::AllocaInst>(pointer) ||
        llvm::isa<llvm::ConstantPointerNull>(pointer))
      return {Kind::Elsewhere};
    if (const auto *gep = llvm::dyn_cast<llvm::GEPOperator>(pointer)) {
      Origin base = origin(gep->getPointerOperand(), kernel, depth + 1);
      if (base.kind != Kind::Param || !base.offset)
        return base;
      llvm::MapVector<llvm::Value *, llvm::APInt> variables;
      llvm::APInt constant(64, 0);
      if (!gep->collectOffset(layout_, 64, variables, constant))
        return {Kind::Param, base.param, std::nullopt};
      std::optional<Linear> offset = add(*base.offset, Linear{.constant = constant.getSExtValue()});
      for (auto &[index, factor] : variables) {
        if (!offset)
          break;
        std::optional<Linear> term = bind(linear(index), [&](const Linear &l) {
          return scale(l, factor.getSExtValue());
        });
        offset = term ? add(*offset, *term) : std::nullopt;
      }
      return {Kind::Param, base.param, offset};
    }
    if (const auto *phi = llvm::dyn_cast<llvm::PHINode>(pointer))
      return merged(phi->incoming_values(), kernel, depth);
    if (const auto *select = llvm::dyn_cast<llvm::SelectInst>(pointer))
      return merged(std::vector<const llvm::Value *>{select->getTrueValue(),
                                                     select->getFalseValue()},
                    kernel, depth);
    return {}; // loaded from memory, returned by a call, an integer cast to a pointer
  }

private:
  static constexpr unsigned kMaxDepth = 48;

  std::optional<Linear> compute(const llvm::Value *value, const llvm::PHINode *self,
                                unsigned depth) {
    if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value)) {
      if (constant->getBitWidth() > 64)
        return std::nullopt;
      return Linear{.constant = constant->getSExtValue()};
    }
    if (value == self)
      return Linear{.self = 1};
    if (axisOf(value) == Axis::Thread)
      return Linear{.thread = 1};
    if (axisOf(value) == Axis::RowThread)
      return Linear{.rowThread = 1};
    if (const auto *cast = llvm::dyn_cast<llvm::CastInst>(value))
      return cast->isIntegerCast() ? linear(cast->getOperand(0), self, depth + 1) : std::nullopt;
    if (const auto *phi = llvm::dyn_cast<llvm::PHINode>(value))
      return loopVariable(*phi, depth);
    const auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(value);
    if (!binary)
      return std::nullopt;
    const llvm::Value *lhs = binary->getOperand(0), *rhs = binary->getOperand(1);
    switch (binary->getOpcode()) {
    case llvm::Instruction::Mul: {
      std::set<Axis> axes = {axisOf(lhs), axisOf(rhs)};
      if (axes == std::set{Axis::Block, Axis::BlockSize})
        return Linear{.blockBase = 1};
      if (axes == std::set{Axis::BlockSize, Axis::GridSize})
        return Linear{.total = 1};
      if (axes == std::set{Axis::RowBlock, Axis::RowBlockSize})
        return Linear{.rowBase = 1};
      // A row times the width the kernel is passed (`row * width`).
      for (auto [row, width] : {std::pair{lhs, rhs}, {rhs, lhs}})
        if (std::optional<uint32_t> param = integerParam(width))
          if (std::optional<Linear> form = linear(row, self, depth + 1);
              form && form->hasRow() && form->widthParam < 0 &&
              *form == Linear{.rowThread = form->rowThread, .rowBase = form->rowBase})
            return Linear{.rowThread = form->rowThread,
                          .rowBase = form->rowBase,
                          .widthParam = int32_t(*param)};
      if (const auto *k = llvm::dyn_cast<llvm::ConstantInt>(rhs); k && k->getBitWidth() <= 64)
        return bind(linear(lhs, self, depth + 1), [&](const Linear &l) {
          return scale(l, k->getSExtValue());
        });
      if (const auto *k = llvm::dyn_cast<llvm::ConstantInt>(lhs); k && k->getBitWidth() <= 64)
        return bind(linear(rhs, self, depth + 1), [&](const Linear &l) {
          return scale(l, k->getSExtValue());
        });
      return std::nullopt;
    }
    case llvm::Instruction::Shl: {
      const auto *k = llvm::dyn_cast<llvm::ConstantInt>(rhs);
      if (!k || k->getZExtValue() > 61)
        return std::nullopt;
      return bind(linear(lhs, self, depth + 1),
                  [&](const Linear &l) { return scale(l, int64_t(1) << k->getZExtValue()); });
    }
    case llvm::Instruction::Or:
      if (!llvm::cast<llvm::PossiblyDisjointInst>(binary)->isDisjoint())
        return std::nullopt;
      [[fallthrough]];
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub: {
      std::optional<Linear> a = linear(lhs, self, depth + 1), b = linear(rhs, self, depth + 1);
      if (!a || !b)
        return std::nullopt;
      return add(*a, *b, binary->getOpcode() == llvm::Instruction::Sub ? -1 : 1);
    }
    default:
      return std::nullopt;
    }
  }

  // The integer parameter of the kernel `value` is (through integer casts).
  std::optional<uint32_t> integerParam(const llvm::Value *value) const {
    const auto *arg = llvm::dyn_cast_or_null<llvm::Argument>(withoutIntegerCasts(value));
    if (!arg || arg->getParent() != kernel_ || !arg->getType()->isIntegerTy())
      return std::nullopt;
    return arg->getArgNo();
  }

  template <class F>
  static std::optional<Linear> bind(const std::optional<Linear> &value, F &&then) {
    return value ? then(*value) : std::nullopt;
  }

  // A phi whose incoming values are one form, or a loop variable that starts
  // at one form and steps by a multiple of the launch's thread count: that
  // form plus k * T for an unknown k.
  std::optional<Linear> loopVariable(const llvm::PHINode &phi, unsigned depth) {
    if (!inProgress_.insert(&phi).second)
      return std::nullopt; // an enclosing evaluation: not a simple recurrence
    std::optional<Linear> start;
    int64_t lattice = 0;
    bool ok = true;
    for (const llvm::Value *incoming : phi.incoming_values()) {
      std::optional<Linear> form = linear(incoming, &phi, depth + 1);
      if (!form) {
        ok = false;
        break;
      }
      if (form->self == 0) {
        if (start && !(*start == *form))
          ok = false;
        start = form;
        continue;
      }
      // phi + m * T
      Linear step = *form;
      step.self = 0;
      int64_t m = step.total;
      step.total = 0;
      if (form->self != 1 || !(step == Linear{.lattice = step.lattice})) {
        ok = false;
        break;
      }
      lattice = std::gcd(lattice, std::gcd(m, step.lattice));
    }
    inProgress_.erase(&phi);
    if (!ok || !start)
      return std::nullopt;
    start->lattice = std::gcd(start->lattice, lattice);
    return start;
  }

  template <class Range>
  Origin merged(const Range &values, const llvm::Function &kernel, unsigned depth) {
    std::optional<Origin> all;
    for (const llvm::Value *value : values) {
      Origin one = origin(value, kernel, depth + 1);
      if (!all) {
        all = one;
        continue;
      }
      if (one.kind != all->kind || one.param != all->param)
        return {};
      if (!(one.offset && all->offset && *one.offset == *all->offset))
        all->offset.reset();
    }
    return all.value_or(Origin{});
  }

  // A callee's pointer argument: where its callers' arguments point. A
  // parameter's pointer passed to a call has escaped (see markEscapes), so such
  // an argument counts as pointing elsewhere here.
  Origin callersOrigin(const llvm::Argument &arg, const llvm::Function &kernel, unsigned depth) {
    const llvm::Function &callee = *arg.getParent();
    bool any = false;
    for (const llvm::User *user : callee.users()) {
      const auto *call = llvm::dyn_cast<llvm::CallBase>(user);
      if (!call || call->getCalledOperand() != &callee || arg.getArgNo() >= call->arg_size())
        return {};
      Origin actual = origin(call->getArgOperand(arg.getArgNo()), kernel, depth + 1);
      if (actual.kind == Origin::Kind::Unknown)
        return {};
      any = true;
    }
    return any ? Origin{Origin::Kind::Elsewhere} : Origin{};
  }

  const llvm::DataLayout &layout_;
  const llvm::Function *kernel_;
  std::set<const llvm::PHINode *> inProgress_;
  std::map<std::pair<const llvm::Value *, const llvm::PHINode *>, std::optional<Linear>> memo_;
};

// What the kernel does through each pointer parameter.
struct ParamUse {
  bool escaped = false;   // stored, passed to a call, made an integer, returned
  bool written = false;   // stored to, atomically updated, memcpy'd or memset into
  bool irregular = false; // some access's offset is no a * (G + kT) + c form
  int64_t coefficient = 0;
  // Two-dimensional: a * (G + W * R) + c, W a constant or a parameter.
  int64_t rowWidth = 0;
  int32_t rowWidthParam = -1;
  int64_t low = INT64_MAX, high = INT64_MIN; // [c, c + size) over its accesses
  std::vector<const llvm::Instruction *> accesses;

  bool threadPrivate() const {
    return !escaped && !irregular && coefficient != 0 && high - low <= std::abs(coefficient);
  }
};

// Whether `u` is the address of an access, or compared.
bool isAddressUse(const llvm::Use &u) {
  const llvm::User *user = u.getUser();
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(user))
    return u.getOperandNo() == load->getPointerOperandIndex();
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(user))
    return u.getOperandNo() == store->getPointerOperandIndex();
  if (const auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(user))
    return u.getOperandNo() == rmw->getPointerOperandIndex();
  if (const auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(user))
    return u.getOperandNo() == cas->getPointerOperandIndex();
  if (const auto *mem = llvm::dyn_cast<llvm::MemIntrinsic>(user))
    return mem->isArgOperand(&u) && u.getOperandNo() < 2;
  return llvm::isa<llvm::ICmpInst>(user);
}

// Pointer parameters that leave the analysed uses: the forward closure of
// each parameter's pointer through casts, address arithmetic, phis and
// selects; any use but an access's address or a comparison escapes.
void markEscapes(const llvm::Function &kernel, std::map<uint32_t, ParamUse> &uses) {
  for (const llvm::Argument &arg : kernel.args()) {
    if (!arg.getType()->isPointerTy() || arg.hasByValAttr())
      continue;
    ParamUse &use = uses[arg.getArgNo()];
    std::vector<const llvm::Value *> work = {&arg};
    std::set<const llvm::Value *> seen = {&arg};
    while (!work.empty() && !use.escaped) {
      const llvm::Value *value = work.back();
      work.pop_back();
      for (const llvm::Use &u : value->uses()) {
        const llvm::User *user = u.getUser();
        bool derives = llvm::isa<llvm::BitCastOperator>(user) ||
                       llvm::isa<llvm::AddrSpaceCastOperator>(user) ||
                       llvm::isa<llvm::PHINode>(user) ||
                       (llvm::isa<llvm::GEPOperator>(user) && u.getOperandNo() == 0) ||
                       (llvm::isa<llvm::SelectInst>(user) && u.getOperandNo() != 0);
        if (!derives && !isAddressUse(u))
          use.escaped = true; // stored, passed to a call, made an integer, returned
        if (derives && seen.insert(user).second)
          work.push_back(user);
      }
    }
  }
}

class Scan {
public:
  explicit Scan(const llvm::Function &kernel)
      : kernel_(kernel), forms_(kernel.getParent()->getDataLayout(), kernel) {}

  std::vector<ConflictFreeAccess> run() {
    markEscapes(kernel_, uses_);
    reach(kernel_);
    for (size_t f = 0; f < functions_.size(); ++f)
      for (const llvm::BasicBlock &block : *functions_[f])
        for (const llvm::Instruction &inst : block)
          visit(inst);
    std::vector<ConflictFreeAccess> result;
    if (unknownWrite_)
      return result;
    result = textureReads_;
    for (const auto &[param, use] : uses_) {
      bool readOnly = !use.escaped && !use.written;
      bool threadPrivate = !readOnly && !unknownRead_ && use.threadPrivate();
      if (readOnly || threadPrivate)
        for (const llvm::Instruction *inst : use.accesses)
          if (inst->getFunction() == &kernel_ && !tracked_.count(inst))
            result.push_back({inst, param, threadPrivate, threadPrivate ? use.rowWidth : 0,
                              threadPrivate ? use.rowWidthParam : -1});
    }
    return result;
  }

private:
  void reach(const llvm::Function &function) {
    if (!function.isDeclaration() && seen_.insert(&function).second)
      functions_.push_back(&function);
  }

  // One load or store of `bytes` bytes at `pointer`.
  void access(const llvm::Instruction &inst, const llvm::Value *pointer, uint64_t bytes,
              bool write, bool plain) {
    using Kind = Forms::Origin::Kind;
    Forms::Origin from = forms_.origin(pointer, kernel_);
    if (from.kind == Kind::Elsewhere)
      return;
    if (from.kind == Kind::Unknown) {
      // Shared and local memory are no parameter's.
      unsigned space = pointer->getType()->getPointerAddressSpace();
      if (space == 3 || space == 5)
        return;
      (write ? unknownWrite_ : unknownRead_) = true;
      return;
    }
    ParamUse &use = uses_[from.param];
    use.written |= write;
    use.accesses.push_back(&inst);
    const std::optional<Linear> &offset = from.offset;
    // a * (G + kT) + c: threadIdx.x and blockIdx.x * blockDim.x with one
    // coefficient, whole multiples of T besides; or a * (G + W * R) + c,
    // rows R = blockIdx.y * blockDim.y + threadIdx.y of W elements (a
    // constant, or the parameter widthParam), with no grid-stride term.
    int64_t a = offset ? offset->thread : 0;
    if (!plain || !offset || a == 0 || offset->blockBase != a || offset->self != 0 ||
        offset->total % a != 0 || offset->lattice % a != 0) {
      use.irregular = true;
      return;
    }
    int64_t rowWidth = 0;
    int32_t rowWidthParam = -1;
    if (offset->hasRow()) {
      bool rows = offset->total == 0 && offset->lattice == 0 &&
                  offset->rowThread == offset->rowBase && offset->rowThread % a == 0 &&
                  offset->rowThread / a >= 1;
      if (rows && offset->widthParam >= 0 && offset->rowThread == a)
        rowWidthParam = offset->widthParam;
      else if (rows && offset->widthParam < 0)
        rowWidth = offset->rowThread / a;
      else
        use.irregular = true;
    }
    if (use.irregular ||
        (use.coefficient != 0 && (use.coefficient != a || use.rowWidth != rowWidth ||
                                  use.rowWidthParam != rowWidthParam))) {
      use.irregular = true;
      return;
    }
    use.coefficient = a;
    use.rowWidth = rowWidth;
    use.rowWidthParam = rowWidthParam;
    use.low = std::min(use.low, offset->constant);
    use.high = std::max(use.high, offset->constant + int64_t(bytes));
  }

  static bool writesOwnStack(const llvm::MemTransferInst &transfer) {
    const llvm::Value *dest = llvm::getUnderlyingObject(transfer.getRawDest());
    return llvm::isa<llvm::AllocaInst>(dest) ||
           transfer.getRawDest()->getType()->getPointerAddressSpace() == 5;
  }

  uint64_t bytesOf(const llvm::Type *type) const {
    return kernel_.getParent()->getDataLayout().getTypeStoreSize(const_cast<llvm::Type *>(type));
  }

  void visit(const llvm::Instruction &inst) {
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
      return access(inst, load->getPointerOperand(), bytesOf(load->getType()), false,
                    !load->isVolatile() && load->isUnordered());
    if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
      return access(inst, store->getPointerOperand(),
                    bytesOf(store->getValueOperand()->getType()), true,
                    !store->isVolatile() && store->isUnordered());
    if (const auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
      return access(inst, rmw->getPointerOperand(), 0, true, false);
    if (const auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
      return access(inst, cas->getPointerOperand(), 0, true, false);
    const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
    if (!call)
      return;
    if (const auto *mem = llvm::dyn_cast<llvm::MemIntrinsic>(call)) {
      access(inst, mem->getRawDest(), 0, true, false);
      if (const auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(mem)) {
        access(inst, transfer->getRawSource(), 0, false, false);
        // One instruction, two accesses: untracked only when its write
        // stays in the thread's own stack (a struct copied into a local),
        // never when it fills a shared variable (`*(float2 *)&tile[i] =
        // *(const float2 *)&in[i]` is a copy of a read-only parameter's).
        if (!writesOwnStack(*transfer))
          tracked_.insert(&inst);
      }
      return;
    }
    const llvm::Function *callee = call->getCalledFunction();
    std::optional<Builtin> builtin = callee ? classifyBuiltin(callee->getName()) : std::nullopt;
    if (builtin && builtin->kind == BuiltinKind::Texture)
      return textureAccess(*call, TextureAccess(builtin->selector));
    if (!callee || call->isInlineAsm()) {
      // An indirect call or assembly may touch anything.
      unknownWrite_ = true;
      return;
    }
    if (!callee->isDeclaration()) {
      reach(*callee);
      return;
    }
    // A builtin, libdevice or an unresolved function: only what its pointer
    // arguments point to (a parameter's pointer passed here escaped).
    for (const llvm::Use &arg : call->args())
      if (arg->getType()->isPointerTy() &&
          forms_.origin(arg.get(), kernel_).kind == Forms::Origin::Kind::Unknown)
        (callee->onlyReadsMemory() ? unknownRead_ : unknownWrite_) = true;
  }

  // A texture's texels may be any buffer (a parameter's: alias=PARAM), so
  // its reads are of unknown origin for the pointer parameters, and a
  // surface store writes anything. A fetch through the handle a parameter
  // passes (here or to the functions it calls) is that parameter's
  // read-only access, which interp::untrackedInstructions admits when the
  // texels are no other argument's buffer.
  void textureAccess(const llvm::CallBase &call, TextureAccess access) {
    if (access == TextureAccess::SurfaceStore) {
      unknownWrite_ = true;
      return;
    }
    unknownRead_ = true;
    if (access != TextureAccess::Fetch || call.arg_size() == 0)
      return;
    std::set<const llvm::Function *> visiting;
    if (std::optional<uint32_t> param = kernelParamOf(call.getArgOperand(0), visiting))
      textureReads_.push_back({&call, *param, false});
  }

  // The kernel parameter `value` always is (a texture handle: an integer,
  // through casts and the arguments of functions every caller of which
  // passes that parameter), if one.
  std::optional<uint32_t> kernelParamOf(const llvm::Value *value,
                                        std::set<const llvm::Function *> &visiting) {
    while (const auto *cast = llvm::dyn_cast<llvm::CastInst>(value))
      value = cast->getOperand(0);
    const auto *arg = llvm::dyn_cast<llvm::Argument>(value);
    if (!arg)
      return std::nullopt;
    const llvm::Function *function = arg->getParent();
    if (function == &kernel_)
      return arg->getArgNo();
    if (!visiting.insert(function).second || function->hasAddressTaken())
      return std::nullopt;
    std::optional<uint32_t> param;
    for (const llvm::User *user : function->users()) {
      const auto *call = llvm::dyn_cast<llvm::CallBase>(user);
      if (!call || call->getCalledFunction() != function || arg->getArgNo() >= call->arg_size())
        return std::nullopt;
      std::optional<uint32_t> passed =
          kernelParamOf(call->getArgOperand(arg->getArgNo()), visiting);
      if (!passed || (param && *param != *passed))
        return std::nullopt;
      param = passed;
    }
    return param;
  }

  const llvm::Function &kernel_;
  Forms forms_;
  std::vector<ConflictFreeAccess> textureReads_;
  std::map<uint32_t, ParamUse> uses_;
  std::vector<const llvm::Function *> functions_;
  std::set<const llvm::Function *> seen_;
  bool unknownRead_ = false, unknownWrite_ = false;
  // Copies whose other access the model must see: never untracked.
  std::set<const llvm::Instruction *> tracked_;
};

} // namespace

std::vector<ConflictFreeAccess> conflictFreeAccesses(const llvm::Function &kernel) {
  return Scan(kernel).run();
}

} // namespace simulee::ir
