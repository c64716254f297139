#include "ir/Loader.h"

#include "ir/CudaInstallation.h"
#include "ir/EmbeddedHeaders.h"
#include "ir/Lowering.h"
#include "ir/ModulePreparation.h"
#include "ir/WrapperPch.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>

#include <fstream>
#include <mutex>
#include <sstream>

namespace simulee::ir {
namespace {

std::string readWholeFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

} // namespace

// Writes the embedded device headers into a private temporary directory once
// per process and returns it.
Result<std::string> deviceHeaderDirectory() {
  static std::once_flag once;
  static std::string dir;
  static std::string error;
  std::call_once(once, [] {
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createUniqueDirectory("simulee-include", path)) {
      error = "cannot create a temporary directory for the device headers";
      return;
    }
    for (const EmbeddedHeader &header : embeddedDeviceHeaders()) {
      llvm::SmallString<128> file(path);
      llvm::sys::path::append(file, header.name);
      std::ofstream out(file.str().str(), std::ios::binary);
      out << header.content;
      if (!out) {
        error = "cannot write device header " + file.str().str();
        return;
      }
    }
    dir = path.str().str();
  });
  if (!error.empty())
    return makeError(error);
  return dir;
}

namespace {

std::string clangPath() {
  if (const char *env = std::getenv("SIMULEE_CLANG"))
    return env;
  return SIMULEE_CLANG_PATH;
}

// Runs clang on a .cu file and returns the path of the bitcode it wrote.
Result<std::string> compileCuda(const std::string &path, const LoadOptions &options) {
  Result<std::string> includeDir = deviceHeaderDirectory();
  if (!includeDir)
    return includeDir.error();

  llvm::SmallString<128> output, diagnostics;
  llvm::sys::fs::createTemporaryFile("simulee", "bc", output);
  llvm::sys::fs::createTemporaryFile("simulee", "err", diagnostics);

  Result<std::optional<CudaInstallation>> cuda = findCudaInstallation(options.cudaPath);
  if (!cuda)
    return cuda.error();
  llvm::SmallString<128> dependencies;
  llvm::sys::fs::createTemporaryFile("simulee", "d", dependencies);

  std::vector<std::string> args = {clangPath(), "-x", "cuda", "--cuda-device-only",
                                   "--cuda-gpu-arch=sm_70", "-g", "-fno-discard-value-names"};
  std::vector<std::string> headerArgs = cudaHeaderArgs(*cuda, *includeDir);
  args.insert(args.end(), headerArgs.begin(), headerArgs.end());
  if (options.optLevel <= 0) {
    args.insert(args.end(), {"-O0", "-Xclang", "-disable-O0-optnone"});
  } else {
    args.push_back("-O" + std::to_string(std::min(options.optLevel, 3)));
  }
  std::optional<std::string> pch = *cuda ? wrapperPch(args, {*includeDir}) : std::nullopt;
  args.insert(args.end(), {"-emit-llvm", "-c", "-MD", "-MF", dependencies.str().str()});
  if (pch)
    args.insert(args.end(), {"-Xclang", "-include-pch", "-Xclang", *pch});
  args.insert(args.end(), options.extraClangArgs.begin(), options.extraClangArgs.end());
  args.insert(args.end(), {path, "-o", output.str().str()});

  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, diagnostics.str(), diagnostics.str()};
  std::vector<std::string> environment = clangEnvironment();
  std::vector<llvm::StringRef> environmentRefs(environment.begin(), environment.end());
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(args[0], argRefs, environmentRefs, redirects, 120, 0,
                                     &execError);
  std::string clangOutput = readWholeFile(diagnostics.str().str());
  llvm::sys::fs::remove(diagnostics);
  Status ownHeadersOnly = Ok{};
  if (*cuda)
    ownHeadersOnly = checkNoForeignCudaHeaders(dependencies.str().str(), **cuda, *includeDir, path);
  llvm::sys::fs::remove(dependencies);
  if (rc != 0) {
    llvm::sys::fs::remove(output);
    if (rc < 0)
      return makeError(path + ": cannot run clang (" + args[0] + "): " + execError);
    while (!clangOutput.empty() && clangOutput.back() == '\n')
      clangOutput.pop_back();
    return makeError(path + ": compilation failed:\n" + clangOutput);
  }
  if (!ownHeadersOnly) {
    llvm::sys::fs::remove(output);
    return ownHeadersOnly.error();
  }
  return output.str().str();
}

// mem2reg and SROA, so values live in registers the way optimised code has
// them, while every load and store of real memory stays.
void promoteAllocas(llvm::Module &module) {
  llvm::PassBuilder builder;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cam;
  llvm::ModuleAnalysisManager mam;
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cam, mam);

  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::SROAPass(llvm::SROAOptions::PreserveCFG));
  fpm.addPass(llvm::PromotePass());
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm.run(module, mam);
}

Result<Program> finish(std::unique_ptr<llvm::LLVMContext> context,
                       std::unique_ptr<llvm::Module> module, const std::string &path,
                       bool promote) {
  std::string verifyErrors;
  llvm::raw_string_ostream verifyOut(verifyErrors);
  if (llvm::verifyModule(*module, &verifyOut)) {
    verifyOut.flush();
    return makeError(path + ": invalid LLVM IR: " + verifyErrors);
  }
  Status prepared = prepareModule(*module);
  if (!prepared)
    return makeError(path + ": " + prepared.error().message);
  if (promote)
    promoteAllocas(*module);
  Program program;
  program.path = path;
  program.context = std::move(context);
  program.module = std::move(module);
  Status lowered = lowerProgram(program);
  if (!lowered)
    return lowered.error();
  return program;
}

Result<Program> parseIR(std::unique_ptr<llvm::MemoryBuffer> buffer, const std::string &path,
                        bool promote) {
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseIR(buffer->getMemBufferRef(), diagnostic, *context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream out(message);
    diagnostic.print(nullptr, out, false);
    out.flush();
    while (!message.empty() && message.back() == '\n')
      message.pop_back();
    return makeError(path + ": cannot parse LLVM IR: " + message);
  }
  return finish(std::move(context), std::move(module), path, promote);
}

bool endsWith(const std::string &s, const char *suffix) {
  return llvm::StringRef(s).ends_with_insensitive(suffix);
}

} // namespace

Result<Program> loadProgram(const std::string &path, const LoadOptions &options) {
  if (!llvm::sys::fs::exists(path))
    return makeError(path + ": no such file");
  if (llvm::sys::fs::is_directory(path))
    return makeError(path + ": is a directory, not a kernel file");

  bool isCuda = endsWith(path, ".cu") || endsWith(path, ".cuh");
  std::string irPath = path;
  if (isCuda) {
    Result<std::string> compiled = compileCuda(path, options);
    if (!compiled)
      return compiled.error();
    irPath = *compiled;
  } else if (!endsWith(path, ".ll") && !endsWith(path, ".bc")) {
    return makeError(path + ": unknown file type (expected .cu, .ll or .bc)");
  }

  auto buffer = llvm::MemoryBuffer::getFile(irPath);
  if (isCuda)
    llvm::sys::fs::remove(irPath);
  if (!buffer)
    return makeError(path + ": cannot read: " + buffer.getError().message());
  return parseIR(std::move(*buffer), path, isCuda && options.optLevel <= 0);
}

Result<Program> loadProgramFromIR(const std::string &irText, const std::string &name) {
  return parseIR(llvm::MemoryBuffer::getMemBufferCopy(irText, name), name, false);
}

Result<Program> loadProgramFromCuda(const std::string &source, const std::string &name,
                                    const LoadOptions &options) {
  llvm::SmallString<128> path;
  int fd = -1;
  if (llvm::sys::fs::createTemporaryFile("simulee-src", "cu", fd, path))
    return makeError(name + ": cannot create a temporary file");
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << source;
  }
  Result<Program> program = loadProgram(path.str().str(), options);
  llvm::sys::fs::remove(path);
  if (!program) {
    std::string message = program.error().message;
    size_t at = message.find(path.str().str());
    while (at != std::string::npos) {
      message.replace(at, path.size(), name);
      at = message.find(path.str().str(), at + name.size());
    }
    return makeError(message);
  }
  program->path = name;
  return program;
}

} // namespace simulee::ir
