#include "ir/KernelDiscovery.h"

#include "ir/BlockContract.h"
#include "ir/CodeCursor.h"
#include "ir/ContentConventions.h"
#include "ir/ContentSteering.h"
#include "ir/CudaInstallation.h"
#include "ir/LaunchSyntax.h"
#include "ir/SourcePaths.h"
#include "ir/TexturePtx.h"
#include "support/FileText.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DebugProgramInstruction.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <map>
#include <optional>

namespace simulee::ir {
namespace {

// Sizes from types and debug info can exceed 4 GiB: saturate rather than
// wrap, so the memory limit sees how large they are.
uint32_t saturatedBytes(uint64_t bytes) { return uint32_t(std::min<uint64_t>(bytes, UINT32_MAX)); }

bool isAnnotatedKernel(llvm::Module &module, llvm::Function &function) {
  llvm::NamedMDNode *annotations = module.getNamedMetadata("nvvm.annotations");
  if (!annotations)
    return false;
  for (llvm::MDNode *node : annotations->operands()) {
    if (node->getNumOperands() < 3)
      continue;
    auto *fn = llvm::mdconst::dyn_extract_or_null<llvm::Function>(node->getOperand(0));
    auto *key = llvm::dyn_cast<llvm::MDString>(node->getOperand(1));
    if (fn == &function && key && key->getString() == "kernel")
      return true;
  }
  return false;
}

// __launch_bounds__(N) as clang records it: nvvm.annotations maxntid{x,y,z}.
uint32_t launchBoundOf(const llvm::Function &function) {
  const llvm::NamedMDNode *annotations = function.getParent()->getNamedMetadata("nvvm.annotations");
  if (!annotations)
    return 0;
  uint64_t bound = 0;
  for (const llvm::MDNode *node : annotations->operands()) {
    if (node->getNumOperands() < 3)
      continue;
    auto *fn = llvm::mdconst::dyn_extract_or_null<llvm::Function>(node->getOperand(0));
    auto *key = llvm::dyn_cast<llvm::MDString>(node->getOperand(1));
    auto *value = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(2));
    if (fn != &function || !key || !value || !key->getString().starts_with("maxntid"))
      continue;
    bound = (bound == 0 ? 1 : bound) * value->getZExtValue();
  }
  return uint32_t(std::min<uint64_t>(bound, UINT32_MAX));
}

bool hasKernelCallingConvention(const llvm::Function &function) {
  switch (function.getCallingConv()) {
  case llvm::CallingConv::PTX_Kernel:
  case llvm::CallingConv::AMDGPU_KERNEL:
  case llvm::CallingConv::SPIR_KERNEL:
    return true;
  default:
    return false;
  }
}

// One part of a mangled symbol's demangled form (its base name "reduce",
// its parameters "(float*, int)"); nothing for a symbol that is not mangled.
std::optional<std::string> demangledPart(const std::string &symbol,
                                         char *(llvm::ItaniumPartialDemangler::*part)(
                                             char *, size_t *) const) {
  llvm::ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(symbol.c_str()))
    return std::nullopt;
  size_t size = 0;
  char *text = (demangler.*part)(nullptr, &size);
  if (!text)
    return std::nullopt;
  std::string result(text);
  std::free(text);
  return result;
}

std::string baseName(const llvm::Function &function) {
  if (const llvm::DISubprogram *sp = function.getSubprogram())
    if (!sp->getName().empty())
      return sp->getName().str();
  std::string symbol = function.getName().str();
  return demangledPart(symbol, &llvm::ItaniumPartialDemangler::getFunctionBaseName)
      .value_or(symbol);
}

// "(float*, int)" for a mangled symbol, else empty.
std::string parameterList(const llvm::Function &function) {
  return demangledPart(function.getName().str(),
                       &llvm::ItaniumPartialDemangler::getFunctionParameters)
      .value_or("");
}

// Strips typedefs and cv-qualifiers; sets isConst when a const was seen.
const llvm::DIType *stripQualifiers(const llvm::DIType *type, bool &isConst) {
  while (auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(type)) {
    unsigned tag = derived->getTag();
    if (tag == llvm::dwarf::DW_TAG_const_type)
      isConst = true;
    if (tag != llvm::dwarf::DW_TAG_const_type && tag != llvm::dwarf::DW_TAG_volatile_type &&
        tag != llvm::dwarf::DW_TAG_typedef && tag != llvm::dwarf::DW_TAG_restrict_type)
      break;
    type = derived->getBaseType();
  }
  return type;
}

void describePointee(const llvm::DIType *pointee, ParamInfo &param) {
  pointee = stripQualifiers(pointee, param.isConst);
  if (!pointee)
    return;
  param.elementBytes = saturatedBytes(pointee->getSizeInBits() / 8);
  if (auto *basic = llvm::dyn_cast<llvm::DIBasicType>(pointee)) {
    unsigned encoding = basic->getEncoding();
    param.elementKind = encoding == llvm::dwarf::DW_ATE_float ? ValueKind::Float : ValueKind::Int;
    param.elementSigned = encoding != llvm::dwarf::DW_ATE_unsigned &&
                          encoding != llvm::dwarf::DW_ATE_unsigned_char &&
                          encoding != llvm::dwarf::DW_ATE_boolean;
  } else if (llvm::isa<llvm::DIDerivedType>(pointee) &&
             pointee->getTag() == llvm::dwarf::DW_TAG_pointer_type) {
    param.elementKind = ValueKind::Pointer;
    param.elementBytes = 8;
  } else {
    param.elementKind = ValueKind::Aggregate;
  }
}

// The pointers inside an aggregate passed by value, by their offsets in its
// layout: struct fields, base classes and array elements, nested ones too.
void collectPointerMembers(llvm::Type *type, uint64_t offset, const llvm::DataLayout &layout,
                           std::vector<PointerMember> &members, unsigned depth = 0) {
  if (members.size() >= kMaxPointerMembers || depth > 8)
    return;
  if (type->isPointerTy()) {
    PointerMember member;
    member.offset = uint32_t(offset);
    members.push_back(std::move(member));
  } else if (auto *structType = llvm::dyn_cast<llvm::StructType>(type)) {
    if (structType->isOpaque())
      return;
    const llvm::StructLayout *structLayout = layout.getStructLayout(structType);
    for (unsigned i = 0; i < structType->getNumElements(); ++i)
      collectPointerMembers(structType->getElementType(i),
                            offset + structLayout->getElementOffset(i), layout, members,
                            depth + 1);
  } else if (auto *arrayType = llvm::dyn_cast<llvm::ArrayType>(type)) {
    uint64_t stride = layout.getTypeAllocSize(arrayType->getElementType());
    for (uint64_t i = 0; i < arrayType->getNumElements() && members.size() < kMaxPointerMembers;
         ++i)
      collectPointerMembers(arrayType->getElementType(), offset + i * stride, layout, members,
                            depth + 1);
  }
}

// Names and pointee types of `param`'s pointer members from the aggregate's
// debug type (members by their offsets, base classes at theirs), and its
// named numbers (ParamInfo::scalarMembers). With `pointersBelow`, the type
// is the struct a pointer parameter points to (`Node *n` with `float
// *data`), whose pointers below that offset (the element's size) are added
// as members first; its virtual table pointer is the compiler's, not the
// host's, and is left out.
void describeMembers(const llvm::DIType *type, uint64_t offset, const std::string &path,
                     ParamInfo &param, uint64_t pointersBelow = 0, unsigned depth = 0) {
  bool ignored = false;
  type = stripQualifiers(type, ignored);
  if (!type || depth > 8)
    return;
  if (auto *basic = llvm::dyn_cast<llvm::DIBasicType>(type)) {
    unsigned encoding = basic->getEncoding();
    uint64_t bits = basic->getSizeInBits();
    bool isFloat = encoding == llvm::dwarf::DW_ATE_float;
    bool sized = isFloat ? (bits == 16 || bits == 32 || bits == 64)
                         : encoding != llvm::dwarf::DW_ATE_boolean &&
                               (bits == 8 || bits == 16 || bits == 32 || bits == 64);
    if (sized && !path.empty() && param.scalarMembers.size() < kMaxPointerMembers &&
        offset + bits / 8 <= param.byValueBytes) {
      ScalarMember member;
      member.offset = uint32_t(offset);
      member.name = path;
      member.kind = isFloat ? ValueKind::Float : ValueKind::Int;
      member.bits = uint32_t(bits);
      member.isSigned = encoding != llvm::dwarf::DW_ATE_unsigned &&
                        encoding != llvm::dwarf::DW_ATE_unsigned_char &&
                        encoding != llvm::dwarf::DW_ATE_boolean;
      member.bfloat = isFloat && bits == 16 && basic->getName() == "__bf16";
      param.scalarMembers.push_back(std::move(member));
    }
    return;
  }
  if (auto *pointer = llvm::dyn_cast<llvm::DIDerivedType>(type);
      pointer && pointer->getTag() == llvm::dwarf::DW_TAG_pointer_type) {
    auto atOffset = [&](const PointerMember &member) { return member.offset == offset; };
    if (offset + 8 <= pointersBelow && param.pointerMembers.size() < kMaxPointerMembers &&
        std::none_of(param.pointerMembers.begin(), param.pointerMembers.end(), atOffset)) {
      PointerMember added;
      added.offset = uint32_t(offset);
      param.pointerMembers.push_back(std::move(added));
    }
    for (PointerMember &member : param.pointerMembers) {
      if (member.offset != offset || !member.name.empty())
        continue;
      ParamInfo pointee;
      describePointee(pointer->getBaseType(), pointee);
      member.name = path;
      member.elementKind = pointee.elementKind;
      member.elementBytes = pointee.elementBytes;
      member.elementSigned = pointee.elementSigned;
      member.isConst = pointee.isConst;
    }
    return;
  }
  auto *composite = llvm::dyn_cast<llvm::DICompositeType>(type);
  // CUDA's 16-bit floats are structs around an unsigned short: one number,
  // set and searched as a float (`--arg h=1.5`; the parameter itself when
  // the path is empty).
  if (composite && composite->getSizeInBits() == 16 &&
      (composite->getName() == "__half" || composite->getName() == "__nv_bfloat16")) {
    if (param.scalarMembers.size() < kMaxPointerMembers && offset + 2 <= param.byValueBytes) {
      ScalarMember member;
      member.offset = uint32_t(offset);
      member.name = path;
      member.kind = ValueKind::Float;
      member.bits = 16;
      member.bfloat = composite->getName() == "__nv_bfloat16";
      param.scalarMembers.push_back(std::move(member));
    }
    return;
  }
  if (composite && composite->getTag() == llvm::dwarf::DW_TAG_array_type) {
    const llvm::DIType *element = stripQualifiers(composite->getBaseType(), ignored);
    uint64_t elementBits = element ? element->getSizeInBits() : 0;
    for (uint64_t i = 0; elementBits && i < composite->getSizeInBits() / elementBits &&
                         i < kMaxPointerMembers;
         ++i)
      describeMembers(element, offset + i * elementBits / 8,
                      path + "[" + std::to_string(i) + "]", param, pointersBelow, depth + 1);
    return;
  }
  if (!composite || (composite->getTag() != llvm::dwarf::DW_TAG_structure_type &&
                     composite->getTag() != llvm::dwarf::DW_TAG_class_type))
    return;
  for (const llvm::DINode *element : composite->getElements()) {
    auto *member = llvm::dyn_cast_or_null<llvm::DIDerivedType>(element);
    if (!member || member->isStaticMember() || (pointersBelow && member->isArtificial()))
      continue;
    uint64_t at = offset + member->getOffsetInBits() / 8;
    if (member->getTag() == llvm::dwarf::DW_TAG_inheritance)
      describeMembers(member->getBaseType(), at, path, param, pointersBelow, depth + 1);
    else if (member->getTag() == llvm::dwarf::DW_TAG_member)
      describeMembers(member->getBaseType(), at,
                      path.empty() ? member->getName().str()
                                   : path + "." + member->getName().str(),
                      param, pointersBelow, depth + 1);
  }
}

// cudaTextureObject_t / cudaSurfaceObject_t, seen through typedefs and
// qualifiers of the parameter's declared type.
ResourceKind resourceKindOf(const llvm::DIType *type) {
  while (auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(type)) {
    if (derived->getTag() == llvm::dwarf::DW_TAG_typedef) {
      if (derived->getName() == "cudaTextureObject_t")
        return ResourceKind::Texture;
      if (derived->getName() == "cudaSurfaceObject_t")
        return ResourceKind::Surface;
    }
    unsigned tag = derived->getTag();
    if (tag != llvm::dwarf::DW_TAG_const_type && tag != llvm::dwarf::DW_TAG_volatile_type &&
        tag != llvm::dwarf::DW_TAG_typedef)
      break;
    type = derived->getBaseType();
  }
  return ResourceKind::None;
}

// The most dimensions the texture (or surface) accesses that the handle
// `arg` reaches use: followed through calls (tex2D<float> is a function at
// -O0) and phis, selects and casts; 0 when it reaches none.
uint8_t resourceDimsOf(llvm::Argument &arg) {
  uint8_t dims = 0;
  std::vector<llvm::Value *> work = {&arg};
  llvm::SmallPtrSet<llvm::Value *, 16> seen = {&arg};
  auto follow = [&](llvm::Value *value) {
    if (seen.insert(value).second)
      work.push_back(value);
  };
  while (!work.empty() && seen.size() < 256) {
    llvm::Value *value = work.back();
    work.pop_back();
    for (llvm::Use &use : value->uses()) {
      llvm::User *user = use.getUser();
      if (llvm::isa<llvm::PHINode, llvm::SelectInst, llvm::CastInst>(user)) {
        follow(user);
        continue;
      }
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || !call->isArgOperand(&use))
        continue;
      unsigned index = call->getArgOperandNo(&use);
      llvm::StringRef name = callee->getName();
      bool access = name == kTextureFetchFunction || name.starts_with(kSurfaceLoadFunction) ||
                    name.starts_with(kSurfaceStoreFunction);
      if (access && index == 0 && call->arg_size() > 1) {
        if (auto *flags = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1)))
          dims = std::max<uint8_t>(dims, uint8_t(flags->getZExtValue() & 3));
        continue;
      }
      if (!callee->isDeclaration() && index < callee->arg_size())
        follow(callee->getArg(index));
    }
  }
  return dims;
}

// Argument names and types from the subprogram's debug info.
void applyDebugInfo(llvm::Function &function, std::vector<ParamInfo> &params) {
  const llvm::DISubprogram *sp = function.getSubprogram();
  if (!sp)
    return;
  auto nameArg = [&](const llvm::DILocalVariable *var) {
    if (!var || var->getArg() == 0 || var->getArg() > params.size())
      return;
    // Parameters of functions inlined into the kernel carry arg numbers too.
    if (var->getScope()->getSubprogram() != sp)
      return;
    params[var->getArg() - 1].name = var->getName().str();
  };
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &inst : block) {
      if (auto *intrinsic = llvm::dyn_cast<llvm::DbgVariableIntrinsic>(&inst))
        nameArg(intrinsic->getVariable());
      for (llvm::DbgVariableRecord &record : llvm::filterDbgVars(inst.getDbgRecordRange()))
        nameArg(record.getVariable());
    }
  if (const llvm::DISubroutineType *type = sp->getType()) {
    llvm::DITypeRefArray types = type->getTypeArray();
    for (size_t i = 0; i < params.size() && i + 1 < types.size(); ++i) {
      const llvm::DIType *argType = types[i + 1];
      if (ResourceKind resource = resourceKindOf(argType); resource != ResourceKind::None) {
        params[i].resource = resource;
        params[i].kind = ValueKind::Pointer;
        params[i].elementKind = ValueKind::Float;
        params[i].elementBytes = 4;
        continue;
      }
      bool ignored = false;
      argType = stripQualifiers(argType, ignored);
      if (params[i].kind == ValueKind::Aggregate)
        describeMembers(argType, 0, "", params[i]);
      if (auto *basic = llvm::dyn_cast_or_null<llvm::DIBasicType>(argType)) {
        unsigned encoding = basic->getEncoding();
        params[i].isSigned = encoding != llvm::dwarf::DW_ATE_unsigned &&
                             encoding != llvm::dwarf::DW_ATE_unsigned_char &&
                             encoding != llvm::dwarf::DW_ATE_boolean;
        params[i].bfloat = basic->getSizeInBits() == 16 && basic->getName() == "__bf16";
      }
      auto *pointer = llvm::dyn_cast_or_null<llvm::DIDerivedType>(argType);
      // A reference (`Node &n`) is a pointer to one element.
      if (params[i].kind == ValueKind::Pointer && pointer &&
          (pointer->getTag() == llvm::dwarf::DW_TAG_pointer_type ||
           pointer->getTag() == llvm::dwarf::DW_TAG_reference_type ||
           pointer->getTag() == llvm::dwarf::DW_TAG_rvalue_reference_type)) {
        describePointee(pointer->getBaseType(), params[i]);
        // Pointers to pointers (`float **rows`): each element is a member
        // of its own at offset 0, named "[]" ("rows[]").
        if (params[i].elementKind == ValueKind::Aggregate)
          describeMembers(pointer->getBaseType(), 0, "", params[i], params[i].elementBytes);
        else if (params[i].elementKind == ValueKind::Pointer)
          describeMembers(pointer->getBaseType(), 0, "[]", params[i], 8);
      }
    }
  }
}

// Without debug info: the element type of the first load, store or GEP that
// uses the pointer directly.
void inferElementType(llvm::Argument &arg, ParamInfo &param) {
  const llvm::DataLayout &layout = arg.getParent()->getParent()->getDataLayout();
  for (llvm::User *user : arg.users()) {
    llvm::Type *type = nullptr;
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user))
      type = load->getType();
    else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
             store && store->getPointerOperand() == &arg)
      type = store->getValueOperand()->getType();
    else if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(user))
      type = gep->getSourceElementType();
    if (!type || !type->isSized())
      continue;
    param.elementBytes = saturatedBytes(layout.getTypeAllocSize(type));
    param.elementKind = type->isFloatingPointTy() ? ValueKind::Float
                        : type->isPointerTy()     ? ValueKind::Pointer
                        : type->isIntegerTy()     ? ValueKind::Int
                                                  : ValueKind::Aggregate;
    return;
  }
}

// Whether `function` does nothing: one block of no memory access and no
// call but debug information.
bool doesNothing(const llvm::Function &function) {
  if (function.size() != 1)
    return false;
  for (const llvm::Instruction &inst : function.front())
    if (inst.mayReadOrWriteMemory() ||
        (llvm::isa<llvm::CallBase>(inst) && !llvm::isa<llvm::DbgInfoIntrinsic>(inst)))
      return false;
  return true;
}

// The line (1-based) of the first preprocessor conditional on __CUDA_ARCH__
// in the body of the function declared at `line` of `text` (its braces
// matched from the first `{` on, outside comments and literals), or 0.
uint32_t archConditionalInBody(std::string_view text, uint32_t line) {
  size_t start = 0;
  for (uint32_t l = 1; l < line; ++l) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      return 0;
    start = end + 1;
  }
  int depth = 0;
  CodeCursor cursor(text, start);
  for (size_t at = cursor.next(); at != std::string_view::npos; at = cursor.next()) {
    if (text[at] == '{') {
      ++depth;
    } else if (text[at] == '}' && depth > 0 && --depth == 0) {
      return 0;
    } else if (text[at] == '#' && depth > 0) {
      // A directive: nothing but blanks before it on its line.
      size_t lineStart = text.rfind('\n', at) + 1; // npos + 1 == 0
      size_t lineEnd = std::min(text.find('\n', at), text.size());
      std::string_view directive = text.substr(at, lineEnd - at);
      if (text.substr(lineStart, at - lineStart).find_first_not_of(" \t") ==
              std::string_view::npos &&
          directive.find("if") != std::string_view::npos &&
          directive.find("__CUDA_ARCH__") != std::string_view::npos)
        return line + uint32_t(std::count(text.begin() + start, text.begin() + at, '\n'));
    }
  }
  return 0;
}

// Why nothing of `kernel` can be analysed when its body compiled to nothing
// for the architecture device code is compiled for (kDeviceCodeArch) but
// the source of the body, at `line` of `path`, has code under an `#if` on
// __CUDA_ARCH__ (`#if __CUDA_ARCH__ >= 800`: on the GPU the simulated
// device reports, that code runs); else nothing.
std::optional<std::string> bodyLeftOutForArch(const llvm::Function &kernel, const std::string &path,
                                              uint32_t line) {
  if (line == 0 || !doesNothing(kernel))
    return std::nullopt;
  Result<std::string> text = readRegularFile(path, kLargestTextFile);
  if (!text)
    return std::nullopt;
  uint32_t conditional = archConditionalInBody(*text, line);
  if (conditional == 0)
    return std::nullopt;
  return "its body compiles to nothing for sm_" + std::to_string(kDeviceCodeArch) +
         ", the architecture simulee compiles device code for: the `#if` on __CUDA_ARCH__ at " +
         kernel.getSubprogram()->getFilename().str() + ":" + std::to_string(conditional) +
         " leaves out what a newer GPU would run";
}

} // namespace

std::vector<llvm::Function *> findKernelFunctions(llvm::Module &module) {
  std::vector<llvm::Function *> kernels;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        (hasKernelCallingConvention(function) || isAnnotatedKernel(module, function)))
      kernels.push_back(&function);
  // A GPU module marks its kernels; only legacy (host-triple) IR needs the
  // guess below. A .cu file without __global__ functions has no kernel.
  llvm::StringRef triple = module.getTargetTriple();
  if (!kernels.empty() || triple.starts_with("nvptx") || triple.starts_with("amdgcn") ||
      triple.starts_with("spir"))
    return kernels;

  // Legacy IR: entry points are the defined, externally visible functions
  // that nothing in the module calls.
  llvm::SmallPtrSet<const llvm::Function *, 16> called;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block)
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
          if (const llvm::Function *callee = call->getCalledFunction())
            called.insert(callee);
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !function.hasLocalLinkage() && !called.count(&function) &&
        function.getName() != "main")
      kernels.push_back(&function);
  return kernels;
}

KernelInfo describeKernel(llvm::Function &function) {
  KernelInfo kernel;
  kernel.name = function.getName().str();
  kernel.sourceName = baseName(function);
  kernel.parameters = parameterList(function);
  kernel.maxThreadsPerBlock = launchBoundOf(function);
  std::optional<BlockContract> contract = recordedBlockContract(function);
  if (!contract)
    contract = sharedArrayContractOf(function);
  if (contract) {
    std::copy(contract->dims.begin(), contract->dims.end(), kernel.contractBlock);
    kernel.contractSource = contract->source;
  }
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  for (llvm::Argument &arg : function.args()) {
    ParamInfo param;
    param.name = arg.hasName() ? arg.getName().str() : "arg" + std::to_string(arg.getArgNo());
    llvm::Type *type = arg.getType();
    if (type->isPointerTy()) {
      param.kind = ValueKind::Pointer;
      param.bits = 64;
      if (llvm::Type *byval = arg.getParamByValType()) {
        param.kind = ValueKind::Aggregate;
        param.byValueBytes = saturatedBytes(layout.getTypeAllocSize(byval));
        collectPointerMembers(byval, 0, layout, param.pointerMembers);
      }
    } else if (type->isFloatingPointTy()) {
      param.kind = ValueKind::Float;
      param.bits = type->getPrimitiveSizeInBits();
    } else if (type->isIntegerTy()) {
      param.kind = ValueKind::Int;
      param.bits = type->getIntegerBitWidth();
    } else {
      param.kind = ValueKind::Aggregate;
      param.byValueBytes = saturatedBytes(layout.getTypeAllocSize(type));
      collectPointerMembers(type, 0, layout, param.pointerMembers);
    }
    kernel.params.push_back(param);
  }
  // What a GPU cannot launch is not simulated either: each thread holds its
  // own copy of a by-value aggregate, so a huge one would cost gigabytes.
  uint64_t parameterBytes = 0;
  for (const ParamInfo &param : kernel.params)
    parameterBytes += param.byValueBytes ? param.byValueBytes : std::max<uint32_t>(param.bits, 8) / 8;
  if (parameterBytes > kMaxKernelParameterBytes)
    kernel.unsupported = "its parameters take " + std::to_string(parameterBytes) +
                         " bytes; a CUDA launch passes at most " +
                         std::to_string(kMaxKernelParameterBytes);
  applyDebugInfo(function, kernel.params);
  for (llvm::Argument &arg : function.args()) {
    ParamInfo &param = kernel.params[arg.getArgNo()];
    if (param.kind == ValueKind::Pointer && param.elementBytes == 0)
      inferElementType(arg, param);
    if (param.resource != ResourceKind::None)
      param.resourceDims = std::max<uint8_t>(1, resourceDimsOf(arg));
  }
  if (const llvm::DISubprogram *sp = function.getSubprogram()) {
    SourcePaths().locate(kernel.location, sp->getFilename().str(), sp->getDirectory().str());
    kernel.location.line = sp->getLine();
  }
  llvm::SmallString<256> path(kernel.location.file);
  if (!kernel.location.directory.empty() && !llvm::sys::path::is_absolute(path))
    path = kernel.location.directory + "/" + kernel.location.file;
  kernel.library = (!kernel.location.file.empty() && isCudaHeader(path)) ||
                   kernel.name.starts_with("_ZN3cub") || kernel.name.starts_with("_ZN6thrust");
  if (std::optional<std::string> leftOut =
          bodyLeftOutForArch(function, path.str().str(), kernel.location.line))
    kernel.unsupported = *leftOut;
  kernel.contentsSteer = contentsSteer(function);
  std::vector<ContentRole> roles = contentRoles(function);
  for (size_t i = 0; i < roles.size() && i < kernel.params.size(); ++i)
    kernel.params[i].contents = roles[i];
  std::vector<uint64_t> masked = maskedIntegers(function);
  for (size_t i = 0; i < masked.size() && i < kernel.params.size(); ++i)
    kernel.params[i].powerOfTwoFrom = masked[i];
  std::vector<std::optional<std::pair<int64_t, int64_t>>> keys = keyRanges(function);
  for (size_t i = 0; i < keys.size() && i < kernel.params.size(); ++i)
    if (kernel.params[i].kind == ValueKind::Pointer &&
        kernel.params[i].elementKind == ValueKind::Int)
      kernel.params[i].keyRange = keys[i];
  return kernel;
}

std::string sourceNameOf(const llvm::GlobalVariable &variable) {
  llvm::SmallVector<llvm::DIGlobalVariableExpression *, 1> expressions;
  variable.getDebugInfo(expressions);
  for (llvm::DIGlobalVariableExpression *expression : expressions)
    if (llvm::DIGlobalVariable *var = expression->getVariable())
      if (!var->getName().empty()) {
        // The bytes of a shared variable nvcc leaves unconstructed are the
        // variable (LaunchSyntax.h).
        llvm::StringRef name = var->getName();
        name.consume_back(kUnconstructedSharedSuffix);
        return name.str();
      }
  // A function's static (`__shared__ int tile[64]` in old IR without debug
  // info): `_ZZ6reducePiE4tile` is reduce(int*)::tile.
  if (variable.getName().starts_with("_ZZ")) {
    std::string demangled = llvm::demangle(variable.getName().str());
    size_t scope = demangled.rfind("::");
    if (scope != std::string::npos && demangled != variable.getName())
      return demangled.substr(scope + 2);
  }
  return variable.getName().str();
}

} // namespace simulee::ir
