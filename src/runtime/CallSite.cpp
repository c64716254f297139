#include "runtime/CallSite.h"

#include "ir/CudaInstallation.h"

#include <llvm/DebugInfo/Symbolize/Symbolize.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/Path.h>

#include <dlfcn.h>
#include <execinfo.h>
#include <map>
#include <mutex>
#include <unistd.h>

namespace simulee::runtime {
namespace {

// The path as the user would write it: relative to the working directory
// when below it.
std::string shortPath(const std::string &path) {
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd))
    return path;
  std::string prefix = std::string(cwd) + "/";
  return path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path;
}

// The source line of one code address: file (as debug info names it) and line.
std::pair<std::string, uint32_t> sourceLineOf(const void *returnAddress) {
  static llvm::symbolize::LLVMSymbolizer symbolizer;
  static std::map<const void *, std::pair<std::string, uint32_t>> known;
  if (auto it = known.find(returnAddress); it != known.end())
    return it->second;
  std::pair<std::string, uint32_t> result;
  Dl_info info{};
  if (dladdr(returnAddress, &info) && info.dli_fname) {
    // The call instruction ends one byte before the return address. Programs
    // are linked position-independent: the file's addresses are offsets
    // from where it was loaded.
    uint64_t offset = reinterpret_cast<uintptr_t>(returnAddress) - 1 -
                      reinterpret_cast<uintptr_t>(info.dli_fbase);
    std::string object = info.dli_fname;
    if (object.empty() || object.find('/') == std::string::npos)
      object = "/proc/self/exe";
    auto line =
        symbolizer.symbolizeCode(object, {offset, llvm::object::SectionedAddress::UndefSection});
    if (!line)
      llvm::consumeError(line.takeError());
    else if (line->FileName != llvm::DILineInfo::BadString && line->Line)
      result = {line->FileName, line->Line};
  }
  known.emplace(returnAddress, result);
  return result;
}

} // namespace

// CUDA's own inline wrappers (the cudaMalloc<T> template of cuda_runtime.h)
// are not the program's call site: the first caller outside them is, found
// by unwinding the stack from the wrapper.
std::string callSiteOf(const void *returnAddress) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto [file, line] = sourceLineOf(returnAddress);
  if (!file.empty() && ir::isCudaHeader(file)) {
    void *frames[64];
    int count = backtrace(frames, 64);
    int at = 0;
    while (at < count && frames[at] != returnAddress)
      ++at;
    for (int i = at + 1; i < count && ir::isCudaHeader(file); ++i)
      std::tie(file, line) = sourceLineOf(frames[i]);
  }
  if (file.empty() || ir::isCudaHeader(file))
    return "";
  return shortPath(file) + ":" + std::to_string(line);
}

} // namespace simulee::runtime
