#include "ir/WrapperPch.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace simulee::ir {

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

  // Build into a unique file and rename: parallel scans may race here.
  llvm::SmallString<256> empty(directory), partial(directory);
  llvm::sys::path::append(empty, "empty.cuh");
  if (!llvm::sys::fs::exists(empty)) {
    std::error_code error;
    llvm::raw_fd_ostream out(empty, error);
    if (error)
      return std::nullopt;
  }
  llvm::sys::path::append(partial, key + "-%%%%%%.pch.tmp");
  llvm::SmallString<256> unique;
  llvm::sys::fs::createUniquePath(partial, unique, false);
  std::vector<std::string> args = compileArgs;
  args.insert(args.end(), {"-emit-llvm", "-c", "-Xclang", "-emit-pch", "-o", unique.str().str(),
                           empty.str().str()});
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(""), llvm::StringRef("")};
  int rc = llvm::sys::ExecuteAndWait(args[0], argRefs, std::nullopt, redirects, 120);
  if (rc != 0 || llvm::sys::fs::rename(unique, pch)) {
    llvm::sys::fs::remove(unique);
    return std::nullopt;
  }
  return pch.str().str();
}

} // namespace simulee::ir
