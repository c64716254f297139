#include "ir/InlinePtx.h"

#include "ir/HeaderInlining.h"
#include "ir/SharedWindows.h"
#include "ir/TexturePtx.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <bit>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace simulee::ir {
namespace {

constexpr const char *kUnsupportedMetadata = "simulee.unsupported.ptx";

// One PTX statement: `@!p opcode.mod.mod a, b, {c, d}, [e+4];`
struct Statement {
  std::string guard; // predicate register, empty when unguarded
  bool guardNegated = false;
  std::string opcode;
  llvm::SmallVector<llvm::StringRef, 6> parts; // opcode split at '.'
  std::vector<std::string> operands;

  bool has(llvm::StringRef modifier) const {
    return std::find(parts.begin() + 1, parts.end(), modifier) != parts.end();
  }
};

std::vector<std::string> splitTopLevel(llvm::StringRef text, char separator) {
  std::vector<std::string> pieces;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '{' || c == '[')
      ++depth;
    if (c == '}' || c == ']')
      --depth;
    if (c == separator && depth == 0) {
      pieces.push_back(llvm::StringRef(current).trim().str());
      current.clear();
      continue;
    }
    current += c;
  }
  if (!llvm::StringRef(current).trim().empty())
    pieces.push_back(llvm::StringRef(current).trim().str());
  return pieces;
}

// Splits the asm text into statements; scope braces are dropped, comments too.
std::vector<Statement> parseStatements(llvm::StringRef text, std::string &error) {
  std::string cleaned;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i).starts_with("//")) {
      while (i < text.size() && text[i] != '\n')
        ++i;
      continue;
    }
    cleaned += text[i] == '\n' || text[i] == '\t' ? ' ' : text[i];
  }
  std::vector<Statement> statements;
  for (llvm::StringRef piece : llvm::split(cleaned, ';')) {
    piece = piece.trim();
    while (!piece.empty() && (piece.front() == '{' || piece.front() == '}'))
      piece = piece.drop_front().trim();
    while (!piece.empty() && piece.back() == '}' && piece.count('{') < piece.count('}'))
      piece = piece.drop_back().trim();
    if (piece.empty())
      continue;
    Statement statement;
    if (piece.consume_front("@")) {
      statement.guardNegated = piece.consume_front("!");
      auto [guard, rest] = piece.split(' ');
      statement.guard = guard.str();
      piece = rest.trim();
    }
    auto [opcode, rest] = piece.split(' ');
    if (opcode.ends_with(":")) {
      error = "label '" + opcode.str() + "' (branches inside inline PTX)";
      return {};
    }
    statement.opcode = opcode.str();
    statement.operands = splitTopLevel(rest, ',');
    statements.push_back(std::move(statement));
  }
  for (Statement &statement : statements)
    llvm::SplitString(statement.opcode, statement.parts, ".");
  return statements;
}

struct Unsupported {
  std::string what;
};

// A 16-bit float type of PTX: IEEE binary16 (.f16) or bfloat16 (.bf16), one
// to a register or packed two to a 32-bit register (.f16x2, .bf16x2), where
// element 0 is the low half.
struct HalfFormat {
  bool bfloat = false;
  unsigned elements = 1;

  uint16_t one() const { return bfloat ? 0x3f80 : 0x3c00; }
  uint16_t exponentMask() const { return bfloat ? 0x7f80 : 0x7c00; }
  uint16_t largestFinite() const { return bfloat ? 0x7f7f : 0x7bff; }
  float smallestNormal() const { return bfloat ? 0x1p-126f : 0x1p-14f; }
};

constexpr uint16_t kCanonicalHalfNaN = 0x7fff; // the NaN PTX's 16-bit arithmetic produces

std::optional<HalfFormat> halfFormatOf(llvm::StringRef type) {
  if (type == "f16" || type == "f16x2")
    return HalfFormat{false, type == "f16" ? 1u : 2u};
  if (type == "bf16" || type == "bf16x2")
    return HalfFormat{true, type == "bf16" ? 1u : 2u};
  return std::nullopt;
}

// The rounding modifier of a statement (rn, rz, rni, ...), empty if none.
llvm::StringRef roundingOf(const Statement &s) {
  static const std::set<llvm::StringRef> modes = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
  for (llvm::StringRef part : llvm::ArrayRef(s.parts).drop_front())
    if (modes.count(part))
      return part;
  return "";
}

// Rewrites one inline-asm call into IR before it.
class PtxLowering {
public:
  PtxLowering(llvm::CallInst &call) : call_(call), builder_(&call), module_(*call.getModule()) {
    // What the statement becomes came from where it did (a header's body).
    builder_.CollectMetadataToCopy(&call, {call.getContext().getMDKindID(kFromHeaderMetadata)});
  }

  void run();

private:
  llvm::LLVMContext &context() { return call_.getContext(); }
  llvm::IntegerType *intType(unsigned bits) { return builder_.getIntNTy(bits); }

  // Operand binding: $0.. outputs, then the call's arguments.
  void bindOperands();
  void lowerStatement(const Statement &statement);
  void lowerOperation(const Statement &statement);

  // Values.
  llvm::Type *typeOf(llvm::StringRef suffix);
  llvm::Value *convert(llvm::Value *value, llvm::Type *type, bool isSigned = false);
  llvm::Value *read(const std::string &operand, llvm::Type *type, bool isSigned = false);
  llvm::Value *readRaw(const std::string &operand);
  void write(const std::string &operand, llvm::Value *value);
  llvm::Value *specialRegister(llvm::StringRef name);
  llvm::Value *address(const std::string &operand, unsigned extraOffset = 0, bool shared = false);
  std::vector<std::string> vectorElements(const std::string &operand);

  llvm::Value *intrinsic(llvm::StringRef name, llvm::Type *result, llvm::ArrayRef<llvm::Value *> args);
  llvm::Value *carryFlag();
  void setCarry(llvm::Value *flag);

  // Operation families (the PTX ISA's chapters).
  void lowerMove(const Statement &s);
  void lowerIntegerArithmetic(const Statement &s);
  void lowerFloatArithmetic(const Statement &s);
  void lowerBitField(const Statement &s);
  void lowerDotProduct(const Statement &s);
  void lowerLogic(const Statement &s);
  void lowerCompare(const Statement &s);
  void lowerConvert(const Statement &s);
  llvm::Value *toTf32(const Statement &s, llvm::Value *value);
  void lowerMemory(const Statement &s);
  void lowerAtomic(const Statement &s);
  void lowerWarp(const Statement &s);
  void lowerSync(const Statement &s);
  void lowerMbarrier(const Statement &s);
  void lowerAsyncCopy(const Statement &s);
  llvm::Value *mbarrierArrive(llvm::Value *word, llvm::Value *count, bool drop, bool complete);
  void fenceOfScope(const Statement &s);
  void fenceIfReleasing(const Statement &s);
  llvm::Value *prmtModeSelector(const Statement &s, llvm::Value *c);
  std::vector<llvm::Value *> compareElements(const Statement &s, llvm::StringRef typeName);
  llvm::Value *setResult(llvm::StringRef typeName, llvm::ArrayRef<llvm::Value *> outcomes);
  void lowerBarrierReduction(const Statement &s);
  void lowerTexture(const Statement &s);

  // 16-bit floats: each element is computed in f32, which holds every .f16
  // and .bf16 value exactly, and rounded back with integer operations, so
  // .bf16 never reaches the interpreter's 16-bit float type (IEEE half).
  void lowerHalfArithmetic(const Statement &s, HalfFormat format);
  void lowerConvertToPackedHalves(const Statement &s, HalfFormat format);
  void lowerPackedHalfAtomic(const Statement &s, HalfFormat format);
  llvm::Value *convertToHalf(const Statement &s, llvm::Value *value, bool isSigned, HalfFormat format);
  std::vector<llvm::Value *> halfElements(const std::string &operand, HalfFormat format);
  std::vector<llvm::Value *> halfElementsAsFloats(const std::string &operand, HalfFormat format,
                                                  bool flushSubnormals);
  llvm::Value *packElements(llvm::ArrayRef<llvm::Value *> elements);
  llvm::Value *halfToFloat(llvm::Value *bits, HalfFormat format);
  llvm::Value *floatToHalf(llvm::Value *value, HalfFormat format, llvm::StringRef rounding = "rn");
  llvm::Value *roundToOdd(llvm::Value *nearest, llvm::Value *error);
  llvm::Value *fmaRoundedToOdd(llvm::Value *a, llvm::Value *b, llvm::Value *c);
  llvm::Value *minMax(llvm::StringRef op, llvm::Value *a, llvm::Value *b, bool nanWins);
  llvm::Value *saturate(llvm::Value *value);
  llvm::Value *relu(llvm::Value *value);
  llvm::Value *flushSubnormal(llvm::Value *value, float smallestNormal);
  llvm::Value *flushSubnormalBits(llvm::Value *bits, HalfFormat format);
  llvm::Value *signBitSet(llvm::Value *value);

  static bool hasSideEffects(const Statement &s);
  static bool isSignedType(llvm::StringRef type) { return type.starts_with("s"); }
  static bool isFloatType(llvm::StringRef type) { return type.starts_with("f"); }
  static unsigned bitsOf(llvm::StringRef type) {
    if (type == "pred")
      return 1;
    unsigned bits = 0;
    type.drop_front().getAsInteger(10, bits);
    return bits;
  }

  llvm::CallInst &call_;
  llvm::IRBuilder<> builder_;
  llvm::Module &module_;
  unsigned outputCount_ = 0;
  std::vector<llvm::Type *> outputTypes_;
  std::map<std::string, llvm::Value *> registers_;
  std::map<std::string, llvm::Value *> inputs_;
};

llvm::Type *PtxLowering::typeOf(llvm::StringRef suffix) {
  if (suffix == "pred")
    return builder_.getInt1Ty();
  if (suffix == "f16" || suffix == "bf16")
    return suffix == "f16" ? builder_.getHalfTy() : builder_.getBFloatTy();
  if (suffix == "f16x2" || suffix == "bf16x2") // moved and stored as their 32 bits
    return intType(32);
  if (suffix == "f32")
    return builder_.getFloatTy();
  if (suffix == "f64")
    return builder_.getDoubleTy();
  unsigned bits = bitsOf(suffix);
  if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
    return intType(bits);
  throw Unsupported{"type ." + suffix.str()};
}

llvm::Value *PtxLowering::convert(llvm::Value *value, llvm::Type *type, bool isSigned) {
  llvm::Type *from = value->getType();
  if (from == type)
    return value;
  if (from->isPointerTy() && type->isPointerTy())
    return builder_.CreatePointerBitCastOrAddrSpaceCast(value, type);
  if (from->isPointerTy())
    return convert(builder_.CreatePtrToInt(value, builder_.getInt64Ty()), type, isSigned);
  if (type->isPointerTy())
    return builder_.CreateIntToPtr(convert(value, builder_.getInt64Ty()), type);
  if (from->isFloatingPointTy())
    return convert(builder_.CreateBitCast(value, intType(from->getPrimitiveSizeInBits())), type,
                   isSigned);
  if (type->isFloatingPointTy())
    return builder_.CreateBitCast(convert(value, intType(type->getPrimitiveSizeInBits())), type);
  return builder_.CreateIntCast(value, type, isSigned && from->getIntegerBitWidth() > 1);
}

void PtxLowering::bindOperands() {
  llvm::InlineAsm *asmValue = llvm::cast<llvm::InlineAsm>(call_.getCalledOperand());
  llvm::InlineAsm::ConstraintInfoVector constraints = asmValue->ParseConstraints();
  unsigned argument = 0;
  std::vector<std::pair<unsigned, unsigned>> tied; // output, argument
  for (const llvm::InlineAsm::ConstraintInfo &constraint : constraints) {
    if (constraint.Type == llvm::InlineAsm::isClobber)
      continue;
    if (constraint.isIndirect)
      throw Unsupported{"a memory operand (\"m\" constraint)"};
    if (constraint.Type == llvm::InlineAsm::isOutput) {
      ++outputCount_;
      continue;
    }
    if (constraint.hasMatchingInput() || constraint.MatchingInput >= 0)
      tied.push_back({unsigned(constraint.MatchingInput), argument});
    inputs_["$" + std::to_string(outputCount_ + argument)] = call_.getArgOperand(argument);
    ++argument;
  }
  llvm::Type *result = call_.getType();
  if (auto *structType = llvm::dyn_cast<llvm::StructType>(result))
    outputTypes_.assign(structType->element_begin(), structType->element_end());
  else if (!result->isVoidTy())
    outputTypes_.push_back(result);
  for (auto [output, arg] : tied)
    registers_["$" + std::to_string(output)] = call_.getArgOperand(arg);
}

llvm::Value *PtxLowering::intrinsic(llvm::StringRef name, llvm::Type *result,
                                    llvm::ArrayRef<llvm::Value *> args) {
  std::vector<llvm::Type *> types;
  for (llvm::Value *arg : args)
    types.push_back(arg->getType());
  llvm::FunctionCallee callee =
      module_.getOrInsertFunction(name, llvm::FunctionType::get(result, types, false));
  return builder_.CreateCall(callee, args);
}

const std::set<std::string> &specialRegisterNames() {
  static const std::set<std::string> known = {
      "tid.x",       "tid.y",       "tid.z",       "ntid.x",      "ntid.y",    "ntid.z",
      "ctaid.x",     "ctaid.y",     "ctaid.z",     "nctaid.x",    "nctaid.y",  "nctaid.z",
      "laneid",      "warpid",      "nwarpid",     "smid",        "nsmid",     "gridid",
      "lanemask_lt", "lanemask_le", "lanemask_eq", "lanemask_ge", "lanemask_gt",
      "clock",       "clock64",     "globaltimer", "envreg1",     "envreg2"};
  return known;
}

bool isSpecialRegister(llvm::StringRef name) {
  return specialRegisterNames().count(name.str()) || name.starts_with("envreg") ||
         name.starts_with("pm") || name == "total_smem_size" || name == "dynamic_smem_size";
}

llvm::Value *PtxLowering::specialRegister(llvm::StringRef name) {
  std::string reg = name.str();
  if (!specialRegisterNames().count(reg))
    throw Unsupported{"special register %" + reg};
  if (reg == "nwarpid") // warps per block, rounded up: the only use is as a bound
    return builder_.CreateUDiv(builder_.CreateAdd(specialRegister("ntid.x"), builder_.getInt32(31)),
                               builder_.getInt32(32));
  if (reg == "gridid")
    return builder_.getInt64(1);
  std::replace(reg.begin(), reg.end(), '_', '.');
  bool wide = reg == "clock64" || reg == "globaltimer";
  return intrinsic("llvm.nvvm.read.ptx.sreg." + reg, wide ? builder_.getInt64Ty() : builder_.getInt32Ty(),
                   {});
}

// An immediate: 42, -1, 0x1F, 0f3F800000 (float bits), 0d... (double bits).
std::optional<uint64_t> parseImmediate(llvm::StringRef text, bool &isFloatBits) {
  isFloatBits = false;
  bool negative = text.consume_front("-");
  text.consume_back("U");
  uint64_t value = 0;
  if (text.starts_with_insensitive("0f") || text.starts_with_insensitive("0d")) {
    isFloatBits = true;
    if (text.drop_front(2).getAsInteger(16, value))
      return std::nullopt;
    return value;
  }
  if (text.getAsInteger(0, value))
    return std::nullopt;
  return negative ? uint64_t(0) - value : value;
}

llvm::Value *PtxLowering::readRaw(const std::string &operand) {
  llvm::StringRef text(operand);
  if (auto it = registers_.find(operand); it != registers_.end())
    return it->second;
  if (auto it = inputs_.find(operand); it != inputs_.end())
    return it->second;
  if (text.starts_with("%") && isSpecialRegister(text.drop_front()))
    return specialRegister(text.drop_front());
  bool isFloatBits = false;
  if (!text.empty() && (llvm::isDigit(text.front()) || text.front() == '-')) {
    std::optional<uint64_t> value = parseImmediate(text, isFloatBits);
    if (!value)
      throw Unsupported{"operand '" + operand + "'"};
    if (isFloatBits && text.size() <= 10 + (text.front() == '-'))
      return llvm::ConstantFP::get(builder_.getFloatTy(),
                                   double(std::bit_cast<float>(uint32_t(*value))));
    if (isFloatBits)
      return llvm::ConstantFP::get(builder_.getDoubleTy(), std::bit_cast<double>(*value));
    return builder_.getInt64(*value);
  }
  if (text.starts_with("$"))
    return llvm::Constant::getNullValue(builder_.getInt64Ty()); // an output read before written
  // A register declared with .reg and not yet written.
  return builder_.getInt64(0);
}

llvm::Value *PtxLowering::read(const std::string &operand, llvm::Type *type, bool isSigned) {
  llvm::StringRef text(operand);
  if (text.consume_front("!"))
    return builder_.CreateNot(read(text.str(), builder_.getInt1Ty()));
  llvm::Value *value = readRaw(operand);
  if (type->isFloatingPointTy() && value->getType()->isFloatingPointTy() && value->getType() != type &&
      llvm::isa<llvm::Constant>(value))
    return builder_.CreateFPCast(value, type); // 0f immediates used at f64
  if (type->isIntegerTy(1) && value->getType()->isIntegerTy() && !value->getType()->isIntegerTy(1))
    return builder_.CreateICmpNE(value, llvm::ConstantInt::get(value->getType(), 0));
  return convert(value, type, isSigned);
}

void PtxLowering::write(const std::string &operand, llvm::Value *value) {
  if (operand == "_")
    return; // the sink register
  registers_[operand] = value;
}

std::vector<std::string> PtxLowering::vectorElements(const std::string &operand) {
  llvm::StringRef text = llvm::StringRef(operand).trim();
  if (!text.consume_front("{") || !text.consume_back("}"))
    return {operand};
  return splitTopLevel(text, ',');
}

// Whether a statement's addresses are in the shared state space (.shared,
// .shared::cta): integer addresses there are window addresses.
bool isSharedSpace(const Statement &s) {
  return llvm::any_of(llvm::ArrayRef(s.parts).drop_front(), [](llvm::StringRef part) {
    return part == "shared" || part == "shared::cta";
  });
}

// [reg], [reg+8], [reg+-8], [$3]: a pointer into the flat address space. An
// integer address of a `shared` statement is a window address (32 bits, or
// a 64-bit value below 2^32; a wider one is a generic pointer's bits).
llvm::Value *PtxLowering::address(const std::string &operand, unsigned extraOffset, bool shared) {
  llvm::StringRef text = llvm::StringRef(operand).trim();
  if (!text.consume_front("[") || !text.consume_back("]"))
    throw Unsupported{"address operand '" + operand + "'"};
  auto [base, offsetText] = text.split('+');
  int64_t offset = 0;
  if (!offsetText.empty() && offsetText.trim().getAsInteger(0, offset))
    throw Unsupported{"address operand '" + operand + "'"};
  llvm::Value *pointer = readRaw(base.trim().str());
  if (!pointer->getType()->isPointerTy()) {
    unsigned bits = pointer->getType()->getIntegerBitWidth();
    if (bits < 64 && !shared)
      throw Unsupported{"a 32-bit address '" + operand + "' outside the shared state space"};
    llvm::Value *window = shared ? pointerOfSharedWindow(builder_, pointer) : nullptr;
    if (bits < 64) {
      pointer = window;
    } else {
      llvm::Value *generic = builder_.CreateIntToPtr(pointer, builder_.getPtrTy());
      pointer = window ? builder_.CreateSelect(
                             builder_.CreateICmpULT(pointer, builder_.getInt64(1ull << 32)), window,
                             generic)
                       : generic;
    }
  }
  offset += extraOffset;
  if (offset != 0)
    pointer = builder_.CreateGEP(builder_.getInt8Ty(), pointer, builder_.getInt64(offset));
  return pointer;
}

llvm::Value *PtxLowering::carryFlag() {
  llvm::Function &function = *call_.getFunction();
  llvm::AllocaInst *slot = nullptr;
  for (llvm::Instruction &inst : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst); alloca && alloca->getName() == "ptx.carry")
      slot = alloca;
  if (!slot) {
    llvm::IRBuilder<> entry(&*function.getEntryBlock().getFirstInsertionPt());
    slot = entry.CreateAlloca(builder_.getInt1Ty(), nullptr, "ptx.carry");
    entry.CreateStore(builder_.getFalse(), slot);
  }
  return slot;
}

void PtxLowering::setCarry(llvm::Value *flag) { builder_.CreateStore(flag, carryFlag()); }

bool PtxLowering::hasSideEffects(const Statement &s) {
  static const std::set<llvm::StringRef> effects = {
      "st",     "atom",  "red",  "bar",  "barrier", "mbarrier",   "cp",  "trap", "exit", "ld",
      "membar", "fence", "shfl", "vote", "match",   "activemask", "tex", "suld", "sust"};
  return effects.count(s.parts[0]) || s.opcode.find(".cc") != std::string::npos ||
         llvm::StringRef(s.parts[0]).starts_with("addc") ||
         llvm::StringRef(s.parts[0]).starts_with("subc") ||
         llvm::StringRef(s.parts[0]).starts_with("madc");
}

void PtxLowering::lowerStatement(const Statement &s) {
  if (s.parts.empty())
    return;
  if (s.guard.empty())
    return lowerOperation(s);

  llvm::Value *guard = read(s.guard, builder_.getInt1Ty());
  if (s.guardNegated)
    guard = builder_.CreateNot(guard);
  std::map<std::string, llvm::Value *> before = registers_;
  if (!hasSideEffects(s)) {
    lowerOperation(s);
    for (auto &[name, value] : registers_) {
      auto old = before.find(name);
      if (old != before.end() && old->second == value)
        continue;
      llvm::Value *previous = old != before.end() ? convert(old->second, value->getType())
                                                  : llvm::Constant::getNullValue(value->getType());
      value = builder_.CreateSelect(guard, value, previous);
    }
    return;
  }
  // Memory, synchronisation, carry: only when the guard holds.
  llvm::Instruction *thenTerminator =
      llvm::SplitBlockAndInsertIfThen(guard, builder_.GetInsertPoint(), false);
  llvm::BasicBlock *head = thenTerminator->getParent()->getSinglePredecessor();
  llvm::BasicBlock *thenBlock = thenTerminator->getParent();
  builder_.SetInsertPoint(thenTerminator);
  lowerOperation(s);
  builder_.SetInsertPoint(&call_);
  for (auto &[name, value] : registers_) {
    auto old = before.find(name);
    if (old != before.end() && old->second == value)
      continue;
    llvm::Value *previous = llvm::Constant::getNullValue(value->getType());
    if (old != before.end()) {
      llvm::IRBuilderBase::InsertPointGuard restore(builder_);
      builder_.SetInsertPoint(head->getTerminator());
      previous = convert(old->second, value->getType());
    }
    llvm::PHINode *phi = llvm::PHINode::Create(value->getType(), 2, name + ".guarded");
    phi->insertBefore(call_.getParent()->getFirstNonPHI());
    phi->addIncoming(value, thenBlock);
    phi->addIncoming(previous, head);
    value = phi;
  }
}

void PtxLowering::lowerOperation(const Statement &s) {
  llvm::StringRef op = s.parts[0];
  if (op == "mov" || op == "activemask")
    return lowerMove(s);
  static const std::set<llvm::StringRef> halfArithmetic = {"add", "sub", "mul", "fma", "neg",
                                                           "abs", "min", "max", "ex2", "tanh"};
  if (std::optional<HalfFormat> half = halfFormatOf(s.parts.back()); half && halfArithmetic.count(op))
    return lowerHalfArithmetic(s, *half);
  bool floatOnly = op == "fma" || op == "rcp" || op == "sqrt" || op == "rsqrt" || op == "ex2" ||
                   op == "lg2" || op == "sin" || op == "cos" || op == "tanh";
  if (op == "add" || op == "sub" || op == "mul" || op == "mad" || op == "addc" || op == "subc" ||
      op == "madc" || op == "div" || op == "rem" || op == "abs" || op == "neg" || op == "min" ||
      op == "max" || op == "mul24" || op == "mad24" || op == "sad" || floatOnly) {
    if (isFloatType(s.parts.back()) || floatOnly)
      return lowerFloatArithmetic(s);
    return lowerIntegerArithmetic(s);
  }
  if (op == "bfe" || op == "bfi" || op == "prmt" || op == "brev" || op == "popc" || op == "clz" ||
      op == "shf" || op == "bfind" || op == "fns")
    return lowerBitField(s);
  if (op == "dp4a" || op == "dp2a")
    return lowerDotProduct(s);
  if (op == "and" || op == "or" || op == "xor" || op == "not" || op == "cnot" || op == "shl" ||
      op == "shr" || op == "lop3")
    return lowerLogic(s);
  if (op == "setp" || op == "selp" || op == "set" || op == "slct")
    return lowerCompare(s);
  if (op == "cvt" || op == "cvta")
    return lowerConvert(s);
  if (op == "ld" || op == "st" || op == "prefetch" || op == "prefetchu")
    return lowerMemory(s);
  if (op == "atom" || op == "red")
    return lowerAtomic(s);
  if (op == "shfl" || op == "vote" || op == "match")
    return lowerWarp(s);
  if (op == "tex" || op == "suld" || op == "sust")
    return lowerTexture(s);
  if (op == "mbarrier")
    return lowerMbarrier(s);
  if (op == "cp" && s.parts.size() > 1 && s.parts[1] == "async")
    return lowerAsyncCopy(s);
  if (op == "bar" || op == "barrier" || op == "membar" || op == "fence" || op == "trap" ||
      op == "exit" || op == "nanosleep" || op == "pmevent")
    return lowerSync(s);
  throw Unsupported{"PTX instruction '" + s.opcode + "'"};
}

void PtxLowering::lowerMove(const Statement &s) {
  if (s.parts[0] == "activemask") {
    write(s.operands.at(0), intrinsic("llvm.nvvm.activemask", builder_.getInt32Ty(), {}));
    return;
  }
  llvm::Type *type = typeOf(s.parts.back());
  const std::string &dst = s.operands.at(0), &src = s.operands.at(1);
  std::vector<std::string> dstParts = vectorElements(dst), srcParts = vectorElements(src);
  unsigned bits = type->getPrimitiveSizeInBits();
  if (srcParts.size() > 1) { // pack {lo, hi} into one register
    unsigned pieceBits = bits / unsigned(srcParts.size());
    llvm::Value *packed = llvm::ConstantInt::get(intType(bits), 0);
    for (size_t i = 0; i < srcParts.size(); ++i) {
      llvm::Value *piece = builder_.CreateZExt(read(srcParts[i], intType(pieceBits)), intType(bits));
      packed = builder_.CreateOr(packed, builder_.CreateShl(piece, uint64_t(pieceBits * i)));
    }
    write(dst, packed);
    return;
  }
  if (dstParts.size() > 1) { // unpack one register into {lo, hi}
    unsigned pieceBits = bits / unsigned(dstParts.size());
    llvm::Value *whole = read(src, intType(bits));
    for (size_t i = 0; i < dstParts.size(); ++i)
      write(dstParts[i],
            builder_.CreateTrunc(builder_.CreateLShr(whole, uint64_t(pieceBits * i)), intType(pieceBits)));
    return;
  }
  llvm::Value *value = readRaw(src);
  if (value->getType()->isPointerTy() && bits == 64) {
    write(dst, value);
    return;
  }
  write(dst, read(src, type));
}

// Integer add/sub/mul/mad with .lo/.hi/.wide and .cc carry chains, div, rem,
// min, max, abs, neg.
void PtxLowering::lowerIntegerArithmetic(const Statement &s) {
  llvm::StringRef op = s.parts[0];
  llvm::StringRef typeName = s.parts.back();
  bool isSigned = isSignedType(typeName);
  unsigned bits = bitsOf(typeName);
  llvm::Type *type = intType(bits);
  auto arg = [&](unsigned i) { return read(s.operands.at(i), type, isSigned); };
  const std::string &dst = s.operands.at(0);

  if (op == "abs" || op == "neg") {
    llvm::Value *a = arg(1);
    write(dst, op == "neg" ? builder_.CreateNeg(a) : intrinsic("llvm.abs." + std::string("i") + std::to_string(bits), type, {a, builder_.getFalse()}));
    return;
  }
  if (op == "min" || op == "max") {
    llvm::Value *a = arg(1), *b = arg(2);
    llvm::Value *less = isSigned ? builder_.CreateICmpSLT(a, b) : builder_.CreateICmpULT(a, b);
    write(dst, op == "min" ? builder_.CreateSelect(less, a, b) : builder_.CreateSelect(less, b, a));
    return;
  }
  if (op == "div" || op == "rem") {
    llvm::Value *a = arg(1), *b = arg(2);
    // Division by zero gives all ones on the GPU; never a host trap here.
    llvm::Value *zero = builder_.CreateICmpEQ(b, llvm::ConstantInt::get(type, 0));
    llvm::Value *safe = builder_.CreateSelect(zero, llvm::ConstantInt::get(type, 1), b);
    llvm::Value *result = op == "div" ? (isSigned ? builder_.CreateSDiv(a, safe) : builder_.CreateUDiv(a, safe))
                                      : (isSigned ? builder_.CreateSRem(a, safe) : builder_.CreateURem(a, safe));
    write(dst, builder_.CreateSelect(zero, op == "div" ? llvm::ConstantInt::getAllOnesValue(type) : a, result));
    return;
  }
  if (op == "sad") { // |a - b| + c
    llvm::Value *a = arg(1), *b = arg(2);
    llvm::Value *less = isSigned ? builder_.CreateICmpSLT(a, b) : builder_.CreateICmpULT(a, b);
    llvm::Value *diff = builder_.CreateSelect(less, builder_.CreateSub(b, a), builder_.CreateSub(a, b));
    write(dst, builder_.CreateAdd(diff, arg(3)));
    return;
  }

  bool carryIn = op == "addc" || op == "subc" || op == "madc";
  bool carryOut = s.has("cc");
  bool isMad = op == "mad" || op == "madc" || op == "mad24";
  bool isMul = op == "mul" || op == "mul24" || isMad;

  llvm::Value *result = nullptr;
  unsigned resultBits = bits;
  if (isMul) {
    bool wide = s.has("wide"), high = s.has("hi");
    unsigned productBits = (wide || high) ? bits * 2 : bits;
    if (productBits > 64)
      productBits = 64; // 64-bit .hi is handled with the mulhi builtin below
    llvm::Value *a = arg(1), *b = arg(2);
    if (op == "mul24" || op == "mad24") {
      a = builder_.CreateIntCast(builder_.CreateTrunc(a, intType(24)), type, isSigned);
      b = builder_.CreateIntCast(builder_.CreateTrunc(b, intType(24)), type, isSigned);
    }
    if (high && bits == 64) {
      llvm::Value *product = intrinsic(isSigned ? "llvm.nvvm.mulhi.ll" : "llvm.nvvm.mulhi.ull",
                                       type, {a, b});
      result = product;
    } else {
      llvm::Type *wideType = intType(productBits);
      llvm::Value *product = builder_.CreateMul(builder_.CreateIntCast(a, wideType, isSigned),
                                                builder_.CreateIntCast(b, wideType, isSigned));
      if (high)
        result = builder_.CreateTrunc(builder_.CreateLShr(product, uint64_t(bits)), type);
      else if (wide)
        result = product, resultBits = productBits;
      else
        result = product;
    }
    if (!isMad) {
      write(dst, result);
      return;
    }
    llvm::Type *resultType = intType(resultBits);
    llvm::Value *c = read(s.operands.at(3), resultType, isSigned);
    llvm::Value *sum = builder_.CreateAdd(result, c);
    llvm::Value *carry = builder_.CreateICmpULT(sum, result);
    if (carryIn) {
      llvm::Value *withCarry = builder_.CreateAdd(sum, builder_.CreateZExt(builder_.CreateLoad(builder_.getInt1Ty(), carryFlag()), resultType));
      carry = builder_.CreateOr(carry, builder_.CreateICmpULT(withCarry, sum));
      sum = withCarry;
    }
    if (carryOut)
      setCarry(carry);
    write(dst, sum);
    return;
  }

  llvm::Value *a = arg(1), *b = arg(2);
  bool isAdd = op == "add" || op == "addc";
  if (s.has("sat") && isSigned) {
    write(dst, intrinsic(std::string(isAdd ? "llvm.sadd.sat.i" : "llvm.ssub.sat.i") + std::to_string(bits), type, {a, b}));
    return;
  }
  llvm::Value *value = isAdd ? builder_.CreateAdd(a, b) : builder_.CreateSub(a, b);
  llvm::Value *carry = isAdd ? builder_.CreateICmpULT(value, a) : builder_.CreateICmpULT(a, b);
  if (carryIn) {
    llvm::Value *flag = builder_.CreateZExt(builder_.CreateLoad(builder_.getInt1Ty(), carryFlag()), type);
    llvm::Value *next = isAdd ? builder_.CreateAdd(value, flag) : builder_.CreateSub(value, flag);
    llvm::Value *second = isAdd ? builder_.CreateICmpULT(next, value) : builder_.CreateICmpULT(value, flag);
    carry = builder_.CreateOr(carry, second);
    value = next;
  }
  if (carryOut)
    setCarry(carry);
  write(dst, value);
}

void PtxLowering::lowerFloatArithmetic(const Statement &s) {
  llvm::StringRef op = s.parts[0];
  llvm::Type *type = typeOf(s.parts.back());
  auto arg = [&](unsigned i) { return read(s.operands.at(i), type); };
  const std::string &dst = s.operands.at(0);
  std::string suffix = type->isFloatTy() ? "f32" : type->isDoubleTy() ? "f64" : "f16";
  llvm::Value *result = nullptr;
  if (op == "add")
    result = builder_.CreateFAdd(arg(1), arg(2));
  else if (op == "sub")
    result = builder_.CreateFSub(arg(1), arg(2));
  else if (op == "mul")
    result = builder_.CreateFMul(arg(1), arg(2));
  else if (op == "div")
    result = builder_.CreateFDiv(arg(1), arg(2));
  else if (op == "fma" || op == "mad")
    result = intrinsic("llvm.fma." + suffix, type, {arg(1), arg(2), arg(3)});
  else if (op == "neg")
    result = builder_.CreateFNeg(arg(1));
  else if (op == "abs")
    result = intrinsic("llvm.fabs." + suffix, type, {arg(1)});
  else if (op == "min" || op == "max")
    result = minMax(op, arg(1), arg(2), s.has("NaN"));
  else if (op == "sqrt")
    result = intrinsic("llvm.sqrt." + suffix, type, {arg(1)});
  else if (op == "rcp")
    result = builder_.CreateFDiv(llvm::ConstantFP::get(type, 1.0), arg(1));
  else if (op == "rsqrt")
    result = builder_.CreateFDiv(llvm::ConstantFP::get(type, 1.0), intrinsic("llvm.sqrt." + suffix, type, {arg(1)}));
  else if (op == "ex2" || op == "lg2" || op == "sin" || op == "cos" || op == "tanh") // .approx
    result = intrinsic((op == "ex2" ? "llvm.exp2." : op == "lg2" ? "llvm.log2." : "llvm." + op.str() + ".") + suffix,
                       type, {arg(1)});
  else
    throw Unsupported{"PTX instruction '" + s.opcode + "'"};
  if (s.has("sat"))
    result = intrinsic("llvm.minnum." + suffix, type,
                       {intrinsic("llvm.maxnum." + suffix, type, {result, llvm::ConstantFP::get(type, 0.0)}),
                        llvm::ConstantFP::get(type, 1.0)});
  write(dst, result);
}

// add, sub, mul, fma, neg, abs, min, max, ex2, tanh on .f16/.bf16/.f16x2/.bf16x2,
// element by element, with the modifiers PTX allows on them.
void PtxLowering::lowerHalfArithmetic(const Statement &s, HalfFormat format) {
  static const std::set<llvm::StringRef> modifiers = {"rn",  "ftz",     "sat", "relu",
                                                      "NaN", "xorsign", "abs", "approx"};
  for (llvm::StringRef part : llvm::ArrayRef(s.parts).drop_front().drop_back())
    if (!modifiers.count(part))
      throw Unsupported{"PTX instruction '" + s.opcode + "' (modifier ." + part.str() + ")"};
  llvm::StringRef op = s.parts[0];
  bool ftz = s.has("ftz");
  if (op == "neg" || op == "abs") { // the sign bit alone, NaN included
    std::vector<llvm::Value *> elements = halfElements(s.operands.at(1), format);
    for (llvm::Value *&bits : elements) {
      if (ftz)
        bits = flushSubnormalBits(bits, format);
      bits = op == "neg" ? builder_.CreateXor(bits, 0x8000) : builder_.CreateAnd(bits, 0x7fff);
    }
    write(s.operands.at(0), packElements(elements));
    return;
  }
  unsigned sources = op == "fma" ? 3 : op == "ex2" || op == "tanh" ? 1 : 2;
  std::vector<std::vector<llvm::Value *>> args;
  for (unsigned i = 1; i <= sources; ++i)
    args.push_back(halfElementsAsFloats(s.operands.at(i), format, ftz));
  bool xorsign = s.has("xorsign");
  std::vector<llvm::Value *> results;
  for (unsigned e = 0; e < format.elements; ++e) {
    auto arg = [&](unsigned i) { return args[i][e]; };
    llvm::Value *result = nullptr;
    if (op == "add")
      result = builder_.CreateFAdd(arg(0), arg(1));
    else if (op == "sub")
      result = builder_.CreateFSub(arg(0), arg(1));
    else if (op == "mul")
      result = builder_.CreateFMul(arg(0), arg(1));
    else if (op == "fma")
      result = fmaRoundedToOdd(arg(0), arg(1), arg(2));
    else if (op == "min" || op == "max") {
      llvm::Value *a = arg(0), *b = arg(1);
      if (xorsign) { // min/max of the magnitudes, signed with sign(a) ^ sign(b)
        a = intrinsic("llvm.fabs.f32", a->getType(), {a});
        b = intrinsic("llvm.fabs.f32", b->getType(), {b});
      }
      result = minMax(op, a, b, s.has("NaN"));
      if (xorsign) {
        llvm::Value *negative = builder_.CreateXor(signBitSet(arg(0)), signBitSet(arg(1)));
        llvm::Value *isNaN = builder_.CreateFCmpUNO(result, result);
        result = builder_.CreateSelect(builder_.CreateAnd(negative, builder_.CreateNot(isNaN)),
                                       builder_.CreateFNeg(result), result);
      }
    } else
      result = intrinsic(op == "ex2" ? "llvm.exp2.f32" : "llvm.tanh.f32", builder_.getFloatTy(), {arg(0)});
    if (s.has("sat"))
      result = saturate(result);
    if (s.has("relu"))
      result = relu(result);
    llvm::Value *bits = floatToHalf(result, format);
    results.push_back(ftz ? flushSubnormalBits(bits, format) : bits);
  }
  write(s.operands.at(0), packElements(results));
}

// cvt.frnd{.relu}{.satfinite}.f16x2.f32 d, a, b (and .bf16x2): a goes to the
// upper half of d, b to the lower.
void PtxLowering::lowerConvertToPackedHalves(const Statement &s, HalfFormat format) {
  if (s.parts.back() != "f32" || s.operands.size() != 3)
    throw Unsupported{"PTX instruction '" + s.opcode + "' (packed halves from two .f32 only)"};
  llvm::Type *f32 = builder_.getFloatTy();
  llvm::Value *low = convertToHalf(s, read(s.operands.at(2), f32), false, format);
  llvm::Value *high = convertToHalf(s, read(s.operands.at(1), f32), false, format);
  write(s.operands.at(0), packElements({low, high}));
}

// One element of cvt to .f16/.bf16 from an integer or float (f32 for a
// 16-bit source): .rn/.rz/.rm/.rp, the integer roundings .rni/.rzi/.rmi/.rpi
// (a 16-bit result with an integral value), .sat, .relu and .satfinite.
llvm::Value *PtxLowering::convertToHalf(const Statement &s, llvm::Value *value, bool isSigned,
                                        HalfFormat format) {
  llvm::Type *f64 = builder_.getDoubleTy();
  if (value->getType()->isIntegerTy()) // exact in f64 up to 53 bits
    value = isSigned ? builder_.CreateSIToFP(value, f64) : builder_.CreateUIToFP(value, f64);
  if (s.has("ftz") && value->getType()->isFloatTy())
    value = flushSubnormal(value, 0x1p-126f);
  llvm::StringRef rounding = roundingOf(s);
  std::string suffix = value->getType()->isFloatTy() ? "f32" : "f64";
  if (rounding.ends_with("i")) {
    const char *fn = rounding == "rni" ? "llvm.rint." : rounding == "rzi" ? "llvm.trunc." : rounding == "rmi" ? "llvm.floor." : "llvm.ceil.";
    value = intrinsic(fn + suffix, value->getType(), {value});
    rounding = "rn";
  }
  if (s.has("sat"))
    value = saturate(value);
  if (s.has("relu"))
    value = relu(value);
  llvm::Value *bits = floatToHalf(value, format, rounding.empty() ? "rn" : rounding);
  if (!s.has("satfinite"))
    return bits;
  // Infinity (from an infinite or too large source) becomes the largest finite value.
  llvm::Value *infinite = builder_.CreateICmpEQ(builder_.CreateAnd(bits, 0x7fff), builder_.getInt16(format.exponentMask()));
  llvm::Value *largest = builder_.CreateOr(builder_.CreateAnd(bits, 0x8000), format.largestFinite());
  return builder_.CreateSelect(infinite, largest, bits);
}

// atom/red.add/min/max.noftz.f16x2 [a], b: one atomic per element, each on
// its own 16 bits. The interpreter's 16-bit float is IEEE half, so .bf16x2
// atomics are refused rather than computed in the wrong format.
void PtxLowering::lowerPackedHalfAtomic(const Statement &s, HalfFormat format) {
  if (format.bfloat)
    throw Unsupported{"PTX instruction '" + s.opcode + "' (bfloat16 atomics)"};
  std::optional<llvm::AtomicRMWInst::BinOp> binOp;
  if (s.has("add"))
    binOp = llvm::AtomicRMWInst::FAdd;
  else if (s.has("min"))
    binOp = llvm::AtomicRMWInst::FMin;
  else if (s.has("max"))
    binOp = llvm::AtomicRMWInst::FMax;
  if (!binOp)
    throw Unsupported{"PTX instruction '" + s.opcode + "'"};
  bool isReduction = s.parts[0] == "red";
  unsigned first = isReduction ? 0 : 1;
  std::vector<llvm::Value *> operands = halfElements(s.operands.at(first + 1), format);
  std::vector<llvm::Value *> old;
  for (unsigned e = 0; e < format.elements; ++e) {
    llvm::Value *pointer = address(s.operands.at(first), 2 * e);
    llvm::Value *operand = builder_.CreateBitCast(operands[e], builder_.getHalfTy());
    llvm::Value *before = builder_.CreateAtomicRMW(*binOp, pointer, operand, llvm::MaybeAlign(2),
                                                   llvm::AtomicOrdering::Monotonic);
    old.push_back(builder_.CreateBitCast(before, intType(16)));
  }
  if (!isReduction)
    write(s.operands.at(0), packElements(old));
}

// The 16-bit elements of a register, element 0 (the low half) first.
std::vector<llvm::Value *> PtxLowering::halfElements(const std::string &operand, HalfFormat format) {
  llvm::Value *whole = read(operand, intType(16 * format.elements));
  std::vector<llvm::Value *> elements;
  for (unsigned e = 0; e < format.elements; ++e)
    elements.push_back(builder_.CreateTrunc(builder_.CreateLShr(whole, uint64_t(16 * e)), intType(16)));
  return elements;
}

std::vector<llvm::Value *> PtxLowering::halfElementsAsFloats(const std::string &operand,
                                                             HalfFormat format, bool flushSubnormals) {
  std::vector<llvm::Value *> values;
  for (llvm::Value *bits : halfElements(operand, format)) {
    llvm::Value *value = halfToFloat(bits, format);
    values.push_back(flushSubnormals ? flushSubnormal(value, format.smallestNormal()) : value);
  }
  return values;
}

// Integers of one width side by side, element 0 in the low bits.
llvm::Value *PtxLowering::packElements(llvm::ArrayRef<llvm::Value *> elements) {
  if (elements.size() == 1)
    return elements[0];
  unsigned bits = elements[0]->getType()->getIntegerBitWidth();
  llvm::Type *packedType = intType(bits * unsigned(elements.size()));
  llvm::Value *packed = llvm::ConstantInt::get(packedType, 0);
  for (size_t e = 0; e < elements.size(); ++e)
    packed = builder_.CreateOr(packed, builder_.CreateShl(builder_.CreateZExt(elements[e], packedType),
                                                          uint64_t(bits * e)));
  return packed;
}

// Exact: a bfloat16 is the upper half of the f32 with the same value.
llvm::Value *PtxLowering::halfToFloat(llvm::Value *bits, HalfFormat format) {
  llvm::Type *f32 = builder_.getFloatTy();
  if (format.bfloat)
    return builder_.CreateBitCast(builder_.CreateShl(builder_.CreateZExt(bits, intType(32)), 16), f32);
  return builder_.CreateFPExt(builder_.CreateBitCast(bits, builder_.getHalfTy()), f32);
}

// Rounds an f32 or f64 to 16-bit float bits: rn (to nearest even), rz, rm or
// rp; NaN becomes the canonical NaN. An f64 is first rounded to odd in f32,
// which keeps the second rounding exact (24 >= 11 + 2 bits).
llvm::Value *PtxLowering::floatToHalf(llvm::Value *value, HalfFormat format, llvm::StringRef rounding) {
  llvm::Type *f32 = builder_.getFloatTy(), *i32 = intType(32), *i16 = intType(16);
  if (value->getType()->isDoubleTy()) {
    llvm::Value *nearest = builder_.CreateFPTrunc(value, f32);
    value = roundToOdd(nearest, builder_.CreateFSub(value, builder_.CreateFPExt(nearest, value->getType())));
  }
  llvm::Value *nearest = nullptr;
  if (format.bfloat) { // round the low 16 bits away, ties to even
    llvm::Value *bits = builder_.CreateBitCast(value, i32);
    llvm::Value *lsb = builder_.CreateAnd(builder_.CreateLShr(bits, 16), 1);
    llvm::Value *rounded = builder_.CreateAdd(bits, builder_.CreateAdd(lsb, builder_.getInt32(0x7fff)));
    nearest = builder_.CreateTrunc(builder_.CreateLShr(rounded, 16), i16);
  } else {
    nearest = builder_.CreateBitCast(builder_.CreateFPTrunc(value, builder_.getHalfTy()), i16);
  }
  llvm::Value *result = nearest;
  if (rounding == "rz" || rounding == "rm" || rounding == "rp") {
    // The nearest value, one step back toward the rounding direction if it
    // passed the exact one (magnitudes, as the bits are sign and magnitude).
    llvm::Value *widened = halfToFloat(nearest, format);
    llvm::Value *negative = builder_.CreateICmpNE(builder_.CreateAnd(nearest, 0x8000), builder_.getInt16(0));
    llvm::Value *passed = nullptr, *smaller = nullptr;
    llvm::Value *down = builder_.CreateSub(nearest, builder_.getInt16(1));
    llvm::Value *up = builder_.CreateAdd(nearest, builder_.getInt16(1));
    if (rounding == "rz") {
      passed = builder_.CreateFCmpOGT(intrinsic("llvm.fabs.f32", f32, {widened}),
                                      intrinsic("llvm.fabs.f32", f32, {value}));
      smaller = down;
    } else if (rounding == "rm") {
      passed = builder_.CreateFCmpOGT(widened, value);
      smaller = builder_.CreateSelect(negative, up, down);
    } else {
      passed = builder_.CreateFCmpOLT(widened, value);
      smaller = builder_.CreateSelect(negative, down, up);
    }
    result = builder_.CreateSelect(passed, smaller, nearest);
  } else if (rounding != "rn") {
    throw Unsupported{"rounding ." + rounding.str() + " to a 16-bit float"};
  }
  return builder_.CreateSelect(builder_.CreateFCmpUNO(value, value), builder_.getInt16(kCanonicalHalfNaN),
                               result);
}

// The f32 rounded to odd from `nearest` (rounded to nearest) and the exact
// result's distance from it (exact, in f32 or f64): when inexact, the
// neighbour with an odd last bit.
llvm::Value *PtxLowering::roundToOdd(llvm::Value *nearest, llvm::Value *error) {
  llvm::Type *f32 = builder_.getFloatTy();
  llvm::Value *bits = builder_.CreateBitCast(nearest, intType(32));
  llvm::Value *zero = llvm::ConstantFP::get(error->getType(), 0.0);
  llvm::Value *inexact = builder_.CreateFCmpONE(error, zero);
  llvm::Value *even = builder_.CreateICmpEQ(builder_.CreateAnd(bits, 1), builder_.getInt32(0));
  // Away from zero when the error has the result's sign.
  llvm::Value *away = builder_.CreateICmpEQ(signBitSet(nearest), builder_.CreateFCmpOLT(error, zero));
  llvm::Value *neighbour = builder_.CreateSelect(away, builder_.CreateAdd(bits, builder_.getInt32(1)),
                                                 builder_.CreateSub(bits, builder_.getInt32(1)));
  return builder_.CreateBitCast(builder_.CreateSelect(builder_.CreateAnd(inexact, even), neighbour, bits), f32);
}

// a * b + c for 16-bit values in f32, rounded to odd: the product is exact in
// f32, so the sum is the only rounding, and its error is exact too (TwoSum).
llvm::Value *PtxLowering::fmaRoundedToOdd(llvm::Value *a, llvm::Value *b, llvm::Value *c) {
  llvm::Value *product = builder_.CreateFMul(a, b);
  llvm::Value *sum = builder_.CreateFAdd(product, c);
  llvm::Value *cPart = builder_.CreateFSub(sum, product);
  llvm::Value *productPart = builder_.CreateFSub(sum, cPart);
  llvm::Value *error = builder_.CreateFAdd(builder_.CreateFSub(product, productPart),
                                           builder_.CreateFSub(c, cPart));
  return roundToOdd(sum, error);
}

// PTX min/max: +0.0 > -0.0; a NaN operand yields the other one (both NaN: NaN),
// or with .NaN, NaN.
llvm::Value *PtxLowering::minMax(llvm::StringRef op, llvm::Value *a, llvm::Value *b, bool nanWins) {
  bool isMax = op == "max";
  llvm::Value *aWins = isMax ? builder_.CreateFCmpOGT(a, b) : builder_.CreateFCmpOLT(a, b);
  llvm::Value *aNegative = signBitSet(a);
  llvm::Value *tieToA = builder_.CreateAnd(builder_.CreateFCmpOEQ(a, b),
                                           isMax ? builder_.CreateNot(aNegative) : aNegative);
  llvm::Value *result = builder_.CreateSelect(builder_.CreateOr(aWins, tieToA), a, b);
  llvm::Value *aNaN = builder_.CreateFCmpUNO(a, a), *bNaN = builder_.CreateFCmpUNO(b, b);
  if (nanWins)
    return builder_.CreateSelect(builder_.CreateOr(aNaN, bNaN), llvm::ConstantFP::getNaN(a->getType()), result);
  return builder_.CreateSelect(bNaN, a, builder_.CreateSelect(aNaN, b, result));
}

// .sat: clamped to [0.0, 1.0], NaN to 0.0.
llvm::Value *PtxLowering::saturate(llvm::Value *value) {
  llvm::Type *type = value->getType();
  llvm::Value *zero = llvm::ConstantFP::get(type, 0.0), *one = llvm::ConstantFP::get(type, 1.0);
  llvm::Value *belowOne = builder_.CreateSelect(builder_.CreateFCmpOLT(value, one), value, one);
  return builder_.CreateSelect(builder_.CreateFCmpOGT(value, zero), belowOne, zero);
}

// .relu: negative values and -0.0 become +0.0, NaN stays NaN (as NVIDIA's
// headers compute it before sm_80: max.NaN(x, +0.0)).
llvm::Value *PtxLowering::relu(llvm::Value *value) {
  llvm::Value *keep = builder_.CreateFCmpUGT(value, llvm::ConstantFP::get(value->getType(), 0.0));
  return builder_.CreateSelect(keep, value, llvm::ConstantFP::get(value->getType(), 0.0));
}

// .ftz on a source: a subnormal becomes a zero of its sign.
llvm::Value *PtxLowering::flushSubnormal(llvm::Value *value, float smallestNormal) {
  llvm::Type *type = value->getType();
  llvm::Value *magnitude = intrinsic(type->isFloatTy() ? "llvm.fabs.f32" : "llvm.fabs.f64", type, {value});
  llvm::Value *tiny = builder_.CreateFCmpOLT(magnitude, llvm::ConstantFP::get(type, double(smallestNormal)));
  return builder_.CreateSelect(tiny, builder_.CreateFMul(value, llvm::ConstantFP::get(type, 0.0)), value);
}

// .ftz on a 16-bit result: a subnormal keeps only its sign.
llvm::Value *PtxLowering::flushSubnormalBits(llvm::Value *bits, HalfFormat format) {
  llvm::Value *subnormal = builder_.CreateICmpEQ(builder_.CreateAnd(bits, format.exponentMask()), builder_.getInt16(0));
  return builder_.CreateSelect(subnormal, builder_.CreateAnd(bits, 0x8000), bits);
}

llvm::Value *PtxLowering::signBitSet(llvm::Value *value) {
  llvm::Type *bitsType = intType(value->getType()->getPrimitiveSizeInBits());
  return builder_.CreateICmpSLT(builder_.CreateBitCast(value, bitsType), llvm::ConstantInt::get(bitsType, 0));
}

// dp4a.atype.btype d, a, b, c: c plus the products of a's and b's four
// bytes, pairwise; dp2a.mode.atype.btype: c plus the products of a's two
// halves and two of b's bytes (.lo: bytes 0 and 1, .hi: 2 and 3). Each
// part extends by its own operand's type (.s32 signed, .u32 unsigned); the
// sum wraps at 32 bits.
void PtxLowering::lowerDotProduct(const Statement &s) {
  llvm::StringRef op = s.parts[0];
  if (s.parts.size() < 3 || s.operands.size() != 4)
    throw Unsupported{"PTX instruction '" + s.opcode + "' (operands)"};
  llvm::StringRef aType = s.parts[s.parts.size() - 2], bType = s.parts.back();
  llvm::Type *i32 = builder_.getInt32Ty();
  llvm::Value *a = read(s.operands.at(1), i32), *b = read(s.operands.at(2), i32);
  // The `index`th field of `bits` width in `word`, extended to 32 bits.
  auto field = [&](llvm::Value *word, unsigned bits, unsigned index, bool isSigned) {
    llvm::Value *shifted = builder_.CreateLShr(word, uint64_t(bits * index));
    return builder_.CreateIntCast(builder_.CreateTrunc(shifted, intType(bits)), i32, isSigned);
  };
  bool high = s.has("hi");
  llvm::Value *sum = read(s.operands.at(3), i32);
  for (unsigned i = 0; i < (op == "dp4a" ? 4u : 2u); ++i) {
    llvm::Value *left =
        op == "dp4a" ? field(a, 8, i, isSignedType(aType)) : field(a, 16, i, isSignedType(aType));
    llvm::Value *right = field(b, 8, (op == "dp2a" && high ? 2 : 0) + i, isSignedType(bType));
    sum = builder_.CreateAdd(sum, builder_.CreateMul(left, right));
  }
  write(s.operands.at(0), sum);
}

void PtxLowering::lowerBitField(const Statement &s) {
  llvm::StringRef op = s.parts[0];
  // prmt.b32.MODE: the type comes before the mode.
  llvm::StringRef typeName = op == "prmt" && s.parts.size() > 2 ? s.parts[1] : s.parts.back();
  unsigned bits = bitsOf(typeName);
  llvm::Type *type = intType(bits);
  llvm::Type *i32 = builder_.getInt32Ty();
  const std::string &dst = s.operands.at(0);
  auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(type, v); };
  std::string width = std::to_string(bits);

  if (op == "fns") { // fns.b32 d, mask, base, offset
    write(dst, intrinsic("llvm.nvvm.fns", i32,
                         {read(s.operands.at(1), i32), read(s.operands.at(2), i32),
                          read(s.operands.at(3), i32, true)}));
    return;
  }
  if (op == "brev") {
    write(dst, intrinsic("llvm.bitreverse.i" + width, type, {read(s.operands.at(1), type)}));
    return;
  }
  if (op == "popc" || op == "clz") {
    llvm::Value *a = read(s.operands.at(1), type);
    llvm::Value *count = op == "popc" ? intrinsic("llvm.ctpop.i" + width, type, {a})
                                      : intrinsic("llvm.ctlz.i" + width, type, {a, builder_.getFalse()});
    write(dst, builder_.CreateZExtOrTrunc(count, i32));
    return;
  }
  if (op == "bfind") { // position of the most significant non-sign bit, or all ones
    llvm::Value *a = read(s.operands.at(1), type);
    if (isSignedType(typeName))
      a = builder_.CreateSelect(builder_.CreateICmpSLT(a, constant(0)), builder_.CreateNot(a), a);
    llvm::Value *leading = builder_.CreateZExtOrTrunc(intrinsic("llvm.ctlz.i" + width, type, {a, builder_.getFalse()}), i32);
    llvm::Value *position = builder_.CreateSub(builder_.getInt32(bits - 1), leading);
    if (s.has("shiftamt"))
      position = builder_.CreateSub(builder_.getInt32(bits - 1), position);
    write(dst, builder_.CreateSelect(builder_.CreateICmpEQ(a, constant(0)), builder_.getInt32(~0u), position));
    return;
  }
  if (op == "bfe") {
    llvm::Value *a = read(s.operands.at(1), type);
    llvm::Value *pos = builder_.CreateAnd(read(s.operands.at(2), i32), 0xff);
    llvm::Value *len = builder_.CreateAnd(read(s.operands.at(3), i32), 0xff);
    llvm::Value *posT = builder_.CreateZExtOrTrunc(builder_.CreateSelect(builder_.CreateICmpUGE(pos, builder_.getInt32(bits)), builder_.getInt32(bits - 1), pos), type);
    bool isSigned = isSignedType(typeName);
    llvm::Value *shifted;
    if (isSigned)
      shifted = builder_.CreateSelect(builder_.CreateICmpUGE(pos, builder_.getInt32(bits)),
                                      builder_.CreateAShr(a, uint64_t(bits - 1)), builder_.CreateAShr(a, posT));
    else
      shifted = builder_.CreateSelect(builder_.CreateICmpUGE(pos, builder_.getInt32(bits)), constant(0),
                                      builder_.CreateLShr(a, posT));
    llvm::Value *lenClamped = builder_.CreateSelect(builder_.CreateICmpUGE(len, builder_.getInt32(bits)), builder_.getInt32(bits), len);
    llvm::Value *drop = builder_.CreateZExtOrTrunc(builder_.CreateSub(builder_.getInt32(bits), lenClamped), type);
    llvm::Value *dropSafe = builder_.CreateSelect(builder_.CreateICmpEQ(lenClamped, builder_.getInt32(0)), constant(0), drop);
    llvm::Value *up = builder_.CreateShl(shifted, dropSafe);
    llvm::Value *field = isSigned ? builder_.CreateAShr(up, dropSafe) : builder_.CreateLShr(up, dropSafe);
    write(dst, builder_.CreateSelect(builder_.CreateICmpEQ(len, builder_.getInt32(0)), constant(0), field));
    return;
  }
  if (op == "bfi") {
    llvm::Value *insert = read(s.operands.at(1), type), *base = read(s.operands.at(2), type);
    llvm::Value *pos = builder_.CreateAnd(read(s.operands.at(3), i32), 0xff);
    llvm::Value *len = builder_.CreateAnd(read(s.operands.at(4), i32), 0xff);
    llvm::Value *nothing = builder_.CreateOr(builder_.CreateICmpEQ(len, builder_.getInt32(0)),
                                             builder_.CreateICmpUGE(pos, builder_.getInt32(bits)));
    llvm::Value *posT = builder_.CreateZExtOrTrunc(builder_.CreateSelect(nothing, builder_.getInt32(0), pos), type);
    llvm::Value *lenT = builder_.CreateZExtOrTrunc(len, type);
    llvm::Value *full = builder_.CreateICmpUGE(len, builder_.getInt32(bits));
    llvm::Value *ones = builder_.CreateSelect(full, constant(~0ull),
                                              builder_.CreateSub(builder_.CreateShl(constant(1), builder_.CreateSelect(full, constant(0), lenT)), constant(1)));
    llvm::Value *mask = builder_.CreateShl(ones, posT);
    llvm::Value *merged = builder_.CreateOr(builder_.CreateAnd(base, builder_.CreateNot(mask)),
                                            builder_.CreateAnd(builder_.CreateShl(insert, posT), mask));
    write(dst, builder_.CreateSelect(nothing, base, merged));
    return;
  }
  if (op == "prmt") {
    llvm::Type *i64 = builder_.getInt64Ty();
    llvm::Value *a = read(s.operands.at(1), i32), *b = read(s.operands.at(2), i32);
    llvm::Value *selector = read(s.operands.at(3), i32);
    if (s.parts.size() > 2)
      selector = prmtModeSelector(s, selector);
    llvm::Value *bytes = builder_.CreateOr(builder_.CreateShl(builder_.CreateZExt(b, i64), 32), builder_.CreateZExt(a, i64));
    llvm::Value *result = builder_.getInt32(0);
    for (unsigned i = 0; i < 4; ++i) {
      llvm::Value *nibble = builder_.CreateAnd(builder_.CreateLShr(selector, 4 * i), 0xf);
      llvm::Value *index = builder_.CreateZExt(builder_.CreateAnd(nibble, 7), i64);
      llvm::Value *byte = builder_.CreateTrunc(builder_.CreateAnd(builder_.CreateLShr(bytes, builder_.CreateMul(index, builder_.getInt64(8))), 0xff), i32);
      llvm::Value *signBit = builder_.CreateICmpNE(builder_.CreateAnd(byte, 0x80), builder_.getInt32(0));
      llvm::Value *replicate = builder_.CreateSelect(signBit, builder_.getInt32(0xff), builder_.getInt32(0));
      llvm::Value *useSign = builder_.CreateICmpNE(builder_.CreateAnd(nibble, 8), builder_.getInt32(0));
      byte = builder_.CreateSelect(useSign, replicate, byte);
      result = builder_.CreateOr(result, builder_.CreateShl(byte, 8 * i));
    }
    write(dst, result);
    return;
  }
  if (op == "shf") { // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a
    llvm::Value *a = read(s.operands.at(1), i32), *b = read(s.operands.at(2), i32);
    llvm::Value *n = read(s.operands.at(3), i32);
    bool left = s.has("l");
    if (s.has("clamp")) {
      llvm::Value *big = builder_.CreateICmpUGE(n, builder_.getInt32(32));
      llvm::Value *shifted = intrinsic(left ? "llvm.fshl.i32" : "llvm.fshr.i32", i32, {b, a, n});
      write(dst, builder_.CreateSelect(big, left ? a : b, shifted));
      return;
    }
    write(dst, intrinsic(left ? "llvm.fshl.i32" : "llvm.fshr.i32", i32, {b, a, n}));
    return;
  }
  throw Unsupported{"PTX instruction '" + s.opcode + "'"};
}

// prmt.b32.{f4e,b4e,rc8,ecl,ecr,rc16}: the two low bits of c pick one of four
// fixed byte selections (PTX ISA, prmt). Each mode's four selections are
// written as default-mode selectors (nibble i = source byte of result byte i,
// never sign-replicating), packed 16 bits per value of c[1:0].
llvm::Value *PtxLowering::prmtModeSelector(const Statement &s, llvm::Value *c) {
  static const std::map<llvm::StringRef, uint64_t> selectorsByMode = {
      {"f4e", 0x6543'5432'4321'3210ull}, {"b4e", 0x0123'7012'6701'5670ull},
      {"rc8", 0x3333'2222'1111'0000ull}, {"ecl", 0x3333'3222'3211'3210ull},
      {"ecr", 0x3210'2210'1110'0000ull}, {"rc16", 0x3232'1010'3232'1010ull}};
  auto mode = selectorsByMode.find(s.parts[2]);
  if (s.parts.size() != 3 || mode == selectorsByMode.end())
    throw Unsupported{"PTX instruction '" + s.opcode + "' (unknown prmt mode)"};
  llvm::Type *i64 = builder_.getInt64Ty();
  llvm::Value *shift = builder_.CreateMul(builder_.CreateZExt(builder_.CreateAnd(c, 3), i64),
                                          builder_.getInt64(16));
  llvm::Value *packed = builder_.CreateLShr(builder_.getInt64(mode->second), shift);
  return builder_.CreateTrunc(builder_.CreateAnd(packed, 0xffff), builder_.getInt32Ty());
}

void PtxLowering::lowerLogic(const Statement &s) {
  llvm::StringRef op = s.parts[0];
  llvm::StringRef typeName = s.parts.back();
  llvm::Type *type = typeOf(typeName);
  if (type->isFloatingPointTy())
    type = intType(type->getPrimitiveSizeInBits());
  unsigned bits = type->getIntegerBitWidth();
  const std::string &dst = s.operands.at(0);
  auto arg = [&](unsigned i) { return read(s.operands.at(i), type); };
  if (op == "and")
    return write(dst, builder_.CreateAnd(arg(1), arg(2)));
  if (op == "or")
    return write(dst, builder_.CreateOr(arg(1), arg(2)));
  if (op == "xor")
    return write(dst, builder_.CreateXor(arg(1), arg(2)));
  if (op == "not")
    return write(dst, builder_.CreateNot(arg(1)));
  if (op == "cnot")
    return write(dst, builder_.CreateZExt(builder_.CreateICmpEQ(arg(1), llvm::ConstantInt::get(type, 0)), type));
  if (op == "shl" || op == "shr") {
    llvm::Value *a = arg(1);
    llvm::Value *amount = builder_.CreateZExtOrTrunc(read(s.operands.at(2), builder_.getInt32Ty()), type);
    llvm::Value *tooFar = builder_.CreateICmpUGE(amount, llvm::ConstantInt::get(type, bits));
    llvm::Value *safe = builder_.CreateSelect(tooFar, llvm::ConstantInt::get(type, bits - 1), amount);
    if (op == "shl")
      return write(dst, builder_.CreateSelect(tooFar, llvm::ConstantInt::get(type, 0), builder_.CreateShl(a, safe)));
    if (isSignedType(typeName))
      return write(dst, builder_.CreateAShr(a, safe)); // shifting by >= width fills with the sign
    return write(dst, builder_.CreateSelect(tooFar, llvm::ConstantInt::get(type, 0), builder_.CreateLShr(a, safe)));
  }
  if (op == "lop3") { // d = LUT(a, b, c), LUT given as 8-bit immediate over ta=F0, tb=CC, tc=AA
    llvm::Value *a = arg(1), *b = arg(2), *c = arg(3);
    bool isFloatBits = false;
    std::optional<uint64_t> lut = parseImmediate(s.operands.at(4), isFloatBits);
    if (!lut)
      throw Unsupported{"lop3 with a non-immediate lookup table"};
    llvm::Value *result = llvm::ConstantInt::get(type, 0);
    for (unsigned minterm = 0; minterm < 8; ++minterm) {
      if (!((*lut >> minterm) & 1))
        continue;
      llvm::Value *term = builder_.CreateAnd(builder_.CreateAnd(minterm & 4 ? a : builder_.CreateNot(a),
                                                                minterm & 2 ? b : builder_.CreateNot(b)),
                                             minterm & 1 ? c : builder_.CreateNot(c));
      result = builder_.CreateOr(result, term);
    }
    return write(dst, result);
  }
  throw Unsupported{"PTX instruction '" + s.opcode + "'"};
}

llvm::CmpInst::Predicate floatPredicate(const Statement &s) {
  static const std::map<llvm::StringRef, llvm::CmpInst::Predicate> predicates = {
      {"eq", llvm::CmpInst::FCMP_OEQ},  {"ne", llvm::CmpInst::FCMP_ONE},  {"lt", llvm::CmpInst::FCMP_OLT},
      {"le", llvm::CmpInst::FCMP_OLE},  {"gt", llvm::CmpInst::FCMP_OGT},  {"ge", llvm::CmpInst::FCMP_OGE},
      {"equ", llvm::CmpInst::FCMP_UEQ}, {"neu", llvm::CmpInst::FCMP_UNE}, {"ltu", llvm::CmpInst::FCMP_ULT},
      {"leu", llvm::CmpInst::FCMP_ULE}, {"gtu", llvm::CmpInst::FCMP_UGT}, {"geu", llvm::CmpInst::FCMP_UGE},
      {"num", llvm::CmpInst::FCMP_ORD}, {"nan", llvm::CmpInst::FCMP_UNO}};
  auto it = predicates.find(s.parts[1]);
  if (it == predicates.end())
    throw Unsupported{"PTX instruction '" + s.opcode + "'"};
  return it->second;
}

llvm::CmpInst::Predicate integerPredicate(const Statement &s, bool isSigned) {
  static const std::map<llvm::StringRef, std::pair<llvm::CmpInst::Predicate, llvm::CmpInst::Predicate>> predicates = {
      {"eq", {llvm::CmpInst::ICMP_EQ, llvm::CmpInst::ICMP_EQ}},
      {"ne", {llvm::CmpInst::ICMP_NE, llvm::CmpInst::ICMP_NE}},
      {"lt", {llvm::CmpInst::ICMP_SLT, llvm::CmpInst::ICMP_ULT}},
      {"le", {llvm::CmpInst::ICMP_SLE, llvm::CmpInst::ICMP_ULE}},
      {"gt", {llvm::CmpInst::ICMP_SGT, llvm::CmpInst::ICMP_UGT}},
      {"ge", {llvm::CmpInst::ICMP_SGE, llvm::CmpInst::ICMP_UGE}},
      {"lo", {llvm::CmpInst::ICMP_ULT, llvm::CmpInst::ICMP_ULT}},
      {"ls", {llvm::CmpInst::ICMP_ULE, llvm::CmpInst::ICMP_ULE}},
      {"hi", {llvm::CmpInst::ICMP_UGT, llvm::CmpInst::ICMP_UGT}},
      {"hs", {llvm::CmpInst::ICMP_UGE, llvm::CmpInst::ICMP_UGE}}};
  auto it = predicates.find(s.parts[1]);
  if (it == predicates.end())
    throw Unsupported{"PTX instruction '" + s.opcode + "'"};
  return isSigned ? it->second.first : it->second.second;
}

// setp.CmpOp[.BoolOp][.ftz].type p[|q], a, b[, {!}c] and
// set.CmpOp[.BoolOp][.ftz].dtype.stype d, a, b[, {!}c]; selp.
void PtxLowering::lowerCompare(const Statement &s) {
  llvm::StringRef op = s.parts[0];
  if (op == "selp") { // selp.type d, a, b, c: d = c ? a : b
    llvm::Type *type = typeOf(s.parts.back());
    write(s.operands.at(0), builder_.CreateSelect(read(s.operands.at(3), builder_.getInt1Ty()),
                                                  read(s.operands.at(1), type),
                                                  read(s.operands.at(2), type)));
    return;
  }
  if (op != "setp" && op != "set")
    throw Unsupported{"PTX instruction '" + s.opcode + "'"};
  llvm::StringRef combine = s.parts.size() > 3 && (s.parts[2] == "and" || s.parts[2] == "or" || s.parts[2] == "xor") ? s.parts[2] : "";
  llvm::Value *c = combine.empty() ? nullptr : read(s.operands.at(3), builder_.getInt1Ty());
  auto apply = [&](llvm::Value *v) {
    if (!c)
      return v;
    return combine == "and" ? builder_.CreateAnd(v, c) : combine == "or" ? builder_.CreateOr(v, c) : builder_.CreateXor(v, c);
  };
  std::vector<llvm::Value *> outcomes = compareElements(s, s.parts.back());
  if (op == "set") {
    for (llvm::Value *&outcome : outcomes)
      outcome = apply(outcome);
    write(s.operands.at(0), setResult(s.parts[s.parts.size() - 2], outcomes));
    return;
  }
  llvm::StringRef destination(s.operands.at(0));
  auto [p, q] = destination.split('|');
  if (outcomes.size() == 2) { // packed halves: p from element 0, q from element 1
    write(p.trim().str(), apply(outcomes[0]));
    if (!q.empty())
      write(q.trim().str(), apply(outcomes[1]));
    return;
  }
  write(p.trim().str(), apply(outcomes[0]));
  if (!q.empty())
    write(q.trim().str(), apply(builder_.CreateNot(outcomes[0])));
}

// a CmpOp b for each element of the operands (two for packed halves).
std::vector<llvm::Value *> PtxLowering::compareElements(const Statement &s, llvm::StringRef typeName) {
  const std::string &first = s.operands.at(1), &second = s.operands.at(2);
  if (std::optional<HalfFormat> half = halfFormatOf(typeName)) {
    std::vector<llvm::Value *> a = halfElementsAsFloats(first, *half, s.has("ftz"));
    std::vector<llvm::Value *> b = halfElementsAsFloats(second, *half, s.has("ftz"));
    std::vector<llvm::Value *> outcomes;
    for (unsigned i = 0; i < half->elements; ++i)
      outcomes.push_back(builder_.CreateFCmp(floatPredicate(s), a[i], b[i]));
    return outcomes;
  }
  llvm::Type *type = typeOf(typeName);
  bool isSigned = isSignedType(typeName);
  llvm::Value *a = read(first, type, isSigned), *b = read(second, type, isSigned);
  if (type->isFloatingPointTy())
    return {builder_.CreateFCmp(floatPredicate(s), a, b)};
  return {builder_.CreateICmp(integerPredicate(s, isSigned), a, b)};
}

// set's destination: per element 1.0 for a float type, all ones for an
// integer type, when the comparison holds; else 0.
llvm::Value *PtxLowering::setResult(llvm::StringRef typeName, llvm::ArrayRef<llvm::Value *> outcomes) {
  unsigned elementBits = 0;
  uint64_t trueBits = 0;
  if (std::optional<HalfFormat> half = halfFormatOf(typeName)) {
    elementBits = half->elements == outcomes.size() ? 16 : 0;
    trueBits = half->one();
  } else if (typeName == "f32") {
    elementBits = outcomes.size() == 1 ? 32 : 0;
    trueBits = 0x3f800000;
  } else {
    elementBits = bitsOf(typeName) / unsigned(outcomes.size());
    trueBits = elementBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << elementBits) - 1;
  }
  if (elementBits != 16 && elementBits != 32)
    throw Unsupported{"set with destination type ." + typeName.str() + " for " +
                      std::to_string(outcomes.size()) + " element(s)"};
  llvm::Type *element = intType(elementBits);
  std::vector<llvm::Value *> values;
  for (llvm::Value *outcome : outcomes)
    values.push_back(builder_.CreateSelect(outcome, llvm::ConstantInt::get(element, trueBits),
                                           llvm::ConstantInt::get(element, 0)));
  return packElements(values);
}

// A float rounded to tf32 (10 mantissa bits, in a b32): .rna to nearest
// with ties away from zero (the magnitude rounds up), .rz toward zero, .rn
// to nearest with ties to even; a NaN stays as it is.
llvm::Value *PtxLowering::toTf32(const Statement &s, llvm::Value *value) {
  llvm::Value *bits = builder_.CreateBitCast(value, builder_.getInt32Ty());
  llvm::Value *half = builder_.getInt32(s.has("rz") ? 0 : 0x1000);
  if (s.has("rn"))
    half = builder_.CreateAdd(builder_.getInt32(0xfff),
                              builder_.CreateAnd(builder_.CreateLShr(bits, 13), 1));
  llvm::Value *rounded = builder_.CreateAnd(builder_.CreateAdd(bits, half), 0xffffe000u);
  return builder_.CreateSelect(builder_.CreateFCmpUNO(value, value), bits, rounded);
}

void PtxLowering::lowerConvert(const Statement &s) {
  const std::string &dst = s.operands.at(0), &src = s.operands.at(1);
  // cvta: generic <-> global is the identity, generic <-> shared converts
  // between pointers and window addresses; local and const are not modelled.
  if (s.parts[0] == "cvta") {
    if (s.has("local") || s.has("const"))
      throw Unsupported{"PTX instruction '" + s.opcode + "' (local and constant address windows)"};
    if (!isSharedSpace(s)) {
      write(dst, readRaw(src));
      return;
    }
    llvm::Type *type = typeOf(s.parts.back());
    if (s.has("to")) { // generic -> window
      llvm::Value *bits = readRaw(src);
      bits = bits->getType()->isPointerTy()
                 ? builder_.CreatePtrToInt(bits, builder_.getInt64Ty())
                 : builder_.CreateZExtOrTrunc(bits, builder_.getInt64Ty());
      write(dst, builder_.CreateZExtOrTrunc(sharedWindowOf(builder_, bits), type));
    } else { // window -> generic
      write(dst, builder_.CreatePtrToInt(pointerOfSharedWindow(builder_, readRaw(src)), type));
    }
    return;
  }
  llvm::StringRef toName = s.parts[s.parts.size() - 2], fromName = s.parts.back();
  if (toName == "tf32" && fromName == "f32")
    return write(dst, toTf32(s, read(src, builder_.getFloatTy())));
  std::optional<HalfFormat> toHalf = halfFormatOf(toName), fromHalf = halfFormatOf(fromName);
  if (fromHalf && fromHalf->elements != 1)
    throw Unsupported{"PTX instruction '" + s.opcode + "' (a packed source)"};
  if (toHalf && toHalf->elements != 1)
    return lowerConvertToPackedHalves(s, *toHalf);
  // A 16-bit float source is read as the f32 it converts to exactly.
  llvm::Type *from = fromHalf ? builder_.getFloatTy() : typeOf(fromName);
  llvm::Value *value = fromHalf ? halfElementsAsFloats(src, *fromHalf, s.has("ftz"))[0]
                                : read(src, from, isSignedType(fromName));
  if (toHalf) {
    write(dst, convertToHalf(s, value, isSignedType(fromName), *toHalf));
    return;
  }
  llvm::Type *to = typeOf(toName);
  llvm::StringRef rounding = roundingOf(s);
  std::string fromSuffix = from->isFloatTy() ? "f32" : "f64";
  llvm::Value *result = nullptr;
  if (from->isFloatingPointTy() && to->isFloatingPointTy()) {
    if (rounding.ends_with("i")) {
      const char *fn = rounding == "rni" ? "llvm.rint." : rounding == "rzi" ? "llvm.trunc." : rounding == "rmi" ? "llvm.floor." : "llvm.ceil.";
      value = intrinsic(fn + fromSuffix, from, {value});
    }
    result = builder_.CreateFPCast(value, to);
  } else if (from->isFloatingPointTy()) {
    const char *fn = rounding == "rni" ? "llvm.rint." : rounding == "rmi" ? "llvm.floor." : rounding == "rpi" ? "llvm.ceil." : "llvm.trunc.";
    value = intrinsic(fn + fromSuffix, from, {value});
    result = isSignedType(toName) ? builder_.CreateFPToSI(value, to) : builder_.CreateFPToUI(value, to);
  } else if (to->isFloatingPointTy()) {
    unsigned fromBits = from->getIntegerBitWidth();
    if ((rounding == "rz" || rounding == "rm" || rounding == "rp") && (fromBits == 32 || fromBits == 64)) {
      // Directed rounding: NVVM's conversion (i2f.rz, ull2d.rp ...), which the interpreter runs.
      std::string name = std::string("llvm.nvvm.") + (isSignedType(fromName) ? "" : "u") +
                         (fromBits == 64 ? "ll2" : "i2") + (to->isFloatTy() ? "f." : "d.") + rounding.str();
      result = intrinsic(name, to, {value});
    } else {
      result = isSignedType(fromName) ? builder_.CreateSIToFP(value, to) : builder_.CreateUIToFP(value, to);
    }
  } else {
    result = builder_.CreateIntCast(value, to, isSignedType(fromName));
  }
  write(dst, result);
}

void PtxLowering::lowerMemory(const Statement &s) {
  llvm::StringRef op = s.parts[0];
  if (op == "prefetch" || op == "prefetchu")
    return;
  if (s.has("local") || s.has("param") || s.has("const"))
    throw Unsupported{"PTX instruction '" + s.opcode + "' (only generic, .global and .shared addresses)"};
  llvm::Type *type = typeOf(s.parts.back());
  unsigned bytes = unsigned(type->getPrimitiveSizeInBits() / 8);
  bool isVolatile = s.has("volatile");
  bool acquire = s.has("acquire"), release = s.has("release"), relaxed = s.has("relaxed");
  bool isStore = op == "st";
  if (isStore)
    fenceIfReleasing(s);
  const std::string &addressText = isStore ? s.operands.at(0) : s.operands.at(1);
  std::vector<std::string> values = vectorElements(isStore ? s.operands.at(1) : s.operands.at(0));
  for (size_t i = 0; i < values.size(); ++i) {
    llvm::Value *pointer = address(addressText, unsigned(i * bytes), isSharedSpace(s));
    if (isStore) {
      llvm::StoreInst *store = builder_.CreateStore(read(values[i], type), pointer, isVolatile);
      store->setAlignment(llvm::Align(bytes));
      if (release || relaxed)
        store->setAtomic(release ? llvm::AtomicOrdering::Release : llvm::AtomicOrdering::Monotonic);
    } else {
      llvm::LoadInst *load = builder_.CreateLoad(type, pointer, isVolatile);
      load->setAlignment(llvm::Align(bytes));
      if (acquire || relaxed)
        load->setAtomic(acquire ? llvm::AtomicOrdering::Acquire : llvm::AtomicOrdering::Monotonic);
      write(values[i], load);
    }
  }
}

void PtxLowering::lowerAtomic(const Statement &s) {
  bool isReduction = s.parts[0] == "red";
  llvm::StringRef typeName = s.parts.back();
  if (std::optional<HalfFormat> half = halfFormatOf(typeName); half && half->elements == 2)
    return lowerPackedHalfAtomic(s, *half);
  llvm::Type *type = typeOf(typeName);
  bool isSigned = isSignedType(typeName);
  unsigned first = isReduction ? 0 : 1;
  llvm::Value *pointer = address(s.operands.at(first), 0, isSharedSpace(s));
  llvm::Value *operand = read(s.operands.at(first + 1), type, isSigned);
  llvm::StringRef operation;
  for (llvm::StringRef part : llvm::ArrayRef(s.parts).drop_front())
    if (part == "add" || part == "inc" || part == "dec" || part == "and" || part == "or" || part == "xor" ||
        part == "exch" || part == "cas" || part == "min" || part == "max")
      operation = part;
  llvm::Value *old = nullptr;
  fenceIfReleasing(s);
  // .cta: atomic for the block only.
  llvm::SyncScope::ID scope = s.has("cta") ? builder_.getContext().getOrInsertSyncScopeID("block")
                                           : llvm::SyncScope::ID(llvm::SyncScope::System);
  if (operation == "cas") {
    llvm::Value *desired = read(s.operands.at(first + 2), type, isSigned);
    llvm::Type *intT = intType(type->getPrimitiveSizeInBits());
    auto *exchange = builder_.CreateAtomicCmpXchg(pointer, convert(operand, intT), convert(desired, intT), llvm::MaybeAlign(),
                                                  llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic, scope);
    old = builder_.CreateExtractValue(exchange, 0);
  } else {
    bool isFloat = type->isFloatingPointTy();
    std::optional<llvm::AtomicRMWInst::BinOp> binOp;
    if (operation == "add")
      binOp = isFloat ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add;
    else if (operation == "min")
      binOp = isFloat ? llvm::AtomicRMWInst::FMin : isSigned ? llvm::AtomicRMWInst::Min : llvm::AtomicRMWInst::UMin;
    else if (operation == "max")
      binOp = isFloat ? llvm::AtomicRMWInst::FMax : isSigned ? llvm::AtomicRMWInst::Max : llvm::AtomicRMWInst::UMax;
    else if (operation == "and")
      binOp = llvm::AtomicRMWInst::And;
    else if (operation == "or")
      binOp = llvm::AtomicRMWInst::Or;
    else if (operation == "xor")
      binOp = llvm::AtomicRMWInst::Xor;
    else if (operation == "exch")
      binOp = llvm::AtomicRMWInst::Xchg;
    else if (operation == "inc")
      binOp = llvm::AtomicRMWInst::UIncWrap;
    else if (operation == "dec")
      binOp = llvm::AtomicRMWInst::UDecWrap;
    if (!binOp)
      throw Unsupported{"PTX instruction '" + s.opcode + "'"};
    if (!isFloat && operation != "add")
      operand = convert(operand, intType(type->getPrimitiveSizeInBits()));
    old = builder_.CreateAtomicRMW(*binOp, pointer, operand, llvm::MaybeAlign(), llvm::AtomicOrdering::Monotonic,
                                   scope);
  }
  if (!isReduction)
    write(s.operands.at(0), old);
}

// shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, mask; vote.sync.*; match.sync.any.
void PtxLowering::lowerWarp(const Statement &s) {
  llvm::Type *i32 = builder_.getInt32Ty();
  llvm::Type *i1 = builder_.getInt1Ty();
  bool sync = s.has("sync");
  if (s.parts[0] == "shfl") {
    llvm::StringRef mode = s.parts[sync ? 2 : 1];
    if (mode != "up" && mode != "down" && mode != "bfly" && mode != "idx")
      throw Unsupported{"PTX instruction '" + s.opcode + "'"};
    llvm::StringRef destination(s.operands.at(0));
    auto [valueReg, predicateReg] = destination.split('|');
    llvm::Value *a = read(s.operands.at(1), i32), *b = read(s.operands.at(2), i32), *c = read(s.operands.at(3), i32);
    llvm::Value *value = sync ? intrinsic(("llvm.nvvm.shfl.sync." + mode + ".i32").str(), i32, {read(s.operands.at(4), i32), a, b, c})
                              : intrinsic(("llvm.nvvm.shfl." + mode + ".i32").str(), i32, {a, b, c});
    write(valueReg.trim().str(), value);
    if (predicateReg.empty())
      return;
    // The PTX ISA's source-lane rule: whether lane j is inside the segment.
    llvm::Value *lane = specialRegister("laneid");
    llvm::Value *segmentMask = builder_.CreateAnd(builder_.CreateLShr(c, 8), 0x1f);
    llvm::Value *maxLane = builder_.CreateOr(builder_.CreateAnd(lane, segmentMask),
                                             builder_.CreateAnd(builder_.CreateAnd(c, 0x1f), builder_.CreateNot(segmentMask)));
    llvm::Value *minLane = builder_.CreateAnd(lane, segmentMask);
    llvm::Value *inRange = nullptr;
    if (mode == "up")
      inRange = builder_.CreateICmpSGE(builder_.CreateSub(lane, b), minLane);
    else if (mode == "down")
      inRange = builder_.CreateICmpULE(builder_.CreateAdd(lane, b), maxLane);
    else if (mode == "bfly")
      inRange = builder_.CreateICmpULE(builder_.CreateXor(lane, b), maxLane);
    else
      inRange = builder_.CreateICmpULE(builder_.CreateOr(minLane, builder_.CreateAnd(b, builder_.CreateOr(builder_.CreateNot(segmentMask), builder_.getInt32(0)))), maxLane);
    write(predicateReg.trim().str(), inRange);
    return;
  }
  if (s.parts[0] == "vote") {
    // vote.sync.MODE and the older spelling vote.MODE.sync alike.
    llvm::StringRef mode;
    for (llvm::StringRef part : llvm::ArrayRef(s.parts).drop_front())
      if (part == "all" || part == "any" || part == "uni" || part == "ballot")
        mode = part;
    if (mode.empty())
      throw Unsupported{"PTX instruction '" + s.opcode + "'"};
    llvm::Value *predicate = read(s.operands.at(1), i1);
    llvm::Value *mask = sync ? read(s.operands.at(2), i32) : nullptr;
    std::string name = "llvm.nvvm.vote." + mode.str() + (sync ? ".sync" : "");
    llvm::Type *result = mode == "ballot" ? i32 : i1;
    llvm::Value *value = sync ? intrinsic(name, result, {mask, predicate}) : intrinsic(name, result, {predicate});
    write(s.operands.at(0), value);
    return;
  }
  // match.any.sync.b32 / .b64 d, a, mask
  if (!s.has("any"))
    throw Unsupported{"PTX instruction '" + s.opcode + "' (only match.any)"};
  llvm::Type *type = typeOf(s.parts.back());
  std::string name = type->isIntegerTy(64) ? "llvm.nvvm.match.any.sync.i64" : "llvm.nvvm.match.any.sync.i32";
  write(s.operands.at(0), intrinsic(name, i32, {read(s.operands.at(2), i32), read(s.operands.at(1), type)}));
}

// A fence of the statement's scope: .cta orders the block, the rest
// (.gpu, .sys, none) the device.
void PtxLowering::fenceOfScope(const Statement &s) {
  intrinsic(s.has("cta") ? "llvm.nvvm.membar.cta" : "llvm.nvvm.membar.gl", builder_.getVoidTy(), {});
}

// A release (.release, .acq_rel, .sc) is a fence of its scope before the
// operation, which then needs no ordering of its own.
void PtxLowering::fenceIfReleasing(const Statement &s) {
  if (s.has("release") || s.has("acq_rel") || s.has("sc"))
    fenceOfScope(s);
}

// mbarrier (sm_80's block barrier objects, libcu++'s cuda::barrier and
// cuda_awbarrier): PTX leaves the 64-bit object's layout opaque; simulee's
// is
//
//   63    | 62 ........... 32 | 31 ............ 0
//   phase | expected arrivals | pending arrivals
//
// An arrival releases (a block fence, then an atomic subtract); the last
// one of a phase refills the pending count and flips the phase bit; a wait
// acquires (an atomic load) and succeeds once the phase differs from the
// one its token (the object before the arrival) or parity names. These are
// the release and acquire the race rules already order by.
void PtxLowering::lowerMbarrier(const Statement &s) {
  llvm::StringRef op = s.parts.size() > 1 ? s.parts[1] : "";
  llvm::Type *i64 = builder_.getInt64Ty(), *i32 = builder_.getInt32Ty();
  if (op == "pending_count") {
    llvm::Value *state = read(s.operands.at(1), i64);
    write(s.operands.at(0), builder_.CreateTrunc(state, i32));
    return;
  }
  if (s.has("expect_tx") || s.has("shared::cluster") || s.has("complete_tx"))
    throw Unsupported{"PTX instruction '" + s.opcode + "' (sm_90 transaction counts)"};
  if (op == "init") {
    llvm::Value *count = builder_.CreateZExt(read(s.operands.at(1), i32), i64);
    builder_.CreateAlignedStore(builder_.CreateOr(count, builder_.CreateShl(count, 32)),
                                address(s.operands.at(0), 0, true), llvm::Align(8));
    return;
  }
  if (op == "inval")
    return;
  if (op == "arrive" || op == "arrive_drop") {
    llvm::Value *count = s.operands.size() > 2
                             ? builder_.CreateZExt(read(s.operands.at(2), i32), i64)
                             : builder_.getInt64(1);
    write(s.operands.at(0), mbarrierArrive(address(s.operands.at(1), 0, true), count,
                                           op == "arrive_drop", !s.has("noComplete")));
    return;
  }
  if (op == "test_wait" || op == "try_wait") {
    llvm::LoadInst *now =
        builder_.CreateAlignedLoad(i64, address(s.operands.at(1), 0, true), llvm::Align(8));
    now->setAtomic(llvm::AtomicOrdering::Acquire, context().getOrInsertSyncScopeID("block"));
    llvm::Value *phase = builder_.CreateLShr(now, 63);
    llvm::Value *waited =
        s.has("parity")
            ? builder_.CreateAnd(builder_.CreateZExt(read(s.operands.at(2), i32), i64), 1)
            : builder_.CreateLShr(read(s.operands.at(2), i64), 63);
    write(s.operands.at(0), builder_.CreateICmpNE(phase, waited));
    return;
  }
  throw Unsupported{"PTX instruction '" + s.opcode + "'"};
}

// An arrival of `count` threads on the mbarrier at `word` (dropping one
// expected arrival of later phases), completing the phase when it is the
// last (unless `complete` is false); the object as it was before.
llvm::Value *PtxLowering::mbarrierArrive(llvm::Value *word, llvm::Value *count, bool drop,
                                         bool complete) {
  llvm::Type *i32 = builder_.getInt32Ty();
  llvm::SyncScope::ID block = context().getOrInsertSyncScopeID("block");
  intrinsic("llvm.nvvm.membar.cta", builder_.getVoidTy(), {}); // the arrival releases
  uint64_t dropped = drop ? uint64_t(1) << 32 : 0;
  llvm::Value *old = builder_.CreateAtomicRMW(
      llvm::AtomicRMWInst::Sub, word, builder_.CreateAdd(count, builder_.getInt64(dropped)),
      llvm::Align(8), llvm::AtomicOrdering::Monotonic, block);
  if (!complete)
    return old;
  llvm::Value *last =
      builder_.CreateICmpEQ(builder_.CreateTrunc(old, i32), builder_.CreateTrunc(count, i32));
  llvm::Value *expected = builder_.CreateAnd(builder_.CreateLShr(old, 32), 0x7fffffff);
  if (drop)
    expected = builder_.CreateSub(expected, builder_.getInt64(1));
  llvm::Instruction *next = &*builder_.GetInsertPoint();
  llvm::Instruction *refill = llvm::SplitBlockAndInsertIfThen(last, next, false);
  builder_.SetInsertPoint(refill);
  builder_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, word,
                           builder_.CreateAdd(expected, builder_.getInt64(uint64_t(1) << 63)),
                           llvm::Align(8), llvm::AtomicOrdering::Monotonic, block);
  builder_.SetInsertPoint(next);
  return old;
}

// cp.async (sm_80's asynchronous copy into shared memory): the copy is made
// when the statement runs, by its thread, so its reads and writes are that
// thread's at that line; committing and waiting for groups then have nothing
// left to do. (A read of the destination between the copy and its wait by
// the copying thread itself is thus not reported.) An mbarrier arrival on
// completion is an arrival now; without .noinc it first adds the arrival it
// makes, which leaves the count as it was.
void PtxLowering::lowerAsyncCopy(const Statement &s) {
  llvm::StringRef what = s.parts.size() > 2 ? s.parts[2] : "";
  if (what == "commit_group" || what == "wait_group" || what == "wait_all")
    return;
  if (what == "mbarrier") {
    if (s.has("noinc"))
      mbarrierArrive(address(s.operands.at(0), 0, true), builder_.getInt64(1), false, true);
    return;
  }
  if ((what != "ca" && what != "cg") || s.operands.size() < 3 || s.operands.size() > 4)
    throw Unsupported{"PTX instruction '" + s.opcode + "'"};
  llvm::Value *to = address(s.operands.at(0), 0, true), *from = address(s.operands.at(1));
  llvm::Type *i64 = builder_.getInt64Ty();
  llvm::Value *size = read(s.operands.at(2), i64);
  llvm::Value *copied = s.operands.size() > 3 ? read(s.operands.at(3), i64) : size;
  copied = builder_.CreateSelect(builder_.CreateICmpULT(copied, size), copied, size);
  builder_.CreateMemCpy(to, llvm::MaybeAlign(), from, llvm::MaybeAlign(), copied);
  builder_.CreateMemSet(builder_.CreateGEP(builder_.getInt8Ty(), to, copied), builder_.getInt8(0),
                        builder_.CreateSub(size, copied), llvm::MaybeAlign());
}

void PtxLowering::lowerSync(const Statement &s) {
  llvm::StringRef op = s.parts[0];
  llvm::Type *voidTy = builder_.getVoidTy();
  if (op == "membar" || op == "fence") {
    fenceOfScope(s);
    return;
  }
  if (op == "trap") {
    intrinsic("llvm.trap", voidTy, {});
    return;
  }
  if (op == "exit") {
    intrinsic("llvm.nvvm.exit", voidTy, {});
    return;
  }
  if (op == "nanosleep" || op == "pmevent")
    return;
  // bar.warp.sync mask
  if (op == "bar" && s.has("warp")) {
    intrinsic("llvm.nvvm.bar.warp.sync", voidTy, {read(s.operands.at(0), builder_.getInt32Ty())});
    return;
  }
  // bar.sync / bar.arrive / barrier.sync / barrier.arrive [id[, count]].
  bool arrive = s.has("arrive");
  bool isSync = s.has("sync") || (op == "barrier" && !arrive) || s.opcode == "bar";
  if (s.has("red"))
    return lowerBarrierReduction(s);
  llvm::Value *id = s.operands.empty() ? builder_.getInt32(0) : read(s.operands.at(0), builder_.getInt32Ty());
  llvm::Value *count = s.operands.size() > 1 ? read(s.operands.at(1), builder_.getInt32Ty()) : nullptr;
  if (!arrive && !isSync)
    throw Unsupported{"PTX instruction '" + s.opcode + "'"};
  if (arrive) {
    if (!count)
      throw Unsupported{"PTX instruction '" + s.opcode + "' without a thread count"};
    intrinsic("llvm.nvvm.barrier.arrive", voidTy, {id, count});
    return;
  }
  if (count) {
    intrinsic("llvm.nvvm.barrier.sync.cnt", voidTy, {id, count});
    return;
  }
  auto *constantId = llvm::dyn_cast<llvm::ConstantInt>(id);
  if (constantId && constantId->isZero()) {
    intrinsic("llvm.nvvm.barrier0", voidTy, {});
    return;
  }
  intrinsic("llvm.nvvm.barrier.sync", voidTy, {id});
}

// bar.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}c on barrier 0 for the
// whole block: __syncthreads_count/and/or.
void PtxLowering::lowerBarrierReduction(const Statement &s) {
  if (s.operands.size() != 3)
    throw Unsupported{"PTX instruction '" + s.opcode +
                      "' with a thread count (only bar.red on barrier 0 for the whole block)"};
  auto *id = llvm::dyn_cast<llvm::ConstantInt>(read(s.operands.at(1), builder_.getInt32Ty()));
  if (!id || !id->isZero())
    throw Unsupported{"PTX instruction '" + s.opcode +
                      "' on a named barrier (only bar.red on barrier 0 for the whole block)"};
  llvm::Type *i32 = builder_.getInt32Ty();
  llvm::Value *flag = builder_.CreateZExt(read(s.operands.at(2), builder_.getInt1Ty()), i32);
  if (s.has("popc")) {
    write(s.operands.at(0), intrinsic("llvm.nvvm.barrier0.popc", i32, {flag}));
    return;
  }
  if (!s.has("and") && !s.has("or"))
    throw Unsupported{"PTX instruction '" + s.opcode + "'"};
  llvm::Value *result = intrinsic(s.has("and") ? "llvm.nvvm.barrier0.and" : "llvm.nvvm.barrier0.or",
                                  i32, {flag});
  write(s.operands.at(0), builder_.CreateICmpNE(result, builder_.getInt32(0)));
}

// tex / suld / sust: a call of simulee's texture functions (ir/TexturePtx.h).
// The address operand is [handle, {coordinates}].
void PtxLowering::lowerTexture(const Statement &s) {
  TextureInstruction decoded = decodeTextureInstruction(s.parts);
  if (!decoded.error.empty())
    throw Unsupported{decoded.error};
  bool store = decoded.kind == TextureInstruction::Kind::SurfaceStore;
  const std::string &addressOperand = s.operands.at(store ? 0 : 1);
  llvm::StringRef inside = llvm::StringRef(addressOperand).trim();
  if (!inside.consume_front("[") || !inside.consume_back("]"))
    throw Unsupported{"PTX instruction '" + s.opcode + "' with address '" + addressOperand + "'"};
  std::vector<std::string> address = splitTopLevel(inside, ',');
  if (address.size() != 2)
    throw Unsupported{"PTX instruction '" + s.opcode +
                      "' with a separate sampler (only unified texture mode)"};
  llvm::Type *i32 = builder_.getInt32Ty();
  std::vector<llvm::Value *> args = {read(address[0], builder_.getInt64Ty()),
                                     builder_.getInt32(decoded.flags)};
  std::vector<std::string> coords = vectorElements(address[1]);
  // A layered access's vector starts with its layer, an integer, which
  // becomes the z coordinate.
  std::optional<std::string> layer;
  if (decoded.layered && !coords.empty()) {
    layer = coords.front();
    coords.erase(coords.begin());
  }
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (axis == 2 && layer) {
      args.push_back(read(*layer, i32));
      continue;
    }
    if (axis >= decoded.spatialDims || axis >= coords.size()) {
      args.push_back(builder_.getInt32(0));
      continue;
    }
    llvm::Value *coord = decoded.floatCoords ? builder_.CreateBitCast(
                                                   read(coords[axis], builder_.getFloatTy()), i32)
                                             : read(coords[axis], i32);
    args.push_back(coord);
  }
  if (decoded.kind == TextureInstruction::Kind::Fetch) {
    llvm::Type *channels = llvm::StructType::get(context(), {i32, i32, i32, i32});
    llvm::Value *result = intrinsic(kTextureFetchFunction, channels, args);
    std::vector<std::string> outputs = vectorElements(s.operands.at(0));
    for (unsigned c = 0; c < outputs.size() && c < 4; ++c) {
      llvm::Value *channel = builder_.CreateExtractValue(result, c);
      write(outputs[c], decoded.floatResult ? builder_.CreateBitCast(channel, builder_.getFloatTy())
                                            : channel);
    }
    return;
  }
  llvm::Type *element = intType(decoded.elementBits);
  std::string suffix = ".b" + std::to_string(decoded.elementBits) + "x" +
                       std::to_string(decoded.vectorCount);
  std::vector<std::string> values = vectorElements(s.operands.at(store ? 1 : 0));
  if (values.size() != decoded.vectorCount)
    throw Unsupported{"PTX instruction '" + s.opcode + "' with " + std::to_string(values.size()) +
                      " values for " + std::to_string(decoded.vectorCount) + " elements"};
  if (store) {
    for (const std::string &value : values)
      args.push_back(read(value, element));
    intrinsic(std::string(kSurfaceStoreFunction) + suffix, builder_.getVoidTy(), args);
    return;
  }
  llvm::Type *resultType =
      decoded.vectorCount == 1
          ? element
          : llvm::StructType::get(context(), std::vector<llvm::Type *>(decoded.vectorCount, element));
  llvm::Value *result = intrinsic(std::string(kSurfaceLoadFunction) + suffix, resultType, args);
  for (unsigned i = 0; i < decoded.vectorCount; ++i)
    write(values[i], decoded.vectorCount == 1 ? result : builder_.CreateExtractValue(result, i));
}

void PtxLowering::run() {
  llvm::InlineAsm *asmValue = llvm::cast<llvm::InlineAsm>(call_.getCalledOperand());
  bindOperands();
  std::string parseError;
  std::vector<Statement> statements = parseStatements(asmValue->getAsmString(), parseError);
  if (!parseError.empty())
    throw Unsupported{parseError};
  for (const Statement &statement : statements) {
    if (!statement.opcode.empty() && statement.opcode.front() == '.')
      continue; // .reg declarations
    lowerStatement(statement);
  }
  std::vector<llvm::Value *> outputs;
  for (unsigned i = 0; i < outputTypes_.size(); ++i) {
    std::string name = "$" + std::to_string(i);
    auto it = registers_.find(name);
    llvm::Value *value = it != registers_.end() ? convert(it->second, outputTypes_[i])
                                                : llvm::UndefValue::get(outputTypes_[i]);
    outputs.push_back(value);
  }
  llvm::Type *result = call_.getType();
  if (llvm::isa<llvm::StructType>(result)) {
    llvm::Value *aggregate = llvm::UndefValue::get(result);
    for (unsigned i = 0; i < outputs.size(); ++i)
      aggregate = builder_.CreateInsertValue(aggregate, outputs[i], i);
    call_.replaceAllUsesWith(aggregate);
  } else if (!result->isVoidTy()) {
    call_.replaceAllUsesWith(outputs.at(0));
  }
}

} // namespace

void lowerInlinePtx(llvm::Module &module) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst); call && call->isInlineAsm())
          calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    try {
      PtxLowering(*call).run();
      call->eraseFromParent();
    } catch (const Unsupported &unsupported) {
      // The call stays and its function cannot be lowered; whatever was
      // emitted before the failing statement is dead code in front of it.
      llvm::MDNode *reason = llvm::MDNode::get(
          call->getContext(), llvm::MDString::get(call->getContext(), unsupported.what));
      call->setMetadata(kUnsupportedMetadata, reason);
    }
  }
}

std::string describeUnloweredAsm(const llvm::CallInst &call) {
  std::string text;
  if (auto *asmValue = llvm::dyn_cast<llvm::InlineAsm>(call.getCalledOperand()))
    text = asmValue->getAsmString();
  std::string reason = "inline assembly";
  if (llvm::MDNode *node = call.getMetadata(kUnsupportedMetadata))
    if (auto *message = llvm::dyn_cast<llvm::MDString>(node->getOperand(0)))
      reason = message->getString().str();
  return reason + " in inline assembly '" + text + "'";
}

} // namespace simulee::ir
