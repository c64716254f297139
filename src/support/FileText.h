// Whole files read and written: for logs, reports and sources simulee reads
// back, and for files a user names (launch files, dumps). Every read is
// bounded: only regular files are read (a FIFO would block, a device such as
// /dev/zero never ends), and only up to a size.
#pragma once

#include "support/MemoryLimit.h"
#include "support/Result.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <sys/stat.h>

namespace simulee {

// The most a text file simulee reads whole may hold (a launch file, a log).
constexpr uint64_t kLargestTextFile = uint64_t(64) << 20;

// The size of `path` if it is a regular file, the one kind of file simulee
// reads; else an error that says why (without the path: callers name the
// file's role). Each caller bounds the size itself.
inline Result<uint64_t> regularFileSize(const std::string &path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0)
    return makeError(errno == ENOENT ? std::string("no such file")
                                     : std::string("cannot read it: ") + std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    return makeError("is a directory, not a regular file");
  if (!S_ISREG(info.st_mode))
    return makeError("not a regular file (a FIFO, device or socket cannot be read)");
  return uint64_t(info.st_size);
}

// The whole of `path` if it is a regular file of at most `maxBytes`; else an
// error that says why (without the path).
inline Result<std::string> readRegularFile(const std::string &path,
                                           uint64_t maxBytes = kLargestTextFile) {
  Result<uint64_t> size = regularFileSize(path);
  if (!size)
    return size.error();
  uint64_t limit = std::min(maxBytes, memoryLimitBytes());
  if (*size > limit)
    return makeError("file of " + std::to_string(*size) + " bytes (at most " +
                     std::to_string(limit) + " are read)");
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return makeError(std::string("cannot read it: ") + std::strerror(errno));
  std::string text(size_t(*size), '\0');
  size_t read = std::fread(text.data(), 1, text.size(), file);
  bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed)
    return makeError("cannot read it");
  text.resize(read); // a file that shrank meanwhile: what it holds now
  return text;
}

// The whole of a file simulee itself wrote or a source file it quotes; empty
// when it cannot be read (or is no regular file, or is over 64 MiB).
inline std::string readWholeFile(const std::string &path) {
  Result<std::string> text = readRegularFile(path);
  return text ? std::move(*text) : std::string();
}

// Writes `bytes` to `path`, replacing it. A full disk, an unwritable path or
// a failed close is an error that says why (without the path).
inline Status writeWholeFile(const std::string &path, std::string_view bytes) {
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return makeError(std::strerror(errno));
  size_t written = std::fwrite(bytes.data(), 1, bytes.size(), file);
  int error = 0;
  if (written != bytes.size() || std::fflush(file) != 0)
    error = errno ? errno : EIO;
  if (std::fclose(file) != 0 && !error)
    error = errno ? errno : EIO;
  if (error)
    return makeError(std::strerror(error));
  return Ok{};
}

} // namespace simulee
