#include "ir/OldIrUpgrade.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/Regex.h>

#include <cctype>
#include <cstring>
#include <optional>
#include <set>

namespace simulee::ir {
namespace {

constexpr llvm::StringRef kOldLocationKind = "simulee.oldloc";
constexpr size_t npos = std::string::npos;

// Whether the positions of one left-to-right scan of a line lie inside a
// string literal. LLVM strings escape '"' as \22, so a raw quote always opens
// or closes one; text inserted behind the scan holds balanced quotes, so the
// count stays right. Linear over the whole scan.
class StringTracker {
public:
  explicit StringTracker(const std::string &line) : line_(line) {}
  bool inside(size_t pos) {
    for (; scanned_ < pos && scanned_ < line_.size(); ++scanned_)
      odd_ ^= line_[scanned_] == '"';
    return odd_;
  }

private:
  const std::string &line_;
  size_t scanned_ = 0;
  bool odd_ = false;
};

// No type of real IR is longer; a longer "type" is not one (and bounds the
// work hostile input can cause).
constexpr size_t kMaxTypeChars = 4096;

size_t skipSpaces(const std::string &line, size_t at) {
  while (at < line.size() && (line[at] == ' ' || line[at] == '\t'))
    ++at;
  return at;
}

// Index past the bracketed group opening at `at` (nested groups included).
size_t skipGroup(const std::string &line, size_t at) {
  int depth = 0;
  for (size_t i = at; i < line.size() && i < at + kMaxTypeChars; ++i) {
    char c = line[i];
    if (c == '"') {
      size_t close = line.find('"', i + 1);
      if (close == npos)
        return npos;
      i = close;
    } else if (c == '[' || c == '{' || c == '(' || c == '<') {
      ++depth;
    } else if (c == ']' || c == '}' || c == ')' || c == '>') {
      if (--depth == 0)
        return i + 1;
    }
  }
  return npos;
}

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '$' ||
         c == '-';
}

// Index past the type written at `at` (`i32`, `%struct.dim3`, `[4 x float]`,
// `i32 addrspace(1)*`, `void (i32*)**`), or npos when none starts there.
size_t skipType(const std::string &line, size_t at) {
  size_t i = skipSpaces(line, at);
  if (i >= line.size())
    return npos;
  char c = line[i];
  if (c == '[' || c == '{' || c == '<') {
    i = skipGroup(line, i);
  } else if (c == '%') {
    ++i;
    if (i < line.size() && line[i] == '"') {
      size_t close = line.find('"', i + 1);
      i = close == npos || close > at + kMaxTypeChars ? npos : close + 1;
    } else
      while (i < line.size() && isNameChar(line[i]))
        ++i;
  } else if (std::isalpha(static_cast<unsigned char>(c))) {
    while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_'))
      ++i;
  } else {
    return npos;
  }
  while (i != npos && i < line.size()) {
    if (i > at + kMaxTypeChars)
      return npos;
    size_t j = skipSpaces(line, i);
    if (j < line.size() && line[j] == '*') {
      i = j + 1;
    } else if (line.compare(j, 10, "addrspace(") == 0) {
      size_t close = line.find(')', j);
      i = close == npos ? npos : close + 1;
    } else if (j < line.size() && line[j] == '(') {
      i = skipGroup(line, j); // a function type's parameters
    } else {
      break;
    }
  }
  return i;
}

// `i32 addrspace(1)*` -> `i32`: what a typed pointer type points to.
std::string pointeeOf(std::string type) {
  while (!type.empty() && type.back() == ' ')
    type.pop_back();
  if (type.empty() || type.back() != '*')
    return "";
  type.pop_back();
  while (!type.empty() && type.back() == ' ')
    type.pop_back();
  if (!type.empty() && type.back() == ')') {
    size_t space = type.rfind("addrspace(");
    if (space != npos && type.find(')', space) == type.size() - 1)
      type.erase(space);
  }
  while (!type.empty() && type.back() == ' ')
    type.pop_back();
  return type;
}

// `load i32* %p` -> `load i32, i32* %p`, and the same for getelementptr
// (instructions and constant expressions): the explicit type LLVM 3.7 added.
void addExplicitTypes(std::string &line, const std::string &keyword) {
  StringTracker strings(line);
  size_t from = 0;
  for (;;) {
    size_t at = line.find(keyword, from);
    if (at == npos)
      return;
    from = at + keyword.size();
    if ((at > 0 && isNameChar(line[at - 1])) || strings.inside(at))
      continue;
    size_t type = skipSpaces(line, from);
    for (bool moved = true; moved;) {
      moved = false;
      for (const char *modifier : {"inbounds ", "atomic ", "volatile "})
        if (line.compare(type, std::strlen(modifier), modifier) == 0) {
          type = skipSpaces(line, type + std::strlen(modifier));
          moved = true;
        }
      if (type < line.size() && line[type] == '(') { // a constant expression
        type = skipSpaces(line, type + 1);
        moved = true;
      }
    }
    type = skipSpaces(line, type);
    size_t end = skipType(line, type);
    if (end == npos || skipSpaces(line, end) >= line.size() || line[skipSpaces(line, end)] == ',')
      continue;
    std::string pointee = pointeeOf(line.substr(type, end - type));
    if (pointee.empty())
      continue;
    line.insert(type, pointee + ", ");
    from = type + pointee.size() + 2;
  }
}

// `call i32 (i8*, ...)* @printf(` -> `call i32 (i8*, ...) @printf(`: calls
// name the function type, no longer a pointer to it.
void dropCalleePointerType(std::string &line) {
  static const char *const kSkipped[] = {"fastcc ",     "coldcc ",    "ccc ",     "ptx_kernel ",
                                         "ptx_device ", "spir_func ", "zeroext ", "signext ",
                                         "noalias ",    "inreg ",     "nonnull "};
  StringTracker strings(line);
  size_t from = 0;
  for (;;) {
    size_t at = line.find("call ", from);
    if (at == npos)
      return;
    from = at + 5;
    if ((at > 0 && isNameChar(line[at - 1])) || strings.inside(at))
      continue;
    size_t type = skipSpaces(line, from);
    for (bool skipped = true; skipped;) {
      skipped = false;
      for (const char *word : kSkipped)
        if (line.compare(type, std::strlen(word), word) == 0) {
          type = skipSpaces(line, type + std::strlen(word));
          skipped = true;
        }
    }
    size_t end = skipType(line, type);
    if (end == npos || end < 2 || line[end - 1] != '*')
      continue;
    size_t star = end - 1;
    size_t beforeStar = star;
    while (beforeStar > type && line[beforeStar - 1] == ' ')
      --beforeStar;
    if (beforeStar > type && line[beforeStar - 1] == ')')
      line.erase(star, 1);
  }
}

// `%r = cmpxchg i32* %p, i32 %a, i32 %b seq_cst` (one ordering, an i32
// result) -> the {value, success} pair of today's cmpxchg and its value.
bool upgradeCmpXchg(const std::string &line, std::string &out) {
  if (line.find(" = cmpxchg ") == npos)
    return false;
  static const llvm::Regex pattern(
      "^([ \t]*)(%[-a-zA-Z$._0-9]+) = cmpxchg (.*) "
      "(monotonic|acquire|release|acq_rel|seq_cst)(, align [0-9]+)?[ \t]*$");
  llvm::SmallVector<llvm::StringRef, 6> parts;
  if (!pattern.match(line, &parts))
    return false;
  llvm::StringRef operands = parts[3];
  for (const char *ordering : {"monotonic", "acquire", "release", "acq_rel", "seq_cst"})
    if (operands.ends_with(std::string(" ") + ordering))
      return false; // already two orderings
  std::string operandText = operands.str();
  size_t comma = operandText.find(',');
  size_t typeEnd = comma == npos ? npos : skipType(operandText, comma + 1);
  if (typeEnd == npos)
    return false;
  std::string valueType = operandText.substr(comma + 1, typeEnd - comma - 1);
  while (!valueType.empty() && valueType.front() == ' ')
    valueType.erase(0, 1);
  std::string success = parts[4].str();
  std::string failure = success == "release"   ? "monotonic"
                        : success == "acq_rel" ? "acquire"
                                               : success;
  std::string pair = parts[2].str() + ".pair";
  out = parts[1].str() + pair + " = cmpxchg " + operandText + " " + success + " " + failure +
        parts[5].str() + "\n" + parts[1].str() + parts[2].str() + " = extractvalue { " + valueType +
        ", i1 } " + pair + ", 0";
  return true;
}

// Instruction attachments: !dbg kept under a private kind (its old node is
// no DILocation; finishOldIrUpgrade() rebuilds it), the others dropped.
void rewriteAttachments(std::string &line, bool &hadDebugInfo) {
  StringTracker strings(line);
  std::string result;
  size_t copied = 0;
  for (size_t at = line.find(", !"); at != npos; at = line.find(", !", at + 1)) {
    if (strings.inside(at))
      continue;
    size_t name = at + 3, nameEnd = name;
    while (nameEnd < line.size() && isNameChar(line[nameEnd]))
      ++nameEnd;
    size_t node = skipSpaces(line, nameEnd);
    if (nameEnd == name || node == nameEnd || node + 1 >= line.size() || line[node] != '!' ||
        !std::isdigit(static_cast<unsigned char>(line[node + 1])))
      continue;
    size_t nodeEnd = node + 1;
    while (nodeEnd < line.size() && std::isdigit(static_cast<unsigned char>(line[nodeEnd])))
      ++nodeEnd;
    result.append(line, copied, at - copied);
    if (line.compare(name, nameEnd - name, "dbg") == 0 && nameEnd - name == 3) {
      result += ", !" + kOldLocationKind.str() + " " + line.substr(node, nodeEnd - node);
      hadDebugInfo = true;
    }
    copied = nodeEnd;
    at = nodeEnd - 1;
  }
  if (copied == 0)
    return;
  result.append(line, copied, npos);
  line = std::move(result);
}

// ` #3` referring to an attribute group the text never defines.
void dropUndefinedAttributeGroups(std::string &line, const std::set<std::string> &defined) {
  StringTracker strings(line);
  std::string result;
  size_t copied = 0;
  for (size_t at = line.find(" #"); at != npos; at = line.find(" #", at + 1)) {
    size_t end = at + 2;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])))
      ++end;
    if (end == at + 2 || strings.inside(at) || defined.count(line.substr(at + 2, end - at - 2)))
      continue;
    result.append(line, copied, at - copied);
    copied = end;
  }
  if (copied == 0)
    return;
  result.append(line, copied, npos);
  line = std::move(result);
}

// Every whole-word `from` outside strings becomes `to`.
void replaceWord(std::string &line, const std::string &from, const std::string &to) {
  StringTracker strings(line);
  std::string result;
  size_t copied = 0;
  for (size_t at = line.find(from); at != npos; at = line.find(from, at + 1)) {
    bool wordStart = at == 0 || !isNameChar(line[at - 1]);
    bool wordEnd = at + from.size() >= line.size() || !isNameChar(from.back()) ||
                   !isNameChar(line[at + from.size()]);
    if (!wordStart || !wordEnd || strings.inside(at))
      continue;
    result.append(line, copied, at - copied);
    result += to;
    copied = at + from.size();
  }
  if (copied == 0)
    return;
  result.append(line, copied, npos);
  line = std::move(result);
}

// `metadata !{...}`, `metadata !"x"`, `metadata !3` -> `!{...}`, `!"x"`, `!3`.
void dropMetadataKeyword(std::string &line) { replaceWord(line, "metadata !", "!"); }

bool isDebugIntrinsicCall(const std::string &line) {
  return line.find("call void @llvm.dbg.") != npos && line.find("declare ") == npos;
}

// The first source file a metadata string names, and the string after it
// (its directory, in 3.x file and compile-unit nodes).
void findSourceFile(const std::string &line, OldIrRewrite &rewrite) {
  if (!rewrite.sourceFile.empty())
    return;
  static const llvm::Regex file(
      "!\"([^\"]*\\.(cu|cuh|c|cc|cpp|cxx|cl|h|hpp))\"(, *!\"([^\"]*)\")?");
  llvm::SmallVector<llvm::StringRef, 5> parts;
  if (!file.match(line, &parts))
    return;
  rewrite.sourceFile = parts[1].str();
  rewrite.sourceDirectory = parts[4].str();
}

} // namespace

bool looksLikeOldIr(llvm::StringRef text) {
  while (!text.empty()) {
    auto [first, rest] = text.split('\n');
    text = rest;
    std::string line = first.str();
    if (line.find("metadata !") != npos)
      return true;
    if (line.find("load ") == npos && line.find("getelementptr ") == npos &&
        line.find("call ") == npos)
      continue;
    std::string rewritten = line;
    addExplicitTypes(rewritten, "load ");
    addExplicitTypes(rewritten, "getelementptr ");
    dropCalleePointerType(rewritten);
    if (rewritten != line)
      return true;
  }
  return false;
}

OldIrRewrite rewriteOldIr(llvm::StringRef text) {
  OldIrRewrite rewrite;
  std::set<std::string> attributeGroups;
  static const llvm::Regex groupDefinition("^attributes #([0-9]+) ");
  llvm::SmallVector<llvm::StringRef, 16> lines;
  if (text.ends_with("\n"))
    text = text.drop_back(); // every line gets its newline back below
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef, 2> parts;
    if (groupDefinition.match(line, &parts))
      attributeGroups.insert(parts[1].str());
  }

  for (llvm::StringRef original : lines) {
    std::string line = original.str();
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    llvm::StringRef trimmed = llvm::StringRef(line).ltrim();
    if (isDebugIntrinsicCall(line))
      continue; // its operands are function-local metadata LLVM 19 cannot read
    bool isMetadata = trimmed.starts_with("!");
    if (isMetadata) {
      // Named metadata other than the kernel annotations is old debug info,
      // module flags or identification: dropped (the verifier would refuse it).
      if (trimmed.size() > 1 && !std::isdigit(static_cast<unsigned char>(trimmed[1])) &&
          !trimmed.starts_with("!nvvm.annotations") && !trimmed.starts_with("!opencl.kernels"))
        continue;
      findSourceFile(line, rewrite);
      dropMetadataKeyword(line);
      rewrite.text += line + "\n";
      continue;
    }
    // `trimmed` views `line`, which the rewrites below reallocate.
    bool isAttributeGroup = trimmed.starts_with("attributes #");
    dropMetadataKeyword(line);
    addExplicitTypes(line, "load ");
    addExplicitTypes(line, "getelementptr ");
    dropCalleePointerType(line);
    rewriteAttachments(line, rewrite.hadDebugInfo);
    if (!isAttributeGroup)
      dropUndefinedAttributeGroups(line, attributeGroups);
    replaceWord(line, "linker_private_weak", "private");
    replaceWord(line, "linker_private", "private");
    replaceWord(line, "address_safety", "sanitize_address");
    replaceWord(line, "thread_safety", "sanitize_thread");
    replaceWord(line, "uninitialized_checks", "sanitize_memory");
    std::string cmpxchg;
    rewrite.text += (upgradeCmpXchg(line, cmpxchg) ? cmpxchg : line) + "\n";
  }
  return rewrite;
}

namespace {

// Old debug locations `!{i32 line, i32 column, !scope, inlinedAt}` as
// DILocations in one synthetic subprogram per function.
void rebuildDebugLocations(llvm::Module &module, const OldIrRewrite &rewrite,
                           std::vector<std::string> &notes) {
  unsigned kind = module.getContext().getMDKindID(kOldLocationKind);
  auto lineAndColumn =
      [](const llvm::MDNode *node) -> std::optional<std::pair<unsigned, unsigned>> {
    if (!node || node->getNumOperands() < 2)
      return std::nullopt;
    auto *line = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(0));
    auto *column = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(1));
    if (!line || !column || line->getZExtValue() == 0)
      return std::nullopt;
    return std::make_pair(unsigned(line->getZExtValue()), unsigned(column->getZExtValue()));
  };

  bool any = false;
  for (llvm::Function &function : module)
    for (llvm::Instruction &inst : llvm::instructions(function))
      any = any || lineAndColumn(inst.getMetadata(kind));
  if (!any || rewrite.sourceFile.empty()) {
    for (llvm::Function &function : module)
      for (llvm::Instruction &inst : llvm::instructions(function))
        inst.setMetadata(kind, nullptr);
    if (rewrite.hadDebugInfo)
      notes.push_back("the old IR's debug information could not be upgraded and was dropped: "
                      "findings name instructions instead of source lines");
    return;
  }

  llvm::DIBuilder builder(module);
  llvm::DIFile *file = builder.createFile(rewrite.sourceFile, rewrite.sourceDirectory);
  builder.createCompileUnit(llvm::dwarf::DW_LANG_C_plus_plus, file,
                            "simulee (upgraded from old LLVM IR)", false, "", 0);
  llvm::DISubroutineType *type = builder.createSubroutineType(builder.getOrCreateTypeArray({}));
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    llvm::DISubprogram *subprogram = nullptr;
    for (llvm::Instruction &inst : llvm::instructions(function)) {
      std::optional<std::pair<unsigned, unsigned>> location = lineAndColumn(inst.getMetadata(kind));
      inst.setMetadata(kind, nullptr);
      if (!location)
        continue;
      if (!subprogram) {
        std::string name = llvm::demangle(function.getName().str());
        name = name.substr(0, name.find('('));
        subprogram = builder.createFunction(file, name, function.getName(), file, location->first,
                                            type, location->first, llvm::DINode::FlagZero,
                                            llvm::DISubprogram::SPFlagDefinition);
        function.setSubprogram(subprogram);
      }
      inst.setDebugLoc(llvm::DILocation::get(module.getContext(), location->first, location->second,
                                             subprogram));
    }
  }
  builder.finalize();
  module.addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
}

// GKLEE-style IR keeps __shared__ variables in the default address space,
// in a "__shared__" section: they move to the shared space (3).
void moveSharedSectionGlobals(llvm::Module &module) {
  llvm::SmallVector<llvm::GlobalVariable *> shared;
  for (llvm::GlobalVariable &global : module.globals())
    if (global.getAddressSpace() == 0 && global.hasSection() &&
        global.getSection().contains("shared"))
      shared.push_back(&global);
  for (llvm::GlobalVariable *old : shared) {
    auto *moved = new llvm::GlobalVariable(
        module, old->getValueType(), old->isConstant(), old->getLinkage(),
        old->hasInitializer() ? old->getInitializer() : nullptr, old->getName() + ".shared",
        nullptr, llvm::GlobalValue::NotThreadLocal, 3);
    moved->setAlignment(old->getAlign());
    old->replaceAllUsesWith(llvm::ConstantExpr::getAddrSpaceCast(moved, old->getType()));
    std::string name = old->getName().str();
    old->eraseFromParent();
    moved->setName(name);
  }
}

// Intrinsics of old GPU front ends and back ends -> today's NVVM ones.
void renameOldIntrinsics(llvm::Module &module) {
  llvm::SmallVector<std::pair<std::string, std::string>> renames = {
      {"llvm.cuda.syncthreads", "llvm.nvvm.barrier0"}};
  for (const char *reg : {"tid", "ntid", "ctaid", "nctaid"})
    for (const char *axis : {"x", "y", "z"})
      renames.push_back({std::string("llvm.ptx.read.") + reg + "." + axis,
                         std::string("llvm.nvvm.read.ptx.sreg.") + reg + "." + axis});
  for (auto &[from, to] : renames) {
    llvm::Function *old = module.getFunction(from);
    if (!old || !old->isDeclaration())
      continue;
    llvm::FunctionCallee replacement = module.getOrInsertFunction(to, old->getFunctionType());
    old->replaceAllUsesWith(replacement.getCallee());
    old->eraseFromParent();
  }
  if (llvm::Function *barSync = module.getFunction("llvm.ptx.bar.sync")) {
    llvm::FunctionCallee barrier = module.getOrInsertFunction(
        "llvm.nvvm.barrier0", llvm::Type::getVoidTy(module.getContext()));
    for (llvm::User *user : llvm::make_early_inc_range(barSync->users()))
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(user)) {
        llvm::CallInst *replacement = llvm::CallInst::Create(barrier, {}, "", call->getIterator());
        replacement->setDebugLoc(call->getDebugLoc());
        call->eraseFromParent();
      }
    if (barSync->use_empty())
      barSync->eraseFromParent();
  }
}

} // namespace

void finishOldIrUpgrade(llvm::Module &module, const OldIrRewrite &rewrite,
                        std::vector<std::string> &notes) {
  rebuildDebugLocations(module, rewrite, notes);
  moveSharedSectionGlobals(module);
  renameOldIntrinsics(module);
}

} // namespace simulee::ir
