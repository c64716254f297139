// Device printf's text from a format and the argument buffer clang packs
// for vprintf (promoted arguments at their natural alignment), read from a
// small stand-in for a launch's memory.
#include "interp/DevicePrintf.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

namespace simulee::interp_test {
namespace {

using interp::formatDevicePrintf;

// Memory as blocks placed at addresses of their own; a read is good only
// inside one block.
class FakeMemory {
public:
  uint64_t place(const void *bytes, size_t size) {
    uint64_t address = next_;
    blocks_[address] = std::vector<uint8_t>(static_cast<const uint8_t *>(bytes),
                                            static_cast<const uint8_t *>(bytes) + size);
    next_ += 0x10000;
    return address;
  }
  uint64_t string(const char *text) { return place(text, std::strlen(text) + 1); }

  interp::ReadDeviceBytes reader() {
    return [this](uint64_t address, uint64_t size, uint8_t *out) {
      auto block = blocks_.upper_bound(address);
      if (block == blocks_.begin())
        return false;
      --block;
      uint64_t offset = address - block->first;
      if (offset + size > block->second.size())
        return false;
      std::memcpy(out, block->second.data() + offset, size);
      return true;
    };
  }

private:
  std::map<uint64_t, std::vector<uint8_t>> blocks_;
  uint64_t next_ = 0x1000;
};

// The argument buffer: each value at the next offset aligned to its size.
class Arguments {
public:
  template <class T> Arguments &add(T value) {
    bytes_.resize((bytes_.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T));
    size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
    return *this;
  }
  const std::vector<uint8_t> &bytes() const { return bytes_; }

private:
  std::vector<uint8_t> bytes_;
};

std::optional<std::string> print(FakeMemory &memory, const char *format,
                                 const Arguments &arguments) {
  uint64_t buffer = arguments.bytes().empty()
                        ? 0
                        : memory.place(arguments.bytes().data(), arguments.bytes().size());
  return formatDevicePrintf(memory.string(format), buffer, memory.reader());
}

TEST(DevicePrintf, IntegersFloatsAndCharactersTakeTheirPromotedWidths) {
  FakeMemory memory;
  Arguments args;
  // int, then a double (a float argument is promoted) aligned to 8, a char
  // promoted to int, a long long aligned to 8, an unsigned in hex.
  args.add(int32_t(-7)).add(2.5).add(int32_t('z')).add(int64_t(1) << 40).add(uint32_t(255));
  EXPECT_EQ(print(memory, "%d|%6.2f|%c|%lld|%#x %%\n", args), "-7|  2.50|z|1099511627776|0xff %\n");
}

TEST(DevicePrintf, StringsAreReadFromMemoryAndNullPrintsAsTheRuntimeDoes) {
  FakeMemory memory;
  Arguments args;
  args.add(memory.string("block")).add(uint64_t(0)).add(memory.string("xyz"));
  EXPECT_EQ(print(memory, "[%-7s][%s][%.2s]", args), "[block  ][(null)][xy]");
}

TEST(DevicePrintf, StarWidthsAndPrecisionsComeFromTheArguments) {
  FakeMemory memory;
  Arguments args;
  args.add(int32_t(5)).add(int32_t(42)).add(int32_t(3)).add(3.14159);
  EXPECT_EQ(print(memory, "%*d|%.*f", args), "   42|3.142");
}

TEST(DevicePrintf, MissingArgumentsAndUnreadableStringsAreMarked) {
  FakeMemory memory;
  Arguments args;
  args.add(uint64_t(0xdead0000)); // a pointer into no block
  EXPECT_EQ(print(memory, "%s and %d", args), "<unreadable> and <unreadable>");
  EXPECT_EQ(print(memory, "no arguments: %d\n", Arguments()), "no arguments: <unreadable>\n");
  EXPECT_EQ(formatDevicePrintf(0xdead0000, 0, memory.reader()), std::nullopt);
}

TEST(DevicePrintf, TextWithoutConversionsAndUnknownOnesIsPrintedAsWritten) {
  FakeMemory memory;
  EXPECT_EQ(print(memory, "plain text\n", Arguments()), "plain text\n");
  EXPECT_EQ(print(memory, "odd %y end %", Arguments()), "odd %y end %");
}

} // namespace
} // namespace simulee::interp_test
