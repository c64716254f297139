#include "runtime/CallSite.h"

#include <llvm/DebugInfo/Symbolize/Symbolize.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/Path.h>

#include <dlfcn.h>
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

} // namespace

std::string callSiteOf(const void *returnAddress) {
  static std::mutex mutex;
  static std::map<const void *, std::string> known;
  static llvm::symbolize::LLVMSymbolizer symbolizer;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = known.find(returnAddress); it != known.end())
    return it->second;
  std::string site;
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
    auto line = symbolizer.symbolizeCode(
        object, {offset, llvm::object::SectionedAddress::UndefSection});
    if (line && line->FileName != llvm::DILineInfo::BadString && line->Line)
      site = shortPath(line->FileName) + ":" + std::to_string(line->Line);
    else if (!line)
      llvm::consumeError(line.takeError());
  }
  known.emplace(returnAddress, site);
  return site;
}

} // namespace simulee::runtime
