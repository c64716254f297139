#include "ir/MatrixFragments.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace simulee::ir {
namespace {

// The element types of PTX's wmma (sub-byte and single-bit types are not
// provided).
enum class Element { F16, BF16, TF32, F32, F64, S8, U8, S32 };

std::optional<Element> elementNamed(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Element>>(name)
      .Case("f16", Element::F16)
      .Case("bf16", Element::BF16)
      .Case("tf32", Element::TF32)
      .Case("f32", Element::F32)
      .Case("f64", Element::F64)
      .Case("s8", Element::S8)
      .Case("u8", Element::U8)
      .Case("s32", Element::S32)
      .Default(std::nullopt);
}

unsigned bitsOf(Element element) {
  switch (element) {
  case Element::S8:
  case Element::U8:
    return 8;
  case Element::F16:
  case Element::BF16:
    return 16;
  case Element::TF32:
  case Element::F32:
  case Element::S32:
    return 32;
  case Element::F64:
    return 64;
  }
  return 32;
}

bool isInteger(Element element) {
  return element == Element::S8 || element == Element::U8 || element == Element::S32;
}

// How an element sits in memory: PTX's types, with bf16 and tf32 as bits.
llvm::Type *memoryType(Element element, llvm::LLVMContext &context) {
  switch (element) {
  case Element::F16:
    return llvm::Type::getHalfTy(context);
  case Element::F32:
    return llvm::Type::getFloatTy(context);
  case Element::F64:
    return llvm::Type::getDoubleTy(context);
  default:
    return llvm::IntegerType::get(context, bitsOf(element));
  }
}

enum class Matrix { A, B, Accumulator };

// One fragment as the intrinsics pass it: `registers` values of
// `registerType`, each holding `perRegister` elements (two halves in a
// <2 x half>, two bf16 or four 8-bit integers in an i32).
struct Fragment {
  Matrix matrix = Matrix::A;
  Element element = Element::F16;
  int rows = 0, cols = 0;
  llvm::Type *registerType = nullptr;
  int registers = 0;

  int perRegister() const {
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(registerType))
      return int(vector->getNumElements());
    return int(registerType->getPrimitiveSizeInBits()) / int(bitsOf(element));
  }
  int perLane() const { return registers * perRegister(); }
  int total() const { return rows * cols; }
  // Whether the layout holds: every element held by some lane, each lane's
  // elements consecutive in the fragment's order.
  bool valid() const {
    return registerType && registers > 0 && perRegister() > 0 &&
           registerType->getPrimitiveSizeInBits() == unsigned(perRegister()) * bitsOf(element) &&
           (perLane() * 32) % total() == 0;
  }
};

struct Shape {
  int m = 0, n = 0, k = 0;
};

std::optional<Shape> shapeNamed(llvm::StringRef name) {
  Shape shape;
  if (!name.consume_front("m") || name.consumeInteger(10, shape.m) || !name.consume_front("n") ||
      name.consumeInteger(10, shape.n) || !name.consume_front("k") ||
      name.consumeInteger(10, shape.k) || !name.empty())
    return std::nullopt;
  return shape;
}

Fragment fragmentOf(Matrix matrix, Element element, Shape shape, llvm::Type *registerType,
                    int registers) {
  Fragment fragment{matrix, element, 0, 0, registerType, registers};
  switch (matrix) {
  case Matrix::A:
    fragment.rows = shape.m, fragment.cols = shape.k;
    break;
  case Matrix::B:
    fragment.rows = shape.k, fragment.cols = shape.n;
    break;
  case Matrix::Accumulator:
    fragment.rows = shape.m, fragment.cols = shape.n;
    break;
  }
  return fragment;
}

// Builds the IR of one wmma call in place of it.
class FragmentBuilder {
public:
  explicit FragmentBuilder(llvm::CallInst &call) : call_(call), builder_(&call) {}

  // Element `slot` of this lane's part of `fragment`: its matrix row and
  // column (A and the accumulator counted row by row, B column by column).
  std::pair<llvm::Value *, llvm::Value *> position(const Fragment &fragment, int slot) {
    llvm::Value *index = builder_.CreateURem(
        builder_.CreateAdd(builder_.CreateMul(lane(), builder_.getInt32(fragment.perLane())),
                           builder_.getInt32(slot)),
        builder_.getInt32(fragment.total()));
    bool byColumn = fragment.matrix == Matrix::B;
    llvm::Value *major = builder_.getInt32(byColumn ? fragment.rows : fragment.cols);
    llvm::Value *outer = builder_.CreateUDiv(index, major),
                *inner = builder_.CreateURem(index, major);
    return byColumn ? std::pair{inner, outer} : std::pair{outer, inner};
  }

  // The addresses of this lane's elements of `fragment`, slot by slot, in
  // a matrix at `base` laid out in rows (`rowMajor`) or columns of `stride`
  // elements (null: the matrix's own width or height).
  std::vector<llvm::Value *> addresses(const Fragment &fragment, llvm::Value *base, bool rowMajor,
                                       llvm::Value *stride) {
    llvm::Type *i64 = builder_.getInt64Ty();
    if (!stride)
      stride = builder_.getInt32(rowMajor ? fragment.cols : fragment.rows);
    llvm::Value *wideStride = builder_.CreateZExt(stride, i64);
    std::vector<llvm::Value *> result;
    for (int slot = 0; slot < fragment.perLane(); ++slot) {
      auto [row, col] = position(fragment, slot);
      llvm::Value *major = builder_.CreateZExt(rowMajor ? row : col, i64);
      llvm::Value *minor = builder_.CreateZExt(rowMajor ? col : row, i64);
      llvm::Value *offset = builder_.CreateAdd(builder_.CreateMul(major, wideStride), minor);
      result.push_back(
          builder_.CreateGEP(memoryType(fragment.element, builder_.getContext()), base, offset));
    }
    return result;
  }

  // Element `index` of `reg` and its inverse, as its memory type.
  llvm::Value *element(const Fragment &fragment, llvm::Value *reg, int index) {
    llvm::Type *type = memoryType(fragment.element, builder_.getContext());
    if (llvm::isa<llvm::FixedVectorType>(reg->getType()))
      return builder_.CreateExtractElement(reg, uint64_t(index));
    if (fragment.perRegister() == 1)
      return builder_.CreateBitCast(reg, type);
    llvm::Value *shifted = builder_.CreateLShr(reg, uint64_t(index) * bitsOf(fragment.element));
    return builder_.CreateTrunc(shifted, type);
  }
  llvm::Value *withElement(const Fragment &fragment, llvm::Value *reg, int index,
                           llvm::Value *value) {
    if (llvm::isa<llvm::FixedVectorType>(reg->getType()))
      return builder_.CreateInsertElement(reg, value, uint64_t(index));
    if (fragment.perRegister() == 1)
      return builder_.CreateBitCast(value, fragment.registerType);
    llvm::Value *bits = builder_.CreateShl(builder_.CreateZExt(value, fragment.registerType),
                                           uint64_t(index) * bitsOf(fragment.element));
    return builder_.CreateOr(reg, bits);
  }
  llvm::Value *emptyRegister(const Fragment &fragment) {
    if (llvm::isa<llvm::FixedVectorType>(fragment.registerType))
      return llvm::PoisonValue::get(fragment.registerType);
    return llvm::Constant::getNullValue(fragment.registerType);
  }

  // The registers of `fragment` holding `elements`, in order.
  std::vector<llvm::Value *> pack(const Fragment &fragment,
                                  llvm::ArrayRef<llvm::Value *> elements) {
    std::vector<llvm::Value *> registers;
    for (int r = 0; r < fragment.registers; ++r) {
      llvm::Value *reg = emptyRegister(fragment);
      for (int i = 0; i < fragment.perRegister(); ++i)
        reg = withElement(fragment, reg, i, elements[size_t(r * fragment.perRegister() + i)]);
      registers.push_back(reg);
    }
    return registers;
  }

  // `reg` as lane `source` holds it (a warp shuffle; 64-bit registers in two).
  llvm::Value *shuffled(llvm::Value *reg, llvm::Value *source) {
    llvm::Type *type = reg->getType();
    unsigned bits = type->getPrimitiveSizeInBits();
    llvm::Type *i32 = builder_.getInt32Ty();
    auto shuffle32 = [&](llvm::Value *word) {
      return builder_.CreateIntrinsic(
          llvm::Intrinsic::nvvm_shfl_sync_idx_i32, {},
          {builder_.getInt32(~0u), word, source, builder_.getInt32(31)});
    };
    if (bits == 32)
      return builder_.CreateBitCast(shuffle32(builder_.CreateBitCast(reg, i32)), type);
    llvm::Type *i64 = builder_.getInt64Ty();
    llvm::Value *wide = builder_.CreateBitCast(reg, i64);
    llvm::Value *low = shuffle32(builder_.CreateTrunc(wide, i32));
    llvm::Value *high = shuffle32(builder_.CreateTrunc(builder_.CreateLShr(wide, 32), i32));
    llvm::Value *joined = builder_.CreateOr(builder_.CreateZExt(low, i64),
                                            builder_.CreateShl(builder_.CreateZExt(high, i64), 32));
    return builder_.CreateBitCast(joined, type);
  }

  // An input element as the product computes with it: floats widened to
  // float (tf32 keeps its 10 mantissa bits), 8-bit integers to i32.
  llvm::Value *operand(Element element, llvm::Value *value) {
    llvm::Type *f32 = builder_.getFloatTy(), *i32 = builder_.getInt32Ty();
    switch (element) {
    case Element::F16:
      return builder_.CreateFPExt(value, f32);
    case Element::BF16:
      return builder_.CreateBitCast(builder_.CreateShl(builder_.CreateZExt(value, i32), 16), f32);
    case Element::TF32:
      return builder_.CreateBitCast(builder_.CreateAnd(value, builder_.getInt32(0xFFFFE000u)), f32);
    case Element::S8:
      return builder_.CreateSExt(value, i32);
    case Element::U8:
      return builder_.CreateZExt(value, i32);
    default:
      return value;
    }
  }

  llvm::Value *lane() {
    if (!lane_)
      lane_ = builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {});
    return lane_;
  }
  llvm::IRBuilder<> &builder() { return builder_; }

  // Replaces the call with a struct of `registers`, the one register, or
  // nothing.
  void finish(llvm::ArrayRef<llvm::Value *> registers) {
    if (!call_.getType()->isStructTy() && registers.size() == 1) {
      call_.replaceAllUsesWith(registers[0]);
    } else if (!call_.getType()->isVoidTy()) {
      llvm::Value *result = llvm::PoisonValue::get(call_.getType());
      for (size_t i = 0; i < registers.size(); ++i)
        result = builder_.CreateInsertValue(result, registers[i], unsigned(i));
      call_.replaceAllUsesWith(result);
    }
    call_.eraseFromParent();
  }

private:
  llvm::CallInst &call_;
  llvm::IRBuilder<> builder_;
  llvm::Value *lane_ = nullptr;
};

// The registers a fragment-valued intrinsic returns: a struct of them, or
// one alone (a double of m8n8k4, a single 32-bit register of 8-bit inputs).
std::pair<llvm::Type *, int> registersOf(llvm::Type *type) {
  if (auto *result = llvm::dyn_cast<llvm::StructType>(type))
    return {result->getNumElements() ? result->getElementType(0) : nullptr,
            int(result->getNumElements())};
  if (type->isVoidTy())
    return {nullptr, 0};
  return {type, 1};
}

Matrix matrixNamed(llvm::StringRef name) {
  return name == "a" ? Matrix::A : name == "b" ? Matrix::B : Matrix::Accumulator;
}

// load.{a,b,c}.{row,col}[.stride].TYPE: each lane loads its elements.
bool lowerLoad(llvm::CallInst &call, Shape shape, llvm::ArrayRef<llvm::StringRef> parts) {
  if (parts.size() < 3 || !llvm::is_contained({"a", "b", "c"}, parts[0]))
    return false;
  bool rowMajor = parts[1] == "row", strided = parts[2] == "stride";
  std::optional<Element> element = elementNamed(parts[strided ? 3 : 2]);
  auto [registerType, registers] = registersOf(call.getType());
  if (!element || registers == 0 || call.arg_size() != (strided ? 2u : 1u))
    return false;
  Fragment fragment = fragmentOf(matrixNamed(parts[0]), *element, shape, registerType, registers);
  if (!fragment.valid())
    return false;
  FragmentBuilder build(call);
  llvm::IRBuilder<> &builder = build.builder();
  std::vector<llvm::Value *> elements;
  for (llvm::Value *at : build.addresses(fragment, call.getArgOperand(0), rowMajor,
                                         strided ? call.getArgOperand(1) : nullptr))
    elements.push_back(builder.CreateLoad(memoryType(*element, builder.getContext()), at));
  build.finish(build.pack(fragment, elements));
  return true;
}

// store.d.{row,col}[.stride].TYPE: each lane stores its elements.
bool lowerStore(llvm::CallInst &call, Shape shape, llvm::ArrayRef<llvm::StringRef> parts) {
  if (parts.size() < 3 || parts[0] != "d")
    return false;
  bool rowMajor = parts[1] == "row", strided = parts[2] == "stride";
  std::optional<Element> element = elementNamed(parts[strided ? 3 : 2]);
  int registers = int(call.arg_size()) - (strided ? 2 : 1);
  if (!element || registers <= 0)
    return false;
  Fragment fragment =
      fragmentOf(Matrix::Accumulator, *element, shape, call.getArgOperand(1)->getType(), registers);
  if (!fragment.valid())
    return false;
  FragmentBuilder build(call);
  std::vector<llvm::Value *> at =
      build.addresses(fragment, call.getArgOperand(0), rowMajor,
                      strided ? call.getArgOperand(call.arg_size() - 1) : nullptr);
  for (int slot = 0; slot < fragment.perLane(); ++slot) {
    llvm::Value *reg = call.getArgOperand(unsigned(1 + slot / fragment.perRegister()));
    build.builder().CreateStore(build.element(fragment, reg, slot % fragment.perRegister()),
                                at[size_t(slot)]);
  }
  build.finish({});
  return true;
}

// The element types of mma.ALAYOUT.BLAYOUT[.rn].TYPES[.satfinite]: A and B's,
// C's and D's.
struct ProductTypes {
  Element inputs, c, d;
  bool saturate = false;
};

std::optional<ProductTypes> productTypes(llvm::ArrayRef<llvm::StringRef> types) {
  bool saturate = !types.empty() && types.back() == "satfinite";
  if (saturate)
    types = types.drop_back();
  if (!types.empty() && types.front() == "rn") // f64's only rounding here
    types = types.drop_front();
  if (types.size() == 2) { // f16 inputs: D's type, C's type
    std::optional<Element> d = elementNamed(types[0]), c = elementNamed(types[1]);
    auto half = [](std::optional<Element> e) { return e == Element::F16 || e == Element::F32; };
    if (!half(d) || !half(c))
      return std::nullopt;
    return ProductTypes{Element::F16, *c, *d, saturate};
  }
  if (types.size() != 1)
    return std::nullopt;
  std::optional<Element> inputs = elementNamed(types[0]);
  if (!inputs)
    return std::nullopt;
  switch (*inputs) {
  case Element::BF16:
  case Element::TF32:
    return ProductTypes{*inputs, Element::F32, Element::F32, saturate};
  case Element::F64:
    return ProductTypes{*inputs, Element::F64, Element::F64, saturate};
  case Element::S8:
  case Element::U8:
    return ProductTypes{*inputs, Element::S32, Element::S32, saturate};
  default:
    return std::nullopt;
  }
}

// The accumulator's value `sum` as D's element: f16 rounded, and with
// .satfinite an infinite float clamped to the largest finite one of D's
// type, an integer sum to int32's range.
llvm::Value *resultElement(llvm::IRBuilder<> &builder, llvm::Value *sum, Element d, bool saturate) {
  if (isInteger(d)) {
    if (!saturate)
      return builder.CreateTrunc(sum, builder.getInt32Ty());
    llvm::Value *low = builder.getInt64(INT32_MIN), *high = builder.getInt64(INT32_MAX);
    llvm::Value *clamped = builder.CreateSelect(builder.CreateICmpSLT(sum, low), low, sum);
    clamped = builder.CreateSelect(builder.CreateICmpSGT(clamped, high), high, clamped);
    return builder.CreateTrunc(clamped, builder.getInt32Ty());
  }
  llvm::Value *value = sum;
  if (d == Element::F16)
    value = builder.CreateFPTrunc(sum, builder.getHalfTy());
  if (!saturate)
    return value;
  double largest = d == Element::F16   ? 65504.0
                   : d == Element::F32 ? 3.4028234663852886e38
                                       : 1.7976931348623157e308;
  llvm::Value *magnitude = builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, value);
  llvm::Value *infinite =
      builder.CreateFCmpOEQ(magnitude, llvm::ConstantFP::getInfinity(value->getType()));
  llvm::Value *clamped = builder.CreateBinaryIntrinsic(
      llvm::Intrinsic::copysign, llvm::ConstantFP::get(value->getType(), largest), value);
  return builder.CreateSelect(infinite, clamped, value);
}

// mma: D = A x B + C. Each lane computes its own accumulator elements
// (i, j), fetching A(i, kk) and B(kk, j) from the lanes that hold them.
bool lowerProduct(llvm::CallInst &call, Shape shape, llvm::ArrayRef<llvm::StringRef> parts) {
  if (parts.size() < 3)
    return false;
  std::optional<ProductTypes> types = productTypes(parts.drop_front(2));
  auto [registerType, registers] = registersOf(call.getType());
  if (!types || registers == 0)
    return false;
  Fragment d = fragmentOf(Matrix::Accumulator, types->d, shape, registerType, registers);
  // C's registers are the last ones; its count follows from its type as D's.
  llvm::Type *cType = call.getArgOperand(call.arg_size() - 1)->getType();
  Fragment c = fragmentOf(Matrix::Accumulator, types->c, shape, cType, 0);
  if (!d.valid() || c.perRegister() <= 0)
    return false;
  c.registers = d.perLane() / c.perRegister();
  int inputRegisters = int(call.arg_size()) - c.registers;
  llvm::Type *inputType = call.getArgOperand(0)->getType();
  Fragment a = fragmentOf(Matrix::A, types->inputs, shape, inputType, 0);
  Fragment b = fragmentOf(Matrix::B, types->inputs, shape, inputType, 0);
  if (!c.valid() || inputRegisters <= 0 || a.perRegister() <= 0)
    return false;
  // f16 fragments are Volta's: 8 registers each, shared by lanes; the
  // others hold each element once.
  if (types->inputs == Element::F16) {
    a.registers = b.registers = inputRegisters / 2;
  } else {
    a.registers = a.total() / 32 / a.perRegister();
    b.registers = b.total() / 32 / b.perRegister();
  }
  if (a.registers + b.registers != inputRegisters || !a.valid() || !b.valid() ||
      call.getArgOperand(unsigned(a.registers))->getType() != inputType)
    return false;
  // A row of A (a column of B) is split over lanes along k only, so the
  // element of kk sits in one slot of every lane: the shuffles read one
  // register for all lanes.
  if (shape.k % a.perLane() != 0 || shape.k % b.perLane() != 0 || d.perLane() != c.perLane() ||
      d.perLane() * 32 != d.total())
    return false;

  FragmentBuilder build(call);
  llvm::IRBuilder<> &builder = build.builder();
  bool integer = isInteger(types->d);
  llvm::Type *sumType = integer ? (types->saturate ? builder.getInt64Ty() : builder.getInt32Ty())
                        : types->d == Element::F64 ? builder.getDoubleTy()
                                                   : builder.getFloatTy();
  auto registersOf = [&](unsigned first, int count) {
    std::vector<llvm::Value *> registers;
    for (int i = 0; i < count; ++i)
      registers.push_back(call.getArgOperand(first + unsigned(i)));
    return registers;
  };
  std::vector<llvm::Value *> aRegisters = registersOf(0, a.registers);
  std::vector<llvm::Value *> bRegisters = registersOf(unsigned(a.registers), b.registers);
  std::vector<llvm::Value *> cRegisters =
      registersOf(unsigned(a.registers + b.registers), c.registers);

  // One shuffle per matrix, source row or column (a value), lane along k
  // and register; one conversion per matrix, row or column and k.
  std::map<std::tuple<Matrix, const llvm::Value *, int, int>, llvm::Value *> shuffles;
  std::map<std::tuple<Matrix, const llvm::Value *, int>, llvm::Value *> operands;
  auto fetch = [&](const Fragment &fragment, const std::vector<llvm::Value *> &registers,
                   llvm::Value *line, int kk) {
    llvm::Value *&operand = operands[{fragment.matrix, line, kk}];
    if (operand)
      return operand;
    int slot = kk % fragment.perLane(), laneAlongK = kk / fragment.perLane();
    int reg = slot / fragment.perRegister();
    llvm::Value *&value = shuffles[{fragment.matrix, line, laneAlongK, reg}];
    if (!value) {
      llvm::Value *source =
          builder.CreateAdd(builder.CreateMul(line, builder.getInt32(shape.k / fragment.perLane())),
                            builder.getInt32(laneAlongK));
      value = build.shuffled(registers[size_t(reg)], source);
    }
    operand = build.operand(fragment.element,
                            build.element(fragment, value, slot % fragment.perRegister()));
    return operand;
  };

  std::vector<llvm::Value *> outputs;
  std::optional<llvm::Value *> sharedRow; // i is one for all of a lane's elements
  for (int e = 0; e < d.perLane(); ++e) {
    auto [row, col] = build.position(d, e);
    if (shape.n % d.perLane() == 0) {
      if (!sharedRow)
        sharedRow = row;
      row = *sharedRow;
    }
    llvm::Value *sum =
        build.element(c, cRegisters[size_t(e / c.perRegister())], e % c.perRegister());
    if (integer)
      sum = builder.CreateSExt(sum, sumType);
    else if (sum->getType() != sumType)
      sum = builder.CreateFPExt(sum, sumType);
    for (int kk = 0; kk < shape.k; ++kk) {
      llvm::Value *x = fetch(a, aRegisters, row, kk), *y = fetch(b, bRegisters, col, kk);
      if (integer) {
        llvm::Value *product =
            builder.CreateMul(builder.CreateSExt(x, sumType), builder.CreateSExt(y, sumType));
        sum = builder.CreateAdd(sum, product);
      } else {
        if (x->getType() != sumType)
          x = builder.CreateFPExt(x, sumType), y = builder.CreateFPExt(y, sumType);
        sum = builder.CreateIntrinsic(llvm::Intrinsic::fma, {sumType}, {x, y, sum});
      }
    }
    outputs.push_back(resultElement(builder, sum, types->d, types->saturate));
  }
  build.finish(build.pack(d, outputs));
  return true;
}

bool lowerMatrixCall(llvm::CallInst &call) {
  llvm::StringRef name = call.getCalledFunction()->getName();
  if (!name.consume_front("llvm.nvvm.wmma."))
    return false;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  name.split(parts, '.');
  if (!parts.empty() && parts.back().starts_with("p") && parts.back().size() > 1 &&
      llvm::all_of(parts.back().drop_front(), llvm::isDigit))
    parts.pop_back(); // the pointer's address space
  std::optional<Shape> shape = parts.size() > 2 ? shapeNamed(parts[0]) : std::nullopt;
  if (!shape)
    return false;
  llvm::ArrayRef<llvm::StringRef> rest = llvm::ArrayRef(parts).drop_front(2);
  if (parts[1] == "load")
    return lowerLoad(call, *shape, rest);
  if (parts[1] == "store")
    return lowerStore(call, *shape, rest);
  if (parts[1] == "mma")
    return lowerProduct(call, *shape, rest);
  return false;
}

} // namespace

bool lowerMatrixFragments(llvm::Module &module) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("llvm.nvvm.wmma."))
      for (llvm::User *user : function.users())
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(user);
            call && call->getCalledFunction() == &function)
          calls.push_back(call);
  bool rewrote = false;
  for (llvm::CallInst *call : calls)
    rewrote = lowerMatrixCall(*call) || rewrote;
  return rewrote;
}

} // namespace simulee::ir
