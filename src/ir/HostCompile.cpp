#include "ir/HostCompile.h"
#include "ir/LaunchSyntax.h"

#include "ir/CudaInstallation.h"
#include "ir/Loader.h"
#include "support/FileText.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace simulee::ir {
namespace {

std::string clangDriver() {
  if (const char *env = std::getenv("SIMULEE_CLANG"))
    return env;
  return SIMULEE_CLANG_PATH;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

// Runs a clang driver command; its diagnostics on failure.
Status runClang(const std::vector<std::string> &args, const std::string &workDir,
                const std::string &what) {
  std::string log = workDir + "/clang.log";
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log),
                                                llvm::StringRef(log)};
  std::vector<std::string> environment = clangEnvironment();
  std::vector<llvm::StringRef> environmentRefs(environment.begin(), environment.end());
  std::string execError;
  int rc =
      llvm::sys::ExecuteAndWait(args[0], argRefs, environmentRefs, redirects, 300, 0, &execError);
  if (rc == 0)
    return Ok{};
  if (rc < 0)
    return makeError(what + ": cannot run clang (" + args[0] + "): " + execError);
  return makeError(what + ":\n" + trimmed(readWholeFile(log)));
}

enum class SourceKind { Cuda, Cxx, C, Object };

std::optional<SourceKind> kindOf(llvm::StringRef path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  if (ext.equals_insensitive(".cu"))
    return SourceKind::Cuda;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C")
    return SourceKind::Cxx;
  if (ext == ".c")
    return SourceKind::C;
  if (ext == ".o" || ext == ".a" || ext == ".so")
    return SourceKind::Object;
  return std::nullopt;
}

// What the runtime needs to compile a .cu file's device code, in the place
// of the GPU binary clang would embed (Runtime::registerModule reads it).
Result<std::string> writeModuleDescriptor(const std::string &source,
                                          const HostBuildOptions &options, size_t index) {
  std::string path = options.workDir + "/module" + std::to_string(index) + ".txt";
  std::ofstream out(path, std::ios::binary);
  // As given: the program runs in simulee's working directory, and reports
  // name the file as the user wrote it.
  out << "source=" << source << "\n";
  out << "opt=" << options.deviceOptLevel << "\n";
  if (!options.cudaPath.empty())
    out << "cuda-path=" << options.cudaPath << "\n";
  for (const std::string &define : options.defines)
    out << "arg=-D" << define << "\n";
  for (const std::string &include : options.includes)
    out << "arg=-I" << include << "\n";
  if (!options.standard.empty())
    out << "arg=-std=" << options.standard << "\n";
  out << '\0';
  if (!out)
    return makeError("cannot write " + path);
  return path;
}

// `path` relative to the working directory when below it, as the user named it.
std::string relativeToHere(const std::string &path) {
  llvm::SmallString<256> here;
  if (llvm::sys::fs::current_path(here))
    return path;
  std::string prefix = here.str().str() + "/";
  return llvm::StringRef(path).starts_with(prefix) ? path.substr(prefix.size()) : path;
}

// The CUDA functions the linker found no definition of, each with the first
// call it names ("main.cu:17: cudaIpcGetMemHandle"; the name alone without
// debug information), in order of name.
std::vector<std::string> missingCudaFunctions(const std::string &linkerOutput) {
  std::map<std::string, std::string> firstCall;
  // "/dir/main.cu:17: undefined reference to `cudaFoo'" (the location may be
  // "object.o:(.text+0x1c)" without line information).
  std::regex undefined("(?:([^\\s:]+):([0-9]+): )?undefined reference to `([A-Za-z_][A-Za-z0-9_]*)");
  for (std::sregex_iterator it(linkerOutput.begin(), linkerOutput.end(), undefined), end; it != end;
       ++it) {
    std::string name = (*it)[3];
    if (!llvm::StringRef(name).starts_with("cu") && !llvm::StringRef(name).starts_with("__cuda"))
      continue;
    std::string where;
    if ((*it)[1].matched)
      where = relativeToHere((*it)[1].str()) + ":" + (*it)[2].str() + ": ";
    firstCall.try_emplace(name, where + name);
  }
  std::vector<std::string> calls;
  for (const auto &[name, call] : firstCall)
    calls.push_back(call);
  return calls;
}

} // namespace

Result<std::string> buildHostProgram(const HostBuildOptions &options) {
  Result<std::optional<CudaInstallation>> cuda = findCudaInstallation(options.cudaPath);
  if (!cuda)
    return cuda.error();
  if (!*cuda)
    return makeError("simulee exec needs NVIDIA's CUDA headers: run scripts/setup.sh (or "
                     "scripts/cuda-headers.sh build/cuda), or name a toolkit with --cuda-path");
  Result<std::string> ownIncludes = deviceHeaderDirectory();
  if (!ownIncludes)
    return ownIncludes.error();

  std::vector<std::string> common = {clangDriver(), "--driver-mode=g++",      "-g", "-O0",
                                     "-fPIE",       "-fno-omit-frame-pointer"};
  for (const std::string &define : options.defines)
    common.push_back("-D" + define);
  for (const std::string &include : options.includes)
    common.push_back("-I" + include);
  common.insert(common.end(), options.hostFlags.begin(), options.hostFlags.end());

  std::vector<std::string> objects;
  for (size_t i = 0; i < options.sources.size(); ++i) {
    const std::string &source = options.sources[i];
    std::optional<SourceKind> kind = kindOf(source);
    if (!kind)
      return makeError(source + ": unknown file type (expected .cu, .cpp, .cc, .cxx, .c, .o, .a "
                                "or .so)");
    if (!llvm::sys::fs::exists(source))
      return makeError(source + ": no such file");
    if (*kind == SourceKind::Object) {
      objects.push_back(source);
      continue;
    }
    std::string object = options.workDir + "/object" + std::to_string(i) + ".o";
    std::vector<std::string> args = common;
    if (!options.standard.empty() && *kind != SourceKind::C)
      args.push_back("-std=" + options.standard);
    if (*kind == SourceKind::Cuda) {
      Result<std::string> descriptor = writeModuleDescriptor(source, options, i);
      if (!descriptor)
        return descriptor.error();
      std::vector<std::string> headers = cudaHeaderArgs(*cuda, *ownIncludes);
      args.insert(args.end(), {"-x", "cuda", "--cuda-host-only", kDeviceCodeArchFlag});
      args.insert(args.end(), headers.begin(), headers.end());
      args.insert(args.end(), {"-Xclang", "-fcuda-include-gpubinary", "-Xclang", *descriptor});
      // Kernel bodies calling surf*read/write parse on the host side too.
      std::vector<std::string> compat = nvccCompatIncludeArgs(*cuda);
      args.insert(args.end(), compat.begin(), compat.end());
    } else {
      // Plain host files may include the CUDA runtime API headers and those
      // simulee supplies (helper_timer.h ...), as nvcc gives a toolkit's
      // include directory to .cpp files too.
      args.insert(args.end(), {"-x", *kind == SourceKind::C ? "c" : "c++"});
      std::vector<std::string> search = nvidiaHeaderSearchArgs(**cuda, *ownIncludes);
      args.insert(args.end(), search.begin(), search.end());
    }
    args.push_back("-c");
    // Compiled as it is, or with its launch chevrons joined; again with the
    // shared declarations clang refused written as it accepts them
    // (ir/LaunchSyntax.h).
    auto compile = [&](const RefusedSharedDeclarationsByFile &refused) -> Status {
      Result<CompileInput> input = CompileInput::of(source, refused);
      if (!input)
        return input.error();
      std::vector<std::string> command = args, inputArgs = input->arguments();
      command.insert(command.end(), inputArgs.begin(), inputArgs.end());
      command.insert(command.end(), {"-o", object});
      return runClang(command, options.workDir, source + ": compilation failed");
    };
    Status compiled = compile({});
    if (!compiled)
      if (RefusedSharedDeclarationsByFile refused =
              refusedSharedDeclarations(compiled.error().message);
          !refused.empty())
        compiled = compile(refused);
    if (!compiled)
      return compiled.error();
    objects.push_back(object);
  }

  std::string executable = options.workDir + "/program";
  std::vector<std::string> link = {clangDriver(), "--driver-mode=g++", "-pie"};
  link.insert(link.end(), objects.begin(), objects.end());
  link.insert(link.end(), options.hostFlags.begin(), options.hostFlags.end());
  for (const std::string &flag : options.linkerFlags)
    link.push_back("-Wl," + flag);
  link.insert(link.end(),
              {"-L" + options.runtimeDir, "-lsimulee_cudart", "-Wl,-rpath," + options.runtimeDir});
  for (const std::string &dir : options.libraryDirs)
    link.push_back("-L" + dir);
  // simulee's runtime stands in for CUDA's, cuBLAS's and cuRAND's host API
  // (a call it lacks, of cuBLASLt say, is then named below); NVTX's calls are
  // its header's (nvToolsExt.h).
  static const std::set<std::string> providedLibraries = {
      "cudart",          "cudart_static", "cublas",        "cublas_static", "cublasLt",
      "cublasLt_static", "curand",        "curand_static", "nvToolsExt"};
  for (const std::string &library : options.libraries)
    if (!providedLibraries.count(library))
      link.push_back("-l" + library);
  link.insert(link.end(), {"-o", executable});
  Status linked = runClang(link, options.workDir, "the program could not be linked");
  if (!linked) {
    std::vector<std::string> missing = missingCudaFunctions(linked.error().message);
    if (missing.empty())
      return linked.error();
    std::string names;
    for (const std::string &name : missing)
      names += (names.empty() ? "" : ", ") + name;
    return makeError("the program calls " + names + ", which simulee's CUDA runtime does not " +
                     "provide (simulee exec supports the runtime API listed in README.md)");
  }
  return executable;
}

} // namespace simulee::ir
