#include "ir/Program.h"

#include <algorithm>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

namespace simulee::ir {

Program::Program() = default;
Program::~Program() {
  // The module must die before its context.
  module.reset();
  context.reset();
}
Program::Program(Program &&) noexcept = default;
Program &Program::operator=(Program &&) noexcept = default;

const KernelInfo *Program::findKernel(const std::string &name) const {
  for (const KernelInfo &kernel : kernels)
    if (kernel.name == name || kernel.sourceName == name)
      return &kernel;
  return nullptr;
}

std::string Program::overloadParameters(const KernelInfo &kernel) const {
  bool overloaded = std::any_of(kernels.begin(), kernels.end(), [&](const KernelInfo &other) {
    return other.sourceName == kernel.sourceName && other.name != kernel.name;
  });
  return overloaded ? kernel.parameters : "";
}

std::string Program::instructionText(uint32_t id) const {
  if (id >= instructions.size() || !instructions[id].llvm)
    return "<unknown instruction>";
  std::string text;
  llvm::raw_string_ostream out(text);
  instructions[id].llvm->print(out);
  out.flush();
  // Drop leading indentation and trailing metadata attachments.
  size_t begin = text.find_first_not_of(' ');
  size_t meta = text.find(", !");
  return text.substr(begin == std::string::npos ? 0 : begin,
                     meta == std::string::npos ? std::string::npos : meta - begin);
}

std::string Program::functionName(uint32_t id) const {
  if (id >= instructions.size())
    return "?";
  uint32_t fn = instructions[id].function;
  if (fn >= functions.size())
    return "?";
  for (const KernelInfo &kernel : kernels)
    if (kernel.function == fn)
      return kernel.sourceName;
  const llvm::Instruction *inst = instructions[id].llvm;
  if (inst)
    if (const llvm::DISubprogram *sp = inst->getFunction()->getSubprogram())
      return sp->getName().str();
  return functions[fn].name;
}

} // namespace simulee::ir
