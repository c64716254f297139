#include "interp/DevicePrintf.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace simulee::interp {

namespace {

// Longer strings (a format, a `%s` argument) are cut here.
constexpr uint64_t kMaxStringBytes = 4096;

// The arguments of one call, taken in order from the packed buffer.
class ArgumentReader {
public:
  ArgumentReader(uint64_t buffer, const ReadDeviceBytes &read) : buffer_(buffer), read_(read) {}

  // The next argument of `size` (4 or 8) bytes, at its natural alignment.
  std::optional<uint64_t> next(uint64_t size) {
    offset_ = (offset_ + size - 1) / size * size;
    uint64_t value = 0;
    if (buffer_ == 0 || !read_(buffer_ + offset_, size, reinterpret_cast<uint8_t *>(&value)))
      return std::nullopt;
    offset_ += size;
    return value;
  }

private:
  uint64_t buffer_;
  const ReadDeviceBytes &read_;
  uint64_t offset_ = 0;
};

template <class... Values> std::string formatted(const std::string &spec, Values... values) {
  int size = std::snprintf(nullptr, 0, spec.c_str(), values...);
  if (size <= 0)
    return "";
  std::vector<char> text(size_t(size) + 1);
  std::snprintf(text.data(), text.size(), spec.c_str(), values...);
  return std::string(text.data(), size_t(size));
}

constexpr const char *kUnreadable = "<unreadable>";

} // namespace

std::optional<std::string> readDeviceString(uint64_t address, const ReadDeviceBytes &read,
                                            uint64_t maxBytes) {
  std::string text;
  for (uint64_t i = 0; i < maxBytes; ++i) {
    uint8_t byte = 0;
    if (!read(address + i, 1, &byte))
      return i == 0 ? std::nullopt : std::optional(text);
    if (byte == 0)
      break;
    text += char(byte);
  }
  return text;
}

std::optional<std::string> formatDevicePrintf(uint64_t format, uint64_t arguments,
                                              const ReadDeviceBytes &read) {
  std::optional<std::string> text = readDeviceString(format, read, kMaxStringBytes);
  if (!text)
    return std::nullopt;
  const std::string &f = *text;
  ArgumentReader args(arguments, read);
  std::string out;
  size_t i = 0;
  while (i < f.size()) {
    if (f[i] != '%') {
      out += f[i++];
      continue;
    }
    size_t start = i++;
    if (i < f.size() && f[i] == '%') {
      out += '%';
      ++i;
      continue;
    }
    // %[flags][width][.precision][length]conversion; the length only says
    // how wide the argument is, the rest goes to snprintf as written.
    std::string spec = "%";
    while (i < f.size() && std::strchr("-+ #0", f[i]))
      spec += f[i++];
    bool readable = true;
    auto starOrDigits = [&] {
      if (i < f.size() && f[i] == '*') {
        ++i;
        std::optional<uint64_t> value = args.next(4);
        readable &= value.has_value();
        spec += std::to_string(int32_t(value.value_or(0)));
        return;
      }
      while (i < f.size() && f[i] >= '0' && f[i] <= '9')
        spec += f[i++];
    };
    starOrDigits();
    if (i < f.size() && f[i] == '.') {
      spec += f[i++];
      starOrDigits();
    }
    bool wide = false;
    while (i < f.size() && std::strchr("hlLqjzt", f[i]))
      wide |= f[i++] != 'h';
    if (i == f.size()) {
      out += f.substr(start);
      break;
    }
    char conversion = f[i++];
    spec += conversion;
    switch (conversion) {
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X':
    case 'c': {
      std::optional<uint64_t> value = args.next(wide && conversion != 'c' ? 8 : 4);
      if (!value || !readable) {
        out += kUnreadable;
        break;
      }
      bool isSigned = conversion == 'd' || conversion == 'i' || conversion == 'c';
      if (wide && conversion != 'c') {
        spec.insert(spec.size() - 1, "ll");
        out += isSigned ? formatted(spec, (long long)int64_t(*value))
                        : formatted(spec, (unsigned long long)*value);
      } else {
        out += isSigned ? formatted(spec, int(int32_t(*value))) : formatted(spec, unsigned(*value));
      }
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      std::optional<uint64_t> value = args.next(8);
      if (!value || !readable) {
        out += kUnreadable;
        break;
      }
      double number;
      std::memcpy(&number, &*value, sizeof number);
      out += formatted(spec, number);
      break;
    }
    case 's': {
      std::optional<uint64_t> pointer = args.next(8);
      std::optional<std::string> string = !pointer || !readable ? std::nullopt
                                          : *pointer == 0
                                              ? std::optional<std::string>("(null)")
                                              : readDeviceString(*pointer, read, kMaxStringBytes);
      out += string ? formatted(spec, string->c_str()) : kUnreadable;
      break;
    }
    case 'p': {
      std::optional<uint64_t> pointer = args.next(8);
      out += pointer ? formatted("0x%llx", (unsigned long long)*pointer) : kUnreadable;
      break;
    }
    default: // not a conversion printf knows: printed as written
      out += f.substr(start, i - start);
      break;
    }
  }
  return out;
}

} // namespace simulee::interp
