#include "ir/Loader.h"
#include "ir/LaunchSyntax.h"
#include "ir/PassSetup.h"

#include "ir/CudaInstallation.h"
#include "ir/EmbeddedHeaders.h"
#include "ir/IncludeClosure.h"
#include "ir/Lowering.h"
#include "ir/ModulePreparation.h"
#include "ir/OldIrUpgrade.h"
#include "ir/WrapperPch.h"
#include "support/ChildProcess.h"
#include "support/FileText.h"
#include "support/MemoryLimit.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace simulee::ir {
namespace {

thread_local std::string loadingPath; // for the fatal-error handler's message
// Where that message goes: standard error, or in a parsing child (below) the
// pipe to its parent.
int fatalErrorFd = STDERR_FILENO;

// LLVM's fatal errors (and its allocation failures) end the process; make
// that one `simulee: error:` line and exit status 2 instead of an abort.
[[noreturn]] void llvmFatalError(void *, const char *reason, bool) {
  std::string line = "simulee: error: " + (loadingPath.empty() ? "" : loadingPath + ": ") +
                     "LLVM: " + reason + "\n";
  ssize_t ignored = ::write(fatalErrorFd, line.data(), line.size());
  (void)ignored;
  std::_Exit(2);
}

void installLLVMErrorHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::install_fatal_error_handler(llvmFatalError);
    llvm::install_bad_alloc_error_handler(llvmFatalError);
    // The parsers' automatic debug-info upgrade calls the fatal handler on a
    // module that does not verify; verify() does its work with an error.
    llvm::StringMap<llvm::cl::Option *> &options = llvm::cl::getRegisteredOptions();
    if (auto it = options.find("disable-auto-upgrade-debug-info"); it != options.end())
      it->second->addOccurrence(0, it->first(), "true");
  });
}

// Writes the embedded device headers into the directory `path`.
Status writeDeviceHeaders(const std::string &path) {
  for (const EmbeddedHeader &header : embeddedDeviceHeaders()) {
    llvm::SmallString<128> file(path);
    llvm::sys::path::append(file, header.name); // may name a subdirectory (nvtx3/)
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(file));
    std::ofstream out(file.str().str(), std::ios::binary);
    out << header.content;
    if (!out)
      return makeError("cannot write device header " + file.str().str());
  }
  return Ok{};
}

// Another build's headers in the cache written over a month ago go when a
// new set is written, and so do partial directories a killed process left.
void pruneOldDeviceHeaders(const llvm::SmallString<256> &directory, llvm::StringRef current) {
  auto now = std::chrono::system_clock::now();
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    llvm::StringRef path = it->path();
    llvm::sys::fs::file_status status;
    if (path == current || !llvm::sys::path::filename(path).starts_with("include-") ||
        llvm::sys::fs::status(path, status))
      continue;
    auto age = now - status.getLastModificationTime();
    if (age > std::chrono::hours(path.ends_with(".tmp") ? 24 : 24 * 30))
      llvm::sys::fs::remove_directories(path, /*IgnoreErrors=*/true);
  }
}

// The embedded device headers in a directory of the user's cache named by
// their contents (~/.cache/simulee/include-HASH): written once, atomically
// (into a unique directory, then renamed), and shared by every process of
// this build, so that one killed by a timeout or Ctrl-C leaves nothing
// behind. Empty where the cache cannot be written.
std::string cachedDeviceHeaders() {
  llvm::SHA256 hash;
  for (const EmbeddedHeader &header : embeddedDeviceHeaders()) {
    hash.update(std::string(header.name) + '\0');
    hash.update(header.content);
    hash.update(llvm::StringRef("\0", 1));
  }
  llvm::SmallString<256> directory;
  if (!llvm::sys::path::cache_directory(directory))
    return "";
  llvm::sys::path::append(directory, "simulee");
  if (llvm::sys::fs::create_directories(directory))
    return "";
  llvm::SmallString<256> final(directory), partial(directory);
  llvm::sys::path::append(final,
                          "include-" + llvm::toHex(hash.final(), /*LowerCase=*/true).substr(0, 24));
  // The last file written: a directory without it is a racer's, or broken.
  auto isComplete = [](const llvm::SmallString<256> &dir) {
    llvm::SmallString<256> marker(dir);
    llvm::sys::path::append(marker, ".complete");
    return llvm::sys::fs::exists(marker);
  };
  if (isComplete(final))
    return final.str().str();
  llvm::sys::path::append(partial, "include-%%%%%%.tmp");
  llvm::SmallString<256> unique;
  if (llvm::sys::fs::createUniqueDirectory(partial, unique))
    return "";
  llvm::SmallString<256> marker(unique);
  llvm::sys::path::append(marker, ".complete");
  bool written = writeDeviceHeaders(unique.str().str()).ok() &&
                 static_cast<bool>(std::ofstream(marker.str().str()) << "complete\n");
  // A racer's directory, renamed first, stays (this rename then fails): a
  // process may be reading it.
  if (!written || llvm::sys::fs::rename(unique, final))
    llvm::sys::fs::remove_directories(unique, /*IgnoreErrors=*/true);
  else
    pruneOldDeviceHeaders(directory, final);
  return isComplete(final) ? final.str().str() : "";
}

// The embedded device headers: in the user's cache, or else in a private
// temporary directory removed with everything in it when this object goes
// away.
class DeviceIncludeDir {
public:
  DeviceIncludeDir() {
    if (std::string cached = cachedDeviceHeaders(); !cached.empty()) {
      path_ = cached;
      return;
    }
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createUniqueDirectory("simulee-include", path)) {
      error_ = "cannot create a temporary directory for the device headers";
      return;
    }
    path_ = path.str().str();
    owned_ = true;
    if (Status written = writeDeviceHeaders(path_); !written)
      error_ = written.error().message;
  }
  ~DeviceIncludeDir() {
    if (owned_)
      llvm::sys::fs::remove_directories(path_, /*IgnoreErrors=*/true);
  }
  DeviceIncludeDir(const DeviceIncludeDir &) = delete;
  DeviceIncludeDir &operator=(const DeviceIncludeDir &) = delete;

  const std::string &error() const { return error_; }
  const std::string &path() const { return path_; }

private:
  std::string path_, error_;
  bool owned_ = false; // a temporary directory of this process
};

} // namespace

// One directory per build of simulee (or per process, removed when it exits
// normally), shared by every compile and the host-side read (host/).
Result<std::string> deviceHeaderDirectory() {
  static DeviceIncludeDir directory;
  if (!directory.error().empty())
    return makeError(directory.error());
  return directory.path();
}

std::string clangPath() {
  if (const char *env = std::getenv("SIMULEE_CLANG"))
    return env;
  return SIMULEE_CLANG_PATH;
}

namespace {

// Runs clang on a .cu file and returns the path of the bitcode it wrote.
// Files linked together are compiled with relocatable device code.
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
                                   kDeviceCodeArchFlag, "-g", "-fno-discard-value-names"};
  // Every class's layout in the debug info, also where the device code never
  // runs a constructor of it: clang otherwise describes a class only where
  // its constructor is compiled ("constructor homing"), so a by-value
  // parameter struct with a host-side constructor (a functor, `Store(T *p,
  // int64_t n)`) would have no members to name, size or search.
  args.insert(args.end(), {"-Xclang", "-fno-use-ctor-homing"});
  std::vector<std::string> headerArgs = cudaHeaderArgs(*cuda, *includeDir);
  args.insert(args.end(), headerArgs.begin(), headerArgs.end());
  if (options.optLevel <= 0) {
    args.insert(args.end(), {"-O0", "-Xclang", "-disable-O0-optnone"});
  } else {
    args.push_back("-O" + std::to_string(std::min(options.optLevel, 3)));
  }
  if (!options.linkFiles.empty())
    args.push_back("-fgpu-rdc");
  std::optional<std::string> pch = *cuda ? wrapperPch(args, {*includeDir}) : std::nullopt;
  args.insert(args.end(), {"-emit-llvm", "-c", "-MD", "-MF", dependencies.str().str()});
  // After the PCH, which must not name simulee's per-run header directory.
  std::vector<std::string> flags = nvccCompatIncludeArgs(*cuda);
  flags.insert(flags.end(), options.extraClangArgs.begin(), options.extraClangArgs.end());
  // Spaced launch chevrons (`k << <g, b >> > (...)`): a joined copy.
  Result<CompileInput> joined = CompileInput::of(path);
  if (!joined)
    return joined.error();
  std::optional<CompileInput> input(std::move(*joined));
  std::vector<std::string> tail;
  auto setInput = [&] {
    tail = flags;
    std::vector<std::string> inputArgs = input->arguments();
    tail.insert(tail.end(), inputArgs.begin(), inputArgs.end());
    tail.insert(tail.end(), {"-o", output.str().str()});
  };
  setInput();

  std::vector<std::string> environment = clangEnvironment();
  std::vector<llvm::StringRef> environmentRefs(environment.begin(), environment.end());
  std::string execError, clangOutput;
  auto runClang = [&](bool withPch) {
    std::vector<std::string> command = args;
    if (withPch)
      command.insert(command.end(), {"-Xclang", "-include-pch", "-Xclang", *pch});
    command.insert(command.end(), tail.begin(), tail.end());
    std::vector<llvm::StringRef> argRefs(command.begin(), command.end());
    std::optional<llvm::StringRef> redirects[] = {std::nullopt, diagnostics.str(),
                                                  diagnostics.str()};
    int rc = llvm::sys::ExecuteAndWait(command[0], argRefs, environmentRefs, redirects, 120, 0,
                                       &execError);
    clangOutput = readWholeFile(diagnostics.str().str());
    llvm::sys::fs::remove(diagnostics); // clang's redirect does not truncate a second run's
    return rc;
  };
  bool withPch = pch.has_value();
  int rc = runClang(withPch);
  if (rc > 0 && pch && isStaleWrapperPch(clangOutput)) {
    // A header the PCH was built from changed, or the file is broken:
    // compile without it, and let the next compile build a fresh one.
    discardWrapperPch(*pch);
    withPch = false;
    rc = runClang(withPch);
  }
  // Shared declarations nvcc accepts and clang refused: a copy written as
  // clang accepts them (CompileInput), compiled once more.
  if (RefusedSharedDeclarationsByFile refused = refusedSharedDeclarations(clangOutput);
      rc > 0 && !refused.empty()) {
    Result<CompileInput> rewritten = CompileInput::of(path, refused);
    if (!rewritten)
      return rewritten.error();
    input.emplace(std::move(*rewritten));
    setInput();
    rc = runClang(withPch);
  }
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
    // Headers of another CUDA toolkit (a system-wide CUDA 13's cublas_v2.h
    // beside NVIDIA's CUDA 12 wheels) break the compile in ways that name
    // no cause: the cause first, then the compiler's first error.
    if (!ownHeadersOnly) {
      size_t error = clangOutput.find("error: ");
      std::string first = error == std::string::npos
                              ? ""
                              : clangOutput.substr(error, clangOutput.find('\n', error) - error);
      return makeError(ownHeadersOnly.error().message +
                       (first.empty() ? "" : " (the compile failed: " + first + ")"));
    }
    if (*cuda && (clangOutput.find("no template named 'texture'") != std::string::npos ||
                  clangOutput.find("no template named 'surface'") != std::string::npos))
      clangOutput += "\nnote: texture and surface references (texture<T, N> and surface<void, N> "
                     "globals) were removed in CUDA 12, whose headers simulee compiles against; "
                     "pass a cudaTextureObject_t or cudaSurfaceObject_t kernel parameter instead";
    if (clangOutput.find("reference to __global__ function") != std::string::npos &&
        clangOutput.find("in __global__ function") != std::string::npos)
      clangOutput += "\nnote: a kernel launching kernels (dynamic parallelism) needs nvcc's "
                     "-rdc device runtime, which clang does not implement; simulee cannot "
                     "analyse this file";
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
  PassSetup passes;
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::SROAPass(llvm::SROAOptions::PreserveCFG));
  fpm.addPass(llvm::PromotePass());
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm.run(module, passes.modules);
}

// Verifies the module the way LLVM's own debug-info upgrade would, but with
// the verifier's message as an error instead of LLVM's fatal handler: broken
// IR is refused, broken or outdated debug info is dropped.
Status verify(llvm::Module &module, const std::string &path) {
  std::string verifyErrors;
  llvm::raw_string_ostream verifyOut(verifyErrors);
  bool brokenDebugInfo = false;
  if (llvm::verifyModule(module, &verifyOut, &brokenDebugInfo)) {
    verifyOut.flush();
    std::string first = verifyErrors.substr(0, verifyErrors.find('\n'));
    return makeError(path + ": invalid LLVM IR: " + first);
  }
  if (brokenDebugInfo || llvm::getDebugMetadataVersionFromModule(module) !=
                             llvm::DEBUG_METADATA_VERSION)
    llvm::StripDebugInfo(module);
  return Ok{};
}

// The program owns context and module (the module is destroyed first), so
// no error path can free the context under a live module.
Result<Program> finish(Program program, bool promote) {
  if (Status verified = verify(*program.module, program.path); !verified)
    return verified.error();
  Status prepared = prepareModule(*program.module);
  if (!prepared)
    return makeError(program.path + ": " + prepared.error().message);
  if (promote)
    promoteAllocas(*program.module);
  Status lowered = lowerProgram(program);
  if (!lowered)
    return lowered.error();
  return program;
}

std::string parserMessage(const llvm::SMDiagnostic &diagnostic) {
  std::string message;
  llvm::raw_string_ostream out(message);
  diagnostic.print(nullptr, out, false);
  out.flush();
  while (!message.empty() && message.back() == '\n')
    message.pop_back();
  return message;
}

// Parses IR text or bitcode (LLVM's own upgrader reads old bitcode and old
// intrinsics). Text from old releases the parser refuses is rewritten into
// today's syntax first (OldIrUpgrade.h); what that could not keep is added
// to `notes`.
Result<std::unique_ptr<llvm::Module>> parseModule(const llvm::MemoryBuffer &buffer,
                                                  const std::string &path,
                                                  llvm::LLVMContext &context,
                                                  std::vector<std::string> &notes) {
  installLLVMErrorHandlers();
  loadingPath = path;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseIR(buffer.getMemBufferRef(), diagnostic, context);
  if (module)
    return module;
  bool bitcode = llvm::isBitcode(reinterpret_cast<const unsigned char *>(buffer.getBufferStart()),
                                 reinterpret_cast<const unsigned char *>(buffer.getBufferEnd()));
  if (bitcode)
    return makeError(path +
                     ": cannot read LLVM bitcode (LLVM 19 reads bitcode of every release "
                     "since 3.0; this is damaged or from a newer one): " +
                     parserMessage(diagnostic));
  if (!looksLikeOldIr(buffer.getBuffer()))
    return makeError(path + ": cannot parse LLVM IR: " + parserMessage(diagnostic));
  OldIrRewrite rewrite = rewriteOldIr(buffer.getBuffer());
  llvm::SMDiagnostic upgradedDiagnostic;
  module = llvm::parseIR(llvm::MemoryBufferRef(rewrite.text, path), upgradedDiagnostic, context);
  if (!module)
    return makeError(path +
                     ": cannot parse LLVM IR of an old release (after upgrading its "
                     "syntax): " +
                     parserMessage(upgradedDiagnostic));
  finishOldIrUpgrade(*module, rewrite, notes);
  return module;
}

// Seconds LLVM's reader may take on one untrusted file in the child.
constexpr unsigned kChildParseSeconds = 120;
// Memory reading an untrusted file may take: 1 GiB, or 256 bytes per byte of
// the file where that is more. A few flipped bits of bitcode can name an
// attribute of parameter 2^28, for which LLVM's reader builds tables of
// gigabytes: such a file is refused, not read a second time here.
uint64_t childParseBytes(const llvm::MemoryBuffer &buffer) {
  return std::max<uint64_t>(uint64_t(1) << 30, saturatingMultiply(buffer.getBufferSize(), 256));
}

// LLVM's readers trust their input: a bit-flipped bitcode file can send the
// reader through a wild pointer. So untrusted IR (a .ll or .bc file given to
// simulee, IR text from Python) is parsed and verified first in a child
// process; a crash or hang there is an error naming the file, and only IR
// that parsed there is parsed here. IR clang just compiled is trusted.
Status parsesInChild(const llvm::MemoryBuffer &buffer, const std::string &path) {
  // The handlers' one-time set-up takes LLVM's global locks. Done here, in
  // the parent, a child never does it: one forked while another scan thread
  // held those locks would wait on them for ever (the hang is killed only
  // after kChildParseSeconds).
  installLLVMErrorHandlers();
  bool bitcode = llvm::isBitcode(reinterpret_cast<const unsigned char *>(buffer.getBufferStart()),
                                 reinterpret_cast<const unsigned char *>(buffer.getBufferEnd()));
  std::string malformed = path + ": malformed " + (bitcode ? "LLVM bitcode" : "LLVM IR");
  ChildOutcome outcome = runInChild(
      [&](int reportFd) {
        fatalErrorFd = reportFd;
        uint64_t peakBefore = peakResidentBytes();
        llvm::LLVMContext context;
        std::vector<std::string> notes;
        Result<std::unique_ptr<llvm::Module>> module = parseModule(buffer, path, context, notes);
        if (!module)
          return module.error().message;
        if (uint64_t grown = peakResidentBytes() - peakBefore; grown > childParseBytes(buffer))
          return malformed + ": reading it took " + std::to_string(grown >> 20) +
                 " MiB of memory, more than a file of " + std::to_string(buffer.getBufferSize()) +
                 " bytes can need";
        Status verified = verify(**module, path);
        return verified ? std::string() : verified.error().message;
      },
      kChildParseSeconds);
  switch (outcome.kind) {
  case ChildOutcome::Kind::Finished:
    if (outcome.message.empty())
      return Ok{};
    return makeError(outcome.message);
  case ChildOutcome::Kind::Failed: {
    std::string message = outcome.message;
    if (message.rfind("simulee: error: ", 0) == 0)
      message.erase(0, std::strlen("simulee: error: "));
    while (!message.empty() && message.back() == '\n')
      message.pop_back();
    return makeError(message);
  }
  case ChildOutcome::Kind::Crashed:
    return makeError(malformed + ": LLVM's reader crashed on it" +
                     (outcome.signal ? " (signal " + std::to_string(outcome.signal) + ")" : ""));
  case ChildOutcome::Kind::TimedOut:
    return makeError(malformed + ": LLVM's reader did not finish within " +
                     std::to_string(kChildParseSeconds) + " s");
  case ChildOutcome::Kind::NoChild:
    break; // no child to be had: parse here, as for trusted IR
  }
  return Ok{};
}

Result<std::unique_ptr<llvm::Module>> parseModule(const llvm::MemoryBuffer &buffer,
                                                  const std::string &path,
                                                  llvm::LLVMContext &context,
                                                  std::vector<std::string> &notes,
                                                  bool trusted) {
  if (!trusted)
    if (Status parsed = parsesInChild(buffer, path); !parsed)
      return parsed.error();
  return parseModule(buffer, path, context, notes);
}

Result<Program> parseIR(std::unique_ptr<llvm::MemoryBuffer> buffer, const std::string &path,
                        bool trusted, bool promote) {
  Program program;
  program.path = path;
  program.context = std::make_unique<llvm::LLVMContext>();
  Result<std::unique_ptr<llvm::Module>> module =
      parseModule(*buffer, path, *program.context, program.notes, trusted);
  if (!module)
    return module.error();
  program.module = std::move(*module);
  return finish(std::move(program), promote);
}

// Only regular files of a size the memory limit allows are read: a FIFO
// would block, a device (/dev/zero) never ends.
Status checkReadable(const std::string &path) {
  Result<uint64_t> size = regularFileSize(path);
  if (!size)
    return makeError(path + ": " + size.error().message);
  if (*size > memoryLimitBytes() / 4)
    return makeError(path + ": file of " + overMemoryLimit(*size * 4) +
                     " (a file may take a quarter)");
  return Ok{};
}

bool endsWith(const std::string &s, const char *suffix) {
  return llvm::StringRef(s).ends_with_insensitive(suffix);
}

bool isCudaPath(const std::string &path) { return endsWith(path, ".cu") || endsWith(path, ".cuh"); }

// The IR of one input file: a .cu compiled by clang, or a .ll/.bc as it is.
Result<std::unique_ptr<llvm::MemoryBuffer>> readIR(const std::string &path,
                                                   const LoadOptions &options) {
  if (Status readable = checkReadable(path); !readable)
    return readable.error();
  bool isCuda = isCudaPath(path);
  if (!isCuda && !endsWith(path, ".ll") && !endsWith(path, ".bc"))
    return makeError(path + ": unknown file type (expected .cu, .ll or .bc)");
  std::string irPath = path;
  if (isCuda) {
    // An #include of a FIFO would block clang until its time limit.
    if (std::string unreadable =
            includeClosureOf(path, includeDirsOf(options.extraClangArgs)).unreadable;
        !unreadable.empty())
      return makeError(unreadable);
    Result<std::string> compiled = compileCuda(path, options);
    if (!compiled)
      return compiled.error();
    irPath = *compiled;
  }
  auto buffer = llvm::MemoryBuffer::getFile(irPath);
  if (isCuda)
    llvm::sys::fs::remove(irPath);
  if (!buffer)
    return makeError(path + ": cannot read: " + buffer.getError().message());
  return std::move(*buffer);
}

// The linker's errors as text instead of LLVMContext's default (print, exit).
struct LinkDiagnostics : llvm::DiagnosticHandler {
  std::string errors;
  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (info.getSeverity() != llvm::DS_Error)
      return true;
    std::string text;
    llvm::raw_string_ostream out(text);
    llvm::DiagnosticPrinterRawOStream printer(out);
    info.print(printer);
    out.flush();
    errors += (errors.empty() ? "" : "; ") + text;
    return true;
  }
};

// `path` with every file of options.linkFiles linked in (llvm::Linker): a
// definition in one file resolves the other's declaration of it.
Result<Program> loadLinked(const std::string &path, const LoadOptions &options) {
  Result<std::unique_ptr<llvm::MemoryBuffer>> main = readIR(path, options);
  if (!main)
    return main.error();
  Program program;
  program.path = path;
  program.context = std::make_unique<llvm::LLVMContext>();
  Result<std::unique_ptr<llvm::Module>> module =
      parseModule(**main, path, *program.context, program.notes, isCudaPath(path));
  if (!module)
    return module.error();
  program.module = std::move(*module);
  bool anyCuda = isCudaPath(path);
  for (const std::string &other : options.linkFiles) {
    // A C++ file of the program's (its main) has no device code: only its
    // host code counts (host/CallSiteReader.h).
    if (endsWith(other, ".cpp") || endsWith(other, ".cc") || endsWith(other, ".cxx")) {
      if (Status readable = checkReadable(other); !readable)
        return readable.error();
      continue;
    }
    anyCuda = anyCuda || isCudaPath(other);
    Result<std::unique_ptr<llvm::MemoryBuffer>> buffer = readIR(other, options);
    if (!buffer)
      return buffer.error();
    Result<std::unique_ptr<llvm::Module>> linked =
        parseModule(**buffer, other, *program.context, program.notes, isCudaPath(other));
    if (!linked)
      return linked.error();
    // The data layouts and triples of clang's NVPTX output agree; a .ll
    // written elsewhere takes the main file's.
    (*linked)->setDataLayout(program.module->getDataLayout());
    (*linked)->setTargetTriple(program.module->getTargetTriple());
    auto collector = std::make_unique<LinkDiagnostics>();
    LinkDiagnostics *diagnostics = collector.get();
    std::unique_ptr<llvm::DiagnosticHandler> previous = program.context->getDiagnosticHandler();
    program.context->setDiagnosticHandler(std::move(collector));
    bool failed = llvm::Linker::linkModules(*program.module, std::move(*linked));
    std::string message = diagnostics->errors;
    program.context->setDiagnosticHandler(std::move(previous));
    if (failed)
      return makeError(path + ": cannot link " + other + ": " +
                       (message.empty() ? std::string("conflicting definitions") : message));
  }
  loadingPath = path;
  return finish(std::move(program), anyCuda && options.optLevel <= 0);
}

} // namespace

Result<Program> loadProgram(const std::string &path, const LoadOptions &options) {
  if (!options.linkFiles.empty())
    return loadLinked(path, options);
  Result<std::unique_ptr<llvm::MemoryBuffer>> buffer = readIR(path, options);
  if (!buffer)
    return buffer.error();
  bool cuda = isCudaPath(path);
  return parseIR(std::move(*buffer), path, /*trusted=*/cuda, cuda && options.optLevel <= 0);
}

Result<Program> loadProgramFromIR(const std::string &irText, const std::string &name) {
  return parseIR(llvm::MemoryBuffer::getMemBufferCopy(irText, name), name, /*trusted=*/false,
                 /*promote=*/false);
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
