#include "ir/WrapperPch.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/SHA256.h>

#include <algorithm>
#include <chrono>

namespace simulee::ir {
namespace {

// A PCH is ~6 MB and each CUDA installation, clang and set of flags has its
// own: when a new one is built, those unused for a month go, and so do
// partial files a killed build left.
void pruneOldPchs(const llvm::SmallString<256> &directory) {
  auto now = std::chrono::system_clock::now();
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    llvm::StringRef path = it->path();
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(path, status))
      continue;
    if ((path.ends_with(".pch") &&
         now - status.getLastAccessedTime() > std::chrono::hours(24 * 30)) ||
        (path.ends_with(".pch.tmp") &&
         now - status.getLastModificationTime() > std::chrono::hours(24)))
      llvm::sys::fs::remove(path);
  }
}

} // namespace

std::optional<std::string> wrapperPch(const std::vector<std::string> &compileArgs,
                                      const std::vector<std::string> &keyExclusions) {
  // The key: every argument that shapes the PCH, and the clang binary itself.
  llvm::SHA256 hash;
  for (const std::string &arg : compileArgs)
    if (std::find(keyExclusions.begin(), keyExclusions.end(), arg) == keyExclusions.end())
      hash.update(arg + '\0');
  llvm::sys::fs::file_status clangStatus;
  if (!compileArgs.empty() && !llvm::sys::fs::status(compileArgs[0], clangStatus))
    hash.update(std::to_string(clangStatus.getLastModificationTime().time_since_epoch().count()));
  std::string key = llvm::toHex(hash.final()).substr(0, 24);

  llvm::SmallString<256> directory;
  if (!llvm::sys::path::cache_directory(directory))
    return std::nullopt;
  llvm::sys::path::append(directory, "simulee", "pch");
  if (llvm::sys::fs::create_directories(directory))
    return std::nullopt;
  llvm::SmallString<256> pch(directory);
  llvm::sys::path::append(pch, key + ".pch");
  if (llvm::sys::fs::exists(pch))
    return pch.str().str();

  // Build into a unique file and rename: parallel scans (a test suite run
  // on many cores) race here. The PCH's input file is created once and never
  // rewritten, and the PCH records no timestamps, so a racer touching a file
  // it was built from (or setup re-extracting the same headers) does not
  // make it stale; a changed size still does (`discardWrapperPch`).
  llvm::SmallString<256> empty(directory), partial(directory);
  llvm::sys::path::append(empty, "empty.cuh");
  int descriptor = -1;
  if (std::error_code error =
          llvm::sys::fs::openFileForWrite(empty, descriptor, llvm::sys::fs::CD_CreateNew);
      !error)
    llvm::sys::Process::SafelyCloseFileDescriptor(descriptor);
  else if (error != std::errc::file_exists)
    return std::nullopt;
  llvm::sys::path::append(partial, key + "-%%%%%%.pch.tmp");
  llvm::SmallString<256> unique;
  llvm::sys::fs::createUniquePath(partial, unique, false);
  std::vector<std::string> args = compileArgs;
  args.insert(args.end(), {"-emit-llvm", "-c", "-Xclang", "-emit-pch", "-Xclang",
                           "-fno-pch-timestamp", "-o", unique.str().str(), empty.str().str()});
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(""),
                                                llvm::StringRef("")};
  int rc = llvm::sys::ExecuteAndWait(args[0], argRefs, std::nullopt, redirects, 120);
  if (rc != 0 || llvm::sys::fs::rename(unique, pch)) {
    llvm::sys::fs::remove(unique);
    return std::nullopt;
  }
  pruneOldPchs(directory);
  return pch.str().str();
}

bool isStaleWrapperPch(const std::string &clangOutput) {
  // "has been modified since the precompiled header", "PCH file ... not
  // found", "... was enabled in PCH file", "malformed or corrupted AST file".
  for (const char *sign : {"precompiled", "PCH", "AST file"})
    if (clangOutput.find(sign) != std::string::npos)
      return true;
  return false;
}

void discardWrapperPch(const std::string &pch) { llvm::sys::fs::remove(pch); }

} // namespace simulee::ir
