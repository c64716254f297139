#include "ir/CudaInstallation.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

extern char **environ;

namespace simulee::ir {
namespace {

bool isFile(const llvm::Twine &path) { return llvm::sys::fs::is_regular_file(path); }

// A CUDA installation in the sense of clang: headers under include/ with the
// runtime API, and (for clang's detection) a bin/ directory.
bool looksLikeCudaInstallation(const std::string &root) {
  return isFile(root + "/include/cuda_runtime_api.h") && isFile(root + "/include/cuda.h");
}

std::string realPath(llvm::StringRef path) {
  llvm::SmallString<256> resolved;
  if (llvm::sys::fs::real_path(path, resolved))
    return path.str();
  return resolved.str().str();
}

// The directory of the binary this code is linked into: the simulee
// executable, the Python module (simulee/_core*.so) or exec's runtime
// (libsimulee_cudart.so). Empty when the loader does not say.
std::string imageDirectory() {
  Dl_info image;
  if (!dladdr(reinterpret_cast<const void *>(&imageDirectory), &image) || !image.dli_fname ||
      !*image.dli_fname)
    return {};
  return llvm::sys::path::parent_path(realPath(image.dli_fname)).str();
}

// The installation that travels with the binary comes first, so that an
// installed or moved copy (the Python wheel carries one next to its module,
// the CLI and exec's runtime) uses its own; then the one of the build this
// code was compiled in, then the checkout's.
std::optional<CudaInstallation> assembledInstallation() {
  std::vector<std::string> candidates;
  if (std::string image = imageDirectory(); !image.empty())
    candidates.push_back(image + "/cuda");
  // Next to the executable (<build>/cuda), or an installed simulee's
  // <prefix>/share/simulee/cuda.
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  if (!executable.empty()) {
    llvm::StringRef dir = llvm::sys::path::parent_path(executable);
    candidates.push_back((dir + "/cuda").str());
    candidates.push_back((dir + "/../share/simulee/cuda").str());
  }
#ifdef SIMULEE_ASSEMBLED_CUDA_PATH
  candidates.push_back(SIMULEE_ASSEMBLED_CUDA_PATH); // <build>/cuda of this build
#endif
#ifdef SIMULEE_CHECKOUT_CUDA_PATH
  candidates.push_back(SIMULEE_CHECKOUT_CUDA_PATH); // the checkout's build/cuda
#endif
  for (const std::string &candidate : candidates)
    if (looksLikeCudaInstallation(candidate))
      return CudaInstallation{realPath(candidate), false};
  return std::nullopt;
}

bool isWithin(llvm::StringRef path, llvm::StringRef directory) {
  return path.starts_with(directory) &&
         (path.size() == directory.size() || path[directory.size()] == '/');
}

// The dependency file's paths: "target: a.h b.h \<newline> c.h", with spaces
// inside names escaped by a backslash.
std::vector<std::string> dependencyPaths(llvm::StringRef text) {
  std::vector<std::string> paths;
  std::string current;
  bool pastTarget = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      current += ' ';
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      c = ' ';
    }
    if (c == ' ' || c == '\n' || c == '\t') {
      if (!current.empty() && pastTarget)
        paths.push_back(current);
      if (!current.empty() && current.back() == ':')
        pastTarget = true;
      current.clear();
      continue;
    }
    current += c;
  }
  if (!current.empty() && pastTarget)
    paths.push_back(current);
  return paths;
}

// The nearest ancestor directory of `header` that holds a CUDA toolkit's
// runtime headers, or empty.
std::string cudaIncludeDirAbove(llvm::StringRef header, llvm::StringMap<bool> &memo) {
  llvm::StringRef dir = llvm::sys::path::parent_path(header);
  while (!dir.empty() && dir != "/") {
    auto [it, inserted] = memo.try_emplace(dir, false);
    if (inserted)
      it->second = isFile(dir + "/cuda_runtime_api.h");
    if (it->second)
      return dir.str();
    dir = llvm::sys::path::parent_path(dir);
  }
  return {};
}

} // namespace

Result<std::optional<CudaInstallation>> findCudaInstallation(const std::string &userPath) {
  if (!userPath.empty()) {
    if (!looksLikeCudaInstallation(userPath))
      return makeError("--cuda-path " + userPath +
                       ": not a CUDA installation (no include/cuda_runtime_api.h)");
    return std::optional<CudaInstallation>(CudaInstallation{realPath(userPath), true});
  }
  if (const char *env = std::getenv("SIMULEE_CUDA_PATH"); env && *env) {
    if (!looksLikeCudaInstallation(env))
      return makeError(std::string("SIMULEE_CUDA_PATH ") + env +
                       ": not a CUDA installation (no include/cuda_runtime_api.h)");
    return std::optional<CudaInstallation>(CudaInstallation{realPath(env), true});
  }
  return assembledInstallation();
}

std::string libdevicePath(const CudaInstallation &installation) {
  std::string path = installation.root + "/nvvm/libdevice/libdevice.10.bc";
  return isFile(path) ? path : std::string();
}

// `register int sum;`, common in course and book code: removed in C++17,
// which clang's CUDA front end then refuses, while nvcc accepts it silently.
constexpr const char *kAcceptRegister = "-Wno-register";

std::vector<std::string> nvidiaHeaderSearchArgs(const CudaInstallation &installation,
                                                const std::string &ownIncludeDir) {
  return {"-isystem", installation.root + "/include", "-isystem", ownIncludeDir,
          "-D__SIMULEE_NVIDIA_HEADERS__=1"};
}

std::vector<std::string> cudaHeaderArgs(const std::optional<CudaInstallation> &installation,
                                        const std::string &ownIncludeDir) {
  if (!installation)
    return {"-nocudainc",     "-nocudalib",   "--cuda-path=/nonexistent",
            "-Wno-unknown-cuda-version", kAcceptRegister, "-isystem",
            ownIncludeDir,    "-include",     "simulee_cuda.h"};
  // libdevice is not linked by clang: the interpreter implements the __nv_*
  // math functions natively. simulee's directory comes after NVIDIA's, so it
  // only supplies what NVIDIA's headers lack (helper_cuda.h,
  // cuda_profiler_api.h), and before the system directories.
  // clang appends the installation's include/ after the system directories,
  // where a toolkit's headers in /usr/local/include would win: both are named
  // first.
  std::vector<std::string> args = {"--cuda-path=" + installation->root, "-nocudalib",
                                   "-Wno-unknown-cuda-version", kAcceptRegister,
                                   // The launch syntax in host code: CUDA 12 has
                                   // __cudaPushCallConfiguration only, and a device-only
                                   // compile does not tell clang the version.
                                   "-Xclang", "-target-sdk-version=12.4"};
  std::vector<std::string> search = nvidiaHeaderSearchArgs(*installation, ownIncludeDir);
  args.insert(args.end(), search.begin(), search.end());
  return args;
}

std::vector<std::string>
nvccCompatIncludeArgs(const std::optional<CudaInstallation> &installation) {
  if (!installation)
    return {};
  return {"-include", "simulee_surfaces.h", "-include", "simulee_nvcc_compat.h"};
}

Status checkNoForeignCudaHeaders(const std::string &dependencyFile,
                                 const CudaInstallation &installation,
                                 const std::string &ownIncludeDir, const std::string &sourcePath) {
  std::string ownDir = realPath(ownIncludeDir);
  auto buffer = llvm::MemoryBuffer::getFile(dependencyFile);
  if (!buffer)
    return Ok{};
  llvm::StringMap<bool> memo;
  for (const std::string &header : dependencyPaths((*buffer)->getBuffer())) {
    std::string resolved = realPath(header);
    if (isWithin(resolved, installation.root) || isWithin(resolved, ownDir))
      continue;
    std::string toolkit = cudaIncludeDirAbove(resolved, memo);
    if (toolkit.empty())
      continue;
    return makeError(sourcePath + ": " + header + " is not in simulee's CUDA installation (" +
                     installation.root + ") but in the CUDA toolkit headers of " + toolkit +
                     ", which are used only when asked (--cuda-path)");
  }
  return Ok{};
}

bool isCudaHeader(llvm::StringRef path) {
  if (llvm::sys::path::filename(path).starts_with("__clang_cuda_"))
    return true;
  static llvm::StringMap<bool> memo; // the loader runs on one thread per program
  static std::mutex memoMutex;
  std::lock_guard<std::mutex> lock(memoMutex);
  return !cudaIncludeDirAbove(path, memo).empty();
}

std::vector<std::string> clangEnvironment() {
  static const llvm::StringRef dropped[] = {"CPATH=", "C_INCLUDE_PATH=", "CPLUS_INCLUDE_PATH=",
                                            "OBJC_INCLUDE_PATH=", "CUDA_PATH=", "CUDA_HOME="};
  std::vector<std::string> environment;
  for (char **entry = environ; entry && *entry; ++entry) {
    llvm::StringRef variable(*entry);
    bool drop = false;
    for (llvm::StringRef prefix : dropped)
      drop = drop || variable.starts_with(prefix);
    if (!drop)
      environment.push_back(variable.str());
  }
  return environment;
}

} // namespace simulee::ir
