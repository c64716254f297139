#include "host/HostIrLaunches.h"

#include "ir/CudaInstallation.h"
#include "ir/PassSetup.h"

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/SourceMgr.h>

#include <optional>
#include <set>
#include <tuple>

namespace simulee::host {
namespace {

bool isStub(const llvm::Function &function) {
  return function.getName().contains("__device_stub__");
}

// Whether the program's code may launch the kernel of `stub`: some function
// of its own (not the stub, not clang's registration of every kernel) calls
// the stub or takes its address, or a constant holds it (a table of kernel
// pointers).
bool mayLaunch(const llvm::Function &stub) {
  for (const llvm::User *user : stub.users()) {
    if (const auto *inst = llvm::dyn_cast<llvm::Instruction>(user)) {
      const llvm::Function *in = inst->getFunction();
      if (in != &stub && !in->getName().starts_with("__cuda_"))
        return true;
      continue;
    }
    bool listedOnly = llvm::isa<llvm::Constant>(user) && !user->user_empty();
    for (const llvm::User *holder : user->users()) {
      const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(holder);
      listedOnly = listedOnly && global &&
                   (global->getName() == "llvm.used" || global->getName() == "llvm.compiler.used");
    }
    if (!listedOnly)
      return true;
  }
  return false;
}

// The `__cudaPushCallConfiguration(grid xy, grid z, block xy, block z, ...)`
// clang emits for the `<<<>>>` whose stub call is `call`: before it in its
// block, or in the blocks that alone lead there (the push's result is
// tested first).
const llvm::CallBase *configurationOf(const llvm::CallBase &call) {
  const llvm::BasicBlock *block = call.getParent();
  const llvm::Instruction *inst = call.getPrevNode();
  for (int blocks = 0; blocks < 4; ++blocks) {
    for (; inst; inst = inst->getPrevNode())
      if (const auto *push = llvm::dyn_cast<llvm::CallBase>(inst))
        if (const llvm::Function *callee = push->getCalledFunction())
          if (callee->getName() == "__cudaPushCallConfiguration" && push->arg_size() >= 4)
            return push;
    block = block->getSinglePredecessor();
    if (!block)
      return nullptr;
    inst = &block->back();
  }
  return nullptr;
}

// A dim3 as the x86-64 host passes it: x and y packed in an i64, z an i32.
void dimsOf(const llvm::Value *xy, const llvm::Value *z, const char *what, SiteValue (&dims)[3]) {
  const auto *packed = llvm::dyn_cast<llvm::ConstantInt>(xy);
  const auto *last = llvm::dyn_cast<llvm::ConstantInt>(z);
  std::string text = std::string(what) + " of the compiled host code";
  dims[0] = packed ? SiteValue::ofInteger(int64_t(packed->getZExtValue() & 0xffffffffu), "")
                   : SiteValue::unknown(text);
  dims[1] = packed ? SiteValue::ofInteger(int64_t(packed->getZExtValue() >> 32), "")
                   : SiteValue::unknown(text);
  dims[2] = last ? SiteValue::ofInteger(int64_t(last->getZExtValue()), "")
                 : SiteValue::unknown(text);
}

// The file of `location`, as the syntax-tree reader names it: `source` as
// the user spelled it, another file by its full path (clang may record a
// name relative to a directory it shares with the working directory).
std::string fileOf(const llvm::DILocation &location, const std::string &source) {
  llvm::SmallString<256> full(location.getFilename());
  if (!llvm::sys::path::is_absolute(full)) {
    full = location.getDirectory();
    llvm::sys::path::append(full, location.getFilename());
  }
  llvm::SmallString<256> real, sourceReal;
  if (!llvm::sys::fs::real_path(full, real) && !llvm::sys::fs::real_path(source, sourceReal) &&
      real == sourceReal)
    return source;
  return full.str().str();
}

// "k<32>" of "void k<32>(float*, int)": the name up to its parameter list.
std::string sourceNameOf(const std::string &symbol) {
  std::string demangled = llvm::demangle(symbol);
  int depth = 0;
  for (size_t i = 0; i < demangled.size(); ++i) {
    char c = demangled[i];
    if (c == '<')
      ++depth;
    else if (c == '>')
      --depth;
    else if (c == '(' && depth == 0)
      demangled.resize(i);
  }
  // Past a return type ("void k<32>"): the last word at depth 0.
  depth = 0;
  for (size_t i = demangled.size(); i-- > 0;) {
    char c = demangled[i];
    if (c == '>')
      ++depth;
    else if (c == '<')
      --depth;
    else if (c == ' ' && depth == 0)
      return demangled.substr(i + 1);
  }
  return demangled;
}

} // namespace

std::optional<CompiledLaunches> launchesInHostIr(const std::vector<std::string> &compileArgs,
                                                 const std::string &source) {
  llvm::SmallString<128> output, log;
  if (llvm::sys::fs::createTemporaryFile("simulee-host", "bc", output) ||
      llvm::sys::fs::createTemporaryFile("simulee-host", "log", log))
    return std::nullopt;
  std::vector<std::string> command = compileArgs;
  command.insert(command.end(), {"-emit-llvm", "-o", output.str().str()});
  std::vector<llvm::StringRef> argRefs(command.begin(), command.end());
  std::vector<std::string> environment = ir::clangEnvironment();
  std::vector<llvm::StringRef> environmentRefs(environment.begin(), environment.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(), log.str()};
  int rc = llvm::sys::ExecuteAndWait(command[0], argRefs, environmentRefs, redirects, 120);
  llvm::sys::fs::remove(log);
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      rc == 0 ? llvm::parseIRFile(output, error, context) : nullptr;
  llvm::sys::fs::remove(output);
  if (!module)
    return std::nullopt;

  // Launchers inlined into their callers and folded, so that a template's
  // dims are constants at each launch; the stubs kept as calls, each next
  // to its launch's configuration.
  // (clang's -O0 marks every function noinline.) Template instances and
  // inline functions, which this file emits only for its own calls, become
  // internal, so that constants flow into them from their callers.
  for (llvm::Function &function : *module) {
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    function.removeFnAttr(llvm::Attribute::NoInline);
    if (isStub(function)) {
      function.removeFnAttr(llvm::Attribute::AlwaysInline);
      function.addFnAttr(llvm::Attribute::NoInline);
    } else if (!function.isDeclaration() && (function.hasLinkOnceODRLinkage() ||
                                             function.hasWeakODRLinkage())) {
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
      function.setComdat(nullptr);
    }
  }
  ir::PassSetup passes;
  passes.builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O1)
      .run(*module, passes.modules);

  CompiledLaunches found;
  for (const llvm::Function &function : *module)
    if (isStub(function) && mayLaunch(function))
      found.kernels.insert(deviceSymbol(function.getName().str()));
  std::vector<CallSite> &sites = found.sites;
  std::set<std::tuple<std::string, std::string, uint32_t, std::string>> seen;
  for (const llvm::Function &function : *module) {
    if (function.isDeclaration() || isStub(function))
      continue;
    for (const llvm::BasicBlock &block : function)
      for (const llvm::Instruction &inst : block) {
        const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
        const llvm::Function *stub = call ? call->getCalledFunction() : nullptr;
        if (!stub || !isStub(*stub))
          continue;
        const llvm::CallBase *push = configurationOf(*call);
        if (!push)
          continue;
        CallSite site;
        site.mangledName = deviceSymbol(stub->getName().str());
        site.kernel = sourceNameOf(site.mangledName);
        dimsOf(push->getArgOperand(0), push->getArgOperand(1), "grid", site.grid);
        dimsOf(push->getArgOperand(2), push->getArgOperand(3), "block", site.block);
        const auto *shared =
            push->arg_size() > 4 ? llvm::dyn_cast<llvm::ConstantInt>(push->getArgOperand(4)) : nullptr;
        site.sharedBytes = shared ? SiteValue::ofInteger(int64_t(shared->getZExtValue()), "")
                                  : SiteValue::unknown("");
        for (const llvm::Use &argument : call->args()) {
          if (const auto *integer = llvm::dyn_cast<llvm::ConstantInt>(argument.get())) {
            unsigned bits = integer->getBitWidth();
            site.loweredArguments.push_back(
                bits == 1    ? SiteValue::ofInteger(int64_t(integer->getZExtValue()), "")
                : bits <= 64 ? SiteValue::ofInteger(integer->getSExtValue(), "")
                             : SiteValue::unknown(""));
          } else if (const auto *real = llvm::dyn_cast<llvm::ConstantFP>(argument.get())) {
            llvm::APFloat value = real->getValueAPF();
            bool lossy = false;
            value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lossy);
            site.loweredArguments.push_back(SiteValue::ofReal(value.convertToDouble(), ""));
          } else
            site.loweredArguments.push_back(SiteValue::unknown(""));
        }
        bool known = false;
        for (unsigned axis = 0; axis < 3; ++axis)
          known = known || site.grid[axis].isConstant() || site.block[axis].isConstant();
        if (!known)
          continue;
        // Where the `<<<` is written: the innermost frame of an inlined launcher.
        if (const llvm::DILocation *location = call->getDebugLoc().get()) {
          site.file = fileOf(*location, source);
          site.line = location->getLine();
          site.column = location->getColumn();
        }
        std::string dims;
        for (const SiteValue *axis : {&site.grid[0], &site.grid[1], &site.grid[2], &site.block[0],
                                      &site.block[1], &site.block[2]})
          dims += axis->isConstant() ? std::to_string(axis->integer) + "," : "?,";
        if (seen.insert({site.mangledName, site.file, site.line, dims}).second)
          sites.push_back(std::move(site));
      }
  }
  return found;
}

} // namespace simulee::host
