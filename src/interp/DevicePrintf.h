// Device printf: the text one thread's `printf(format, ...)` prints, from
// the format string and the argument buffer the compiler packs for
// `vprintf`. The buffer holds the arguments after C's default promotions
// (float as double, char and short as int), each at its natural alignment;
// `%s` and `%p` take a pointer (8 bytes), `%*d` an int for the width.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace simulee::interp {

// Reads `size` bytes of the launch's memory at `address` into `out`; false
// where they are not all inside one buffer.
using ReadDeviceBytes = std::function<bool(uint64_t address, uint64_t size, uint8_t *out)>;

// The NUL-terminated string at `address`, cut after `maxBytes`: what is
// readable of it, nullopt when not even its first byte is.
std::optional<std::string> readDeviceString(uint64_t address, const ReadDeviceBytes &read,
                                            uint64_t maxBytes);

// The printed text. A `%s` argument is read as a NUL-terminated string; a
// null one prints "(null)", as the CUDA runtime does, and an unreadable one
// (or an argument past the end of the buffer) prints "<unreadable>". A
// format that cannot be read at all gives nullopt.
std::optional<std::string> formatDevicePrintf(uint64_t format, uint64_t arguments,
                                              const ReadDeviceBytes &read);

} // namespace simulee::interp
