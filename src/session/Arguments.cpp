#include "session/Arguments.h"

#include "evo/HalfFloat.h"

#include "interp/MathLibrary.h"
#include "ir/PointerEncoding.h"
#include "session/TextureArguments.h"
#include "support/FileText.h"
#include "support/MemoryLimit.h"
#include "support/ThreadCache.h"


#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <cstring>

namespace simulee::session {
namespace {

uint32_t elementSize(const ir::ParamInfo &param) {
  return param.elementBytes ? param.elementBytes : 4;
}

bool parseUnsigned(const std::string &text, uint64_t &out) {
  const char *begin = text.data(), *end = text.data() + text.size();
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    begin += 2;
    base = 16;
  }
  auto [ptr, ec] = std::from_chars(begin, end, out, base);
  return ec == std::errc() && ptr == end && begin != end;
}

// SplitMix64: a fast, seedable generator; buffer contents need variety, not
// statistical quality, and are filled for every simulated launch.
struct FastRandom {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// Seeded contents for a buffer, as `fill` says. Only the first
// kRandomElements are drawn: a simulated launch touches a small part of a
// large matrix, and filling megabytes per launch would dominate the search.
// The rest are zero, repeat the last value for the monotone fills, or hold
// their own index in a permutation.
constexpr uint64_t kRandomElements = uint64_t(1) << 16;

void storeNumber(uint8_t *at, const ir::ParamInfo &param, uint32_t size, double value) {
  if (param.elementKind == ir::ValueKind::Float && size == 4) {
    float v = float(value);
    std::memcpy(at, &v, 4);
  } else if (param.elementKind == ir::ValueKind::Float && size == 8) {
    std::memcpy(at, &value, 8);
  } else {
    uint64_t v = uint64_t(int64_t(value));
    std::memcpy(at, &v, std::min<uint32_t>(size, 8));
  }
}

// What a buffer's drawn elements are a function of: each parameter draws
// from its own stream, so that a buffer's contents do not depend on its size
// (a smaller buffer is a prefix of a larger one) nor on the other buffers.
struct FillKey {
  uint64_t seed = 0;
  uint32_t parameter = 0;
  Fill fill = Fill::Random;
  ir::ValueKind elementKind = ir::ValueKind::Int;
  uint32_t elementBytes = 0;
  bool raw = false; // the generator's 64-bit draws themselves

  bool operator==(const FillKey &) const = default;
};

FastRandom streamOf(const FillKey &key) {
  return FastRandom{key.seed ^ (uint64_t(key.parameter) + 1) * 0xD1B54A32D192ED03ull};
}

// One parameter's fill drawn so far; extended on demand.
struct DrawnStream {
  FillKey key;
  FastRandom rng;
  double running = 0; // Sorted, PrefixSums
  std::vector<uint8_t> bytes;

  uint64_t elements() const { return bytes.size() / key.elementBytes; }

  void extendTo(uint64_t elements, const ir::ParamInfo &param) {
    uint32_t size = key.elementBytes;
    uint64_t from = this->elements();
    if (elements <= from)
      return;
    bytes.resize(size_t(elements * size), 0);
    bool isFloat = key.elementKind == ir::ValueKind::Float;
    for (uint64_t i = from; i < elements; ++i) {
      uint8_t *at = bytes.data() + i * size;
      uint64_t r = rng.next();
      if (key.raw) {
        std::memcpy(at, &r, 8);
        continue;
      }
      double value = 0;
      switch (key.fill) {
      case Fill::Random:
        if (isFloat) {
          value = size == 4 ? double(float(r >> 40) * 0x1.0p-24f) : double(r >> 11) * 0x1.0p-53;
        } else if (key.elementKind != ir::ValueKind::Int || size > 8) {
          for (uint32_t b = 0; b < size; ++b)
            at[b] = uint8_t((r >> (8 * (b % 8))) % 100);
          continue;
        } else {
          value = double(r % 100);
        }
        break;
      case Fill::Small: value = double(r % 8); break;
      case Fill::Binary: value = double(r & 1); break;
      case Fill::Sorted: running += double(r % 3); value = running; break;
      case Fill::PrefixSums: value = running; running += double(r % 4); break;
      case Fill::Zeros:       // never drawn
      case Fill::Indices:     // drawn raw: the range is applied per launch
      case Fill::Keys:
      case Fill::Permutation: // drawn whole by permutationOf
        break;
      }
      storeNumber(at, param, size, value);
    }
  }
};

// A permutation of 0..elements-1 in the parameter's element type.
std::vector<uint8_t> permutationOf(const FillKey &key, const ir::ParamInfo &param,
                                   uint64_t elements) {
  FastRandom rng = streamOf(key);
  std::vector<uint64_t> order(elements);
  for (uint64_t i = 0; i < elements; ++i)
    order[i] = i;
  for (uint64_t i = elements; i > 1; --i)
    std::swap(order[i - 1], order[rng.next() % i]);
  std::vector<uint8_t> bytes(size_t(elements * key.elementBytes), 0);
  for (uint64_t i = 0; i < elements; ++i)
    storeNumber(bytes.data() + i * key.elementBytes, param, key.elementBytes, double(order[i]));
  return bytes;
}

// The streams drawn so far, shared by all threads: every launch of a search
// asks for the same few (one seed, a handful of parameters and fills), so
// each element is drawn once and then copied. Bounded in bytes; the least
// recently used streams go first.
class DrawnCache {
public:
  // Calls `use` with the first `elements` elements of `key`'s stream.
  template <class Use>
  void withPrefix(const FillKey &key, const ir::ParamInfo &param, uint64_t elements, Use use) {
    std::lock_guard lock(mutex_);
    Entry &entry = find(key);
    held_ -= entry.stream.bytes.size();
    entry.stream.extendTo(elements, param);
    held_ += entry.stream.bytes.size();
    use(static_cast<const uint8_t *>(entry.stream.bytes.data()));
    evictBeyondLimit(&entry);
  }

private:
  static constexpr uint64_t kMaxBytes = uint64_t(16) << 20;
  struct Entry {
    DrawnStream stream;
    uint64_t lastUse = 0;
  };

  Entry &find(const FillKey &key) {
    for (Entry &entry : entries_)
      if (entry.stream.key == key) {
        entry.lastUse = ++clock_;
        return entry;
      }
    entries_.push_back({DrawnStream{key, streamOf(key), 0, {}}, ++clock_});
    return entries_.back();
  }

  void evictBeyondLimit(const Entry *keep) {
    while (held_ > kMaxBytes && entries_.size() > 1) {
      auto oldest = entries_.end();
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (&*it != keep && (oldest == entries_.end() || it->lastUse < oldest->lastUse))
          oldest = it;
      held_ -= oldest->stream.bytes.size();
      entries_.erase(oldest);
    }
  }

  std::mutex mutex_;
  std::vector<Entry> entries_;
  uint64_t held_ = 0, clock_ = 0;
};

// Never destroyed: a search may run from a static destructor (simulee
// exec's runtime at program exit).
DrawnCache &drawnCache = *new DrawnCache;

// Spent buffers of this thread, for the next launch's: a search builds and
// drops hundreds of buffers of similar sizes, and fresh pages from the
// kernel cost more than filling them.
class SpareBuffers {
public:
  // The smallest spare buffer with room for `bytes` (its contents
  // unspecified), or an empty one when none has.
  std::vector<uint8_t> take(uint64_t bytes) {
    auto fits = std::find_if(spare_.begin(), spare_.end(),
                             [&](const std::vector<uint8_t> &b) { return b.capacity() >= bytes; });
    if (fits == spare_.end())
      return {};
    std::vector<uint8_t> buffer = std::move(*fits);
    held_ -= buffer.capacity();
    spare_.erase(fits);
    return buffer;
  }

  void give(std::vector<uint8_t> &&buffer) {
    if (buffer.capacity() < kSmallest || held_ + buffer.capacity() > kMaxBytes ||
        spare_.size() == kMaxBuffers)
      return;
    held_ += buffer.capacity();
    // Smallest first, so that take() finds the tightest fit.
    auto at = std::lower_bound(spare_.begin(), spare_.end(), buffer.capacity(),
                               [](const std::vector<uint8_t> &b, size_t c) { return b.capacity() < c; });
    spare_.insert(at, std::move(buffer));
  }

private:
  static constexpr uint64_t kSmallest = 4096, kMaxBytes = uint64_t(64) << 20;
  static constexpr size_t kMaxBuffers = 16;
  std::vector<std::vector<uint8_t>> spare_;
  uint64_t held_ = 0;
};

// `bytes` bytes starting with `prefix` (at most `bytes` long), the rest
// zero, in memory this thread recycled where it can.
std::vector<uint8_t> takeBuffer(uint64_t bytes, std::span<const uint8_t> prefix = {}) {
  std::vector<uint8_t> buffer;
  if (SpareBuffers *spare = ThreadCache<SpareBuffers>::get())
    buffer = spare->take(bytes);
  buffer.assign(prefix.begin(), prefix.end());
  buffer.resize(size_t(bytes), 0);
  return buffer;
}

// `indexRange`: the elements of the smallest other buffer (index fills stay
// below it). `elements` must have passed bufferBytes().
std::vector<uint8_t> fillContents(const ir::ParamInfo &param, uint32_t parameter,
                                  uint64_t elements, Fill fill, uint64_t indexRange,
                                  uint64_t seed) {
  uint32_t size = elementSize(param);
  // Pointers to pointers: random bytes would be wild pointers that may land
  // in some buffer by chance; null is reported as what it is.
  if (param.elementKind == ir::ValueKind::Pointer || fill == Fill::Zeros || elements == 0)
    return takeBuffer(elements * size);
  uint64_t drawn = std::min(elements, kRandomElements);
  FillKey key{.seed = seed, .parameter = parameter, .fill = fill,
              .elementKind = param.elementKind, .elementBytes = size};
  if (fill == Fill::Permutation) { // a shuffle of `drawn`: rarely asked for twice
    std::vector<uint8_t> bytes = takeBuffer(elements * size, permutationOf(key, param, drawn));
    // The rest in place, so that the whole is a permutation (distinct values).
    for (uint64_t i = drawn; i < elements; ++i)
      storeNumber(bytes.data() + i * size, param, size, double(i));
    return bytes;
  }
  std::vector<uint8_t> bytes;
  if (fill == Fill::Indices || fill == Fill::Keys) {
    // The range changes with the other buffers' sizes (and the kernel's
    // keys); the draws do not.
    key.elementBytes = 8;
    key.raw = true;
    bytes = takeBuffer(elements * size);
    int64_t low = 0;
    uint64_t range = std::max<uint64_t>(indexRange, 1);
    if (fill == Fill::Keys && param.keyRange) {
      low = param.keyRange->first;
      range = uint64_t(param.keyRange->second - param.keyRange->first) + 1;
    }
    drawnCache.withPrefix(key, param, drawn, [&](const uint8_t *raw) {
      for (uint64_t i = 0; i < drawn; ++i) {
        uint64_t r;
        std::memcpy(&r, raw + i * 8, 8);
        storeNumber(bytes.data() + i * size, param, size, double(low + int64_t(r % range)));
      }
    });
    return bytes;
  }
  drawnCache.withPrefix(key, param, drawn, [&](const uint8_t *source) {
    bytes = takeBuffer(elements * size, std::span(source, size_t(drawn * size)));
  });
  if (fill == Fill::Sorted || fill == Fill::PrefixSums) {
    // The tail repeats the last drawn value: copied in doubling runs.
    uint8_t *tail = bytes.data() + (drawn - 1) * size;
    uint64_t have = size, need = (elements - drawn + 1) * size;
    while (have < need) {
      uint64_t run = std::min(have, need - have);
      std::memcpy(tail + have, tail, size_t(run));
      have += run;
    }
  }
  return bytes;
}

// Bytes of `elements` elements of `elementBytes` each, if that fits the
// memory limit; the error names the parameter.
Result<uint64_t> bufferBytes(const ir::ParamInfo &param, uint64_t elements, uint64_t elementBytes) {
  uint64_t bytes = saturatingMultiply(elements, elementBytes);
  if (bytes > memoryLimitBytes() || bytes > ir::kMaxBufferBytes)
    return makeError("buffer for parameter '" + param.name + "' (" + std::to_string(elements) +
                     " elements of " + std::to_string(elementBytes) + " bytes): " +
                     overMemoryLimit(bytes));
  return bytes;
}

// A pointer member's buffer as a spec gave it: its element count and fill.
struct MemberPlan {
  uint64_t elements = 0;
  Fill fill = Fill::Random;
};

// Appends to `value.members` the buffer pointer member `m` of `param`
// points to: `copies` slices of `elements` elements each (or as `given` says
// for the member), filled as `fill` (or `given`) says. The bytes of one
// slice, or the error.
Result<uint64_t> addMemberBuffer(const ir::ParamInfo &param, uint32_t index, uint32_t m,
                                 uint64_t elements, uint64_t copies, Fill fill,
                                 uint64_t indexRange, uint64_t seed,
                                 const std::map<uint32_t, MemberPlan> &given,
                                 interp::ArgumentValue &value) {
  const ir::PointerMember &member = param.pointerMembers[m];
  ir::ParamInfo pointee;
  pointee.name = pointerMemberName(param, member);
  pointee.kind = ir::ValueKind::Pointer;
  pointee.elementKind = member.elementKind;
  pointee.elementBytes = member.elementBytes;
  pointee.elementSigned = member.elementSigned;
  auto plan = given.find(m);
  uint64_t slice = plan != given.end() ? plan->second.elements : elements;
  uint64_t total = saturatingMultiply(slice, copies);
  if (Result<uint64_t> bytes = bufferBytes(pointee, total, elementSize(pointee)); !bytes)
    return bytes.error();
  value.members.push_back(fillContents(pointee, ir::memberBufferId(index, m), total,
                                       plan != given.end() ? plan->second.fill : fill,
                                       indexRange, seed));
  return slice * elementSize(pointee);
}

// A pointer to member `m`'s buffer, `offset` bytes into it, written at byte
// `at` of `bytes` where it fits.
void storeMemberPointer(std::vector<uint8_t> &bytes, uint64_t at, uint32_t index, uint32_t m,
                        uint64_t offset) {
  uint64_t pointer = ir::encodePointer(ir::PointerSpace::Global, ir::memberBufferId(index, m),
                                       offset);
  if (at + sizeof pointer <= bytes.size())
    std::memcpy(bytes.data() + at, &pointer, sizeof pointer);
}

// An aggregate passed by value: its bytes filled as `fill` says, except its
// pointer members, which point to buffers of their own of `memberElements`
// elements each, filled the same way (a struct's `float *data` is memory the
// host allocated, never random bytes), or as `given` says for a member.
Result<interp::ArgumentValue> aggregateArgument(const ir::ParamInfo &param, uint32_t index,
                                                uint64_t memberElements, Fill fill,
                                                uint64_t indexRange, uint64_t seed,
                                                const std::map<uint32_t, MemberPlan> &given) {
  if (Result<uint64_t> bytes = bufferBytes(param, 1, param.byValueBytes); !bytes)
    return bytes.error();
  interp::ArgumentValue value =
      interp::ArgumentValue::buffer(fillContents(param, index, 1, fill, 1, seed));
  value.bytes.resize(param.byValueBytes);
  if (index >= ir::kMaxMemberParams)
    return value;
  for (uint32_t m = 0; m < param.pointerMembers.size(); ++m) {
    if (Result<uint64_t> added = addMemberBuffer(param, index, m, memberElements, 1, fill,
                                                 indexRange, seed, given, value);
        !added)
      return added.error();
    storeMemberPointer(value.bytes, param.pointerMembers[m].offset, index, m, 0);
  }
  return value;
}

// The structs a pointer parameter points to hold pointers (a `Node *` whose
// `float *data`), or it points to pointers (`float **rows`): in each of the
// buffer's elements, every pointer member points to a slice of a buffer of
// its own (one per member, filled as `fill` says), `perElement` elements
// long (the size an automatic buffer of a pointer parameter gets), or as
// `given` says. The host fills such pointers with memory it allocated,
// never with random bytes. Where the slices would take more than
// kMaxPointeeElements, the pointers stay as filled (simulee's, so a launch
// that dereferences them is not judged: pointerFromMadeUpStruct).
Status attachPointeeBuffers(const ir::ParamInfo &param, uint32_t index,
                            interp::ArgumentValue &value, uint64_t perElement, Fill fill,
                            uint64_t indexRange, uint64_t seed,
                            const std::map<uint32_t, MemberPlan> &given) {
  constexpr uint64_t kMaxPointeeElements = uint64_t(1) << 22;
  uint64_t elements = value.bytes.size() / std::max<uint32_t>(param.elementBytes, 1);
  if (index >= ir::kMaxMemberParams || elements == 0 ||
      saturatingMultiply(elements, perElement) > kMaxPointeeElements)
    return Ok{};
  for (uint32_t m = 0; m < param.pointerMembers.size(); ++m) {
    Result<uint64_t> sliceBytes = addMemberBuffer(param, index, m, perElement, elements, fill,
                                                  indexRange, seed, given, value);
    if (!sliceBytes)
      return sliceBytes.error();
    for (uint64_t e = 0; e < elements; ++e)
      storeMemberPointer(value.bytes, e * param.elementBytes + param.pointerMembers[m].offset,
                         index, m, e * *sliceBytes);
  }
  return Ok{};
}

// The raw bytes of `path` for a buffer: a regular file only (a FIFO would
// block, /dev/zero never ends) and no larger than the memory limit.
Result<std::vector<uint8_t>> readBufferFile(const ir::ParamInfo &param, const std::string &path) {
  auto cannot = [&](const std::string &why) {
    return makeError("cannot read '" + path + "' for parameter '" + param.name + "': " + why);
  };
  Result<uint64_t> size = regularFileSize(path);
  if (!size)
    return cannot(size.error().message);
  if (*size > memoryLimitBytes() || *size > ir::kMaxBufferBytes)
    return cannot(overMemoryLimit(*size));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return cannot("cannot open it");
  std::vector<uint8_t> bytes(static_cast<size_t>(*size));
  in.read(reinterpret_cast<char *>(bytes.data()), std::streamsize(bytes.size()));
  if (size_t(in.gcount()) != bytes.size())
    return cannot("it changed while being read");
  return bytes;
}

} // namespace

Result<ArgumentSpec> parseArgumentSpec(const std::string &text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return makeError("--arg '" + text + "': expected NAME=VALUE");
  return ArgumentSpec{text.substr(0, eq), text.substr(eq + 1)};
}

Result<size_t> findParameter(const ir::KernelInfo &kernel, const std::string &name) {
  for (size_t i = 0; i < kernel.params.size(); ++i)
    if (kernel.params[i].name == name)
      return i;
  uint64_t position;
  if (parseUnsigned(name, position) && position < kernel.params.size())
    return size_t(position);
  std::string known;
  for (const ir::ParamInfo &param : kernel.params)
    known += (known.empty() ? "" : ", ") + param.name;
  return makeError("no parameter '" + name +
                   "' (parameters: " + (known.empty() ? "none" : known) + ")");
}

std::string scalarMemberName(const ir::ParamInfo &aggregate, const ir::ScalarMember &member) {
  return member.name.empty() ? aggregate.name : aggregate.name + "." + member.name;
}

std::optional<MemberRef> findScalarMember(const ir::KernelInfo &kernel, const std::string &name) {
  for (size_t p = 0; p < kernel.params.size(); ++p) {
    const ir::ParamInfo &param = kernel.params[p];
    if (name.compare(0, param.name.size(), param.name) != 0)
      continue;
    for (size_t m = 0; m < param.scalarMembers.size(); ++m)
      if (scalarMemberName(param, param.scalarMembers[m]) == name)
        return MemberRef{p, m};
  }
  return std::nullopt;
}

std::string pointerMemberName(const ir::ParamInfo &aggregate, const ir::PointerMember &member) {
  if (member.name.starts_with('['))
    return aggregate.name + member.name; // the elements of a pointer to pointers: "rows[]"
  return aggregate.name + "." + (member.name.empty() ? std::to_string(member.offset) : member.name);
}

std::optional<MemberRef> findPointerMember(const ir::KernelInfo &kernel, const std::string &name) {
  for (size_t p = 0; p < kernel.params.size(); ++p) {
    const ir::ParamInfo &param = kernel.params[p];
    if (name.compare(0, param.name.size(), param.name) != 0)
      continue;
    for (size_t m = 0; m < param.pointerMembers.size(); ++m)
      if (pointerMemberName(param, param.pointerMembers[m]) == name)
        return MemberRef{p, m};
  }
  return std::nullopt;
}

ir::ParamInfo memberAsParameter(const ir::ParamInfo &aggregate, const ir::ScalarMember &member) {
  ir::ParamInfo param;
  param.name = scalarMemberName(aggregate, member);
  param.kind = member.kind;
  param.bits = member.bits;
  param.isSigned = member.isSigned;
  param.bfloat = member.bfloat;
  return param;
}

Result<uint64_t> parseScalar(const ir::ParamInfo &param, const std::string &text) {
  auto bad = [&](const std::string &why) {
    return makeError("bad value '" + text + "' for parameter '" + param.name + "': " + why);
  };
  if (param.kind == ir::ValueKind::Float) {
    char *end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0')
      return bad("expected a number");
    if (param.bits == 32)
      return uint64_t(std::bit_cast<uint32_t>(float(value)));
    if (param.bits == 16)
      return uint64_t(param.bfloat ? evo::toBfloat16Bits(float(value))
                                          : evo::toHalfBits(float(value)));
    return std::bit_cast<uint64_t>(value);
  }
  if (param.kind != ir::ValueKind::Int)
    return bad("this parameter takes a buffer (zeros:N, random:N or @FILE)");
  bool negative = !text.empty() && text[0] == '-';
  uint64_t magnitude;
  if (!parseUnsigned(negative ? text.substr(1) : text, magnitude)) {
    if (text == "true")
      return uint64_t(1);
    if (text == "false")
      return uint64_t(0);
    return bad("expected an integer");
  }
  uint64_t mask = param.bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << param.bits) - 1;
  // Negative values down to -2^(bits-1), positive ones up to 2^bits - 1.
  if (negative ? magnitude > (mask >> 1) + 1 : magnitude > mask)
    return bad("out of range for a " + std::to_string(param.bits) + "-bit integer");
  uint64_t value = negative ? uint64_t(0) - magnitude : magnitude;
  return value & mask;
}

uint64_t automaticElements(const ir::KernelInfo &kernel, const interp::LaunchConfig &config,
                           const std::vector<uint64_t> &positiveIntArguments) {
  constexpr uint64_t kCap = uint64_t(1) << 18;
  std::vector<uint64_t> ints = positiveIntArguments;
  std::sort(ints.rbegin(), ints.rend());
  uint64_t base = std::max<uint64_t>(config.grid.count() * config.block.count(), 1);
  if (!ints.empty())
    base = std::max(base, ints[0]);
  // A matrix indexed row * n + col needs n * n (or rows * cols) elements.
  if (!ints.empty() && ints[0] < kCap) {
    bool twoDimensional = false;
    for (auto variable : {ir::BuiltinVariable::ThreadIdx, ir::BuiltinVariable::BlockIdx})
      twoDimensional |= kernel.readsBuiltin[unsigned(variable)][1];
    uint64_t second = twoDimensional ? ints[0] : ints.size() > 1 ? ints[1] : 0;
    if (second && ints[0] * second <= kCap / 4)
      base = std::max(base, ints[0] * second);
  }
  // Headroom for neighbours (stencils read i+1) and 2-D indexing by the
  // launch's width.
  return std::min<uint64_t>(base + config.block.x + 64, kCap);
}

const char *fillName(Fill fill) {
  switch (fill) {
  case Fill::Random: return "random";
  case Fill::Zeros: return "zeros";
  case Fill::Small: return "small";
  case Fill::Binary: return "binary";
  case Fill::Sorted: return "sorted";
  case Fill::Indices: return "indices";
  case Fill::Permutation: return "perm";
  case Fill::PrefixSums: return "prefix";
  case Fill::Keys:
    return "keys";
  }
  return "random";
}

std::optional<Fill> fillNamed(std::string_view name) {
  for (uint32_t kind = 0; kind <= uint32_t(Fill::Keys); ++kind)
    if (name == fillName(Fill(kind)))
      return Fill(kind);
  return std::nullopt;
}

bool conventionalFill(Fill fill, ir::ContentRole role) {
  if (fill == Fill::Keys) // in bounds of what they key, by their range
    return true;
  switch (role) {
  case ir::ContentRole::None: return true;
  case ir::ContentRole::Offsets:
  case ir::ContentRole::Sorted:
    return fill == Fill::Zeros || fill == Fill::Sorted || fill == Fill::PrefixSums;
  case ir::ContentRole::Index:
    return fill == Fill::Indices || fill == Fill::Zeros;
  case ir::ContentRole::Scatter:
    return fill == Fill::Permutation;
  }
  return true;
}

Fill fillOfGene(int64_t value, const ir::ParamInfo &param) {
  auto kind = uint32_t(std::clamp<int64_t>(value, 0, kFillKinds - 1));
  if (param.keyRange && kind == 0)
    return Fill::Keys;
  static constexpr Fill kOffsetsFirst[kFillKinds] = {
      Fill::PrefixSums, Fill::Sorted, Fill::Zeros,   Fill::Random,
      Fill::Small,      Fill::Binary, Fill::Indices, Fill::Permutation};
  static constexpr Fill kIndicesFirst[kFillKinds] = {
      Fill::Indices, Fill::Zeros,  Fill::Small,       Fill::Binary,
      Fill::Random,  Fill::Sorted, Fill::Permutation, Fill::PrefixSums};
  static constexpr Fill kScatterFirst[kFillKinds] = {
      Fill::Permutation, Fill::Indices, Fill::Zeros,  Fill::Small,
      Fill::Binary,      Fill::Random,  Fill::Sorted, Fill::PrefixSums};
  static constexpr Fill kSortedFirst[kFillKinds] = {Fill::Sorted,  Fill::PrefixSums, Fill::Zeros,
                                                    Fill::Random,  Fill::Small,      Fill::Binary,
                                                    Fill::Indices, Fill::Permutation};
  switch (param.contents) {
  case ir::ContentRole::Offsets: return kOffsetsFirst[kind];
  case ir::ContentRole::Sorted:
    return kSortedFirst[kind];
  case ir::ContentRole::Index: return kIndicesFirst[kind];
  case ir::ContentRole::Scatter:
    return kScatterFirst[kind];
  case ir::ContentRole::None: break;
  }
  return Fill(kind);
}

namespace {

// FILL:N for a pointer member.
Result<MemberPlan> parseMemberPlan(const ArgumentSpec &spec) {
  MemberPlan plan;
  size_t colon = spec.value.find(':');
  std::optional<Fill> fill =
      colon == std::string::npos ? std::nullopt : fillNamed(spec.value.substr(0, colon));
  if (!fill || !parseUnsigned(spec.value.substr(colon + 1), plan.elements) || plan.elements == 0)
    return makeError("bad value '" + spec.value + "' for pointer member '" + spec.name +
                     "': expected FILL:N (FILL: random, zeros, small, binary, sorted, indices, "
                     "perm, prefix, keys; N at least 1)");
  plan.fill = *fill;
  return plan;
}

// Parameter `index`'s pointer into the buffer of the parameter `text`
// ("same:NAME" or "same:NAME+K") names, K of its own elements in.
Result<interp::ArgumentValue> pointerIntoBuffer(const ir::KernelInfo &kernel, size_t index,
                                                const std::string &text,
                                                const BuiltArguments &built) {
  const ir::ParamInfo &param = kernel.params[index];
  std::string target = text.substr(std::strlen(kSameBuffer));
  uint64_t elements = 0;
  size_t plus = target.find('+');
  bool counted = plus == std::string::npos || parseUnsigned(target.substr(plus + 1), elements);
  target = target.substr(0, plus);
  Result<size_t> other = findParameter(kernel, target);
  auto bad = [&](const std::string &why) {
    return makeError("bad value '" + text + "' for parameter '" + param.name + "': " + why);
  };
  if (!param.isBufferPointer())
    return bad("only a pointer parameter can point into another's buffer");
  if (!counted)
    return bad("expected same:NAME or same:NAME+K (K elements in)");
  if (!other)
    return bad(other.error().message);
  const ir::ParamInfo &buffer = kernel.params[*other];
  const interp::ArgumentValue &value = built.values[*other];
  if (*other == index || !buffer.isBufferPointer() ||
      value.kind != interp::ArgumentValue::Kind::Buffer)
    return bad("'" + buffer.name + "' is no pointer parameter with a buffer of its own");
  uint64_t offset = elements * elementSize(param);
  if (elements > value.bytes.size() || offset > value.bytes.size())
    return bad("the pointer would be past the end of '" + buffer.name + "''s " +
               std::to_string(value.bytes.size()) + " bytes");
  return interp::ArgumentValue::scalar(
      ir::encodePointer(ir::PointerSpace::Global, uint32_t(*other), int64_t(offset)));
}

} // namespace

Result<BuiltArguments> buildArguments(const ir::KernelInfo &kernel,
                                      const interp::LaunchConfig &config,
                                      const std::vector<ArgumentSpec> &specs, uint64_t seed,
                                      const std::vector<uint64_t> &elementCounts,
                                      const std::vector<Fill> &fills) {
  std::vector<const ArgumentSpec *> given(kernel.params.size(), nullptr);
  struct MemberValue {
    MemberRef ref;
    uint64_t bits = 0;
  };
  std::vector<MemberValue> memberValues;
  std::vector<std::pair<std::string, std::string>> memberRecord;
  std::vector<uint64_t> positiveInts;
  std::vector<std::map<uint32_t, MemberPlan>> memberPlans(kernel.params.size());
  BuiltArguments built;
  for (const ArgumentSpec &spec : specs) {
    if (std::optional<MemberRef> member = findPointerMember(kernel, spec.name)) {
      Result<MemberPlan> plan = parseMemberPlan(spec);
      if (!plan)
        return plan.error();
      memberPlans[member->param][uint32_t(member->member)] = *plan;
      built.sizedMembers.insert(ir::memberBufferId(uint32_t(member->param), uint32_t(member->member)));
      memberRecord.push_back({spec.name, spec.value});
      continue;
    }
    if (std::optional<MemberRef> member = findScalarMember(kernel, spec.name)) {
      const ir::ScalarMember &info = kernel.params[member->param].scalarMembers[member->member];
      ir::ParamInfo param = memberAsParameter(kernel.params[member->param], info);
      Result<uint64_t> bits = parseScalar(param, spec.value);
      if (!bits)
        return bits.error();
      memberValues.push_back({*member, *bits});
      memberRecord.push_back({spec.name, spec.value});
      int64_t value = param.isSigned ? interp::signExtend(*bits, param.bits) : int64_t(*bits);
      if (param.kind == ir::ValueKind::Int && value > 0)
        positiveInts.push_back(uint64_t(value));
      continue;
    }
    Result<size_t> index = findParameter(kernel, spec.name);
    if (!index)
      return index.error();
    given[*index] = &spec;
  }

  built.values.resize(kernel.params.size());
  built.record.resize(kernel.params.size());

  // Scalars first: automatic buffers are sized from them.
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ir::ParamInfo &param = kernel.params[i];
    if (param.kind != ir::ValueKind::Int && param.kind != ir::ValueKind::Float)
      continue;
    std::string text = given[i] ? given[i]->value : "0";
    if (!given[i] && param.kind == ir::ValueKind::Int)
      text = std::to_string(config.grid.count() * config.block.count());
    Result<uint64_t> bits = parseScalar(param, text);
    if (!bits)
      return bits.error();
    built.values[i] = interp::ArgumentValue::scalar(*bits);
    built.record[i] = {param.name, text};
    if (param.kind == ir::ValueKind::Int) {
      int64_t signedValue = interp::signExtend(*bits, param.bits);
      if (signedValue > 0)
        positiveInts.push_back(uint64_t(signedValue));
    }
  }

  // Buffers: first how many elements and how filled (index fills depend on
  // the other buffers' sizes), then the contents.
  struct Planned {
    uint64_t elements = 0;
    uint64_t offset = 0; // FILL:N+K: the pointer points K elements in
    Fill fill = Fill::Random;
    bool planned = false; // false: scalar, by-value aggregate or @FILE
  };
  std::vector<Planned> plans(kernel.params.size());
  std::vector<uint64_t> givenElements(kernel.params.size(), 0); // buffers of bytes given
  std::vector<std::optional<TextureArgument>> textures(kernel.params.size()); // given specs
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ir::ParamInfo &param = kernel.params[i];
    if (param.kind == ir::ValueKind::Int || param.kind == ir::ValueKind::Float)
      continue;
    Planned &plan = plans[i];
    if (!given[i]) {
      plan.elements = param.byValueBytes && param.pointerMembers.empty() ? 1
                      : (i < elementCounts.size() && elementCounts[i])
                          ? elementCounts[i]
                          : automaticElements(kernel, config, positiveInts);
      plan.fill = i < fills.size() ? fills[i] : Fill::Random;
      plan.planned = true;
      continue;
    }
    const std::string &text = given[i]->value;
    built.record[i] = {param.name, text};
    if (text.rfind(kSameBuffer, 0) == 0)
      continue; // a pointer into another parameter's buffer: set below
    if (given[i]->bytes) {
      built.values[i] = interp::ArgumentValue::buffer(*given[i]->bytes);
      if (param.kind == ir::ValueKind::Pointer)
        givenElements[i] = given[i]->bytes->size() / elementSize(param);
      continue;
    }
    if (param.resource != ir::ResourceKind::None) {
      Result<TextureArgument> texture = parseTextureArgument(param, text);
      if (!texture)
        return texture.error();
      if (!texture->descriptor.aliasName.empty()) {
        Result<size_t> target = findParameter(kernel, texture->descriptor.aliasName);
        if (!target)
          return makeError("texture parameter '" + param.name + "': alias: " +
                           target.error().message);
        const ir::ParamInfo &aliased = kernel.params[*target];
        if (!aliased.isBufferPointer())
          return makeError("texture parameter '" + param.name + "': alias '" + aliased.name +
                           "' is not a pointer parameter");
        texture->descriptor.aliasOf = int32_t(*target);
        built.values[i] = interp::ArgumentValue::buffer({});
        built.values[i].texture = texture->descriptor;
        continue;
      }
      if (!texture->file.empty()) {
        Result<std::vector<uint8_t>> bytes = readBufferFile(param, texture->file);
        if (!bytes)
          return bytes.error();
        if (bytes->size() != texture->descriptor.sizeBytes())
          return makeError("'" + texture->file + "' for parameter '" + param.name + "' has " +
                           std::to_string(bytes->size()) + " bytes; " +
                           texture->descriptor.describe() + " needs " +
                           std::to_string(texture->descriptor.sizeBytes()));
        built.values[i] = interp::ArgumentValue::buffer(std::move(*bytes));
        built.values[i].texture = texture->descriptor;
        continue;
      }
      plan.elements = texture->descriptor.texelCount();
      plan.fill = texture->fill;
      plan.planned = true;
      textures[i] = std::move(*texture);
      continue;
    }
    if (!text.empty() && text[0] == '@') {
      Result<std::vector<uint8_t>> bytes = readBufferFile(param, text.substr(1));
      if (!bytes)
        return bytes.error();
      built.values[i] = interp::ArgumentValue::buffer(std::move(*bytes));
      continue;
    }
    size_t colon = text.find(':');
    std::optional<Fill> fill =
        colon == std::string::npos ? std::nullopt : fillNamed(text.substr(0, colon));
    if (!fill)
      return makeError("bad value '" + text + "' for pointer parameter '" + param.name +
                       "': expected FILL:N (FILL: random, zeros, small, binary, sorted, "
                       "indices, perm, prefix, keys) or @FILE");
    plan.fill = *fill;
    std::string count = text.substr(colon + 1);
    size_t plus = count.find('+');
    bool offsetOk = plus == std::string::npos ||
                    (param.kind == ir::ValueKind::Pointer && !param.byValueBytes &&
                     parseUnsigned(count.substr(plus + 1), plan.offset));
    if (!parseUnsigned(count.substr(0, plus), plan.elements) || !offsetOk ||
        plan.offset > plan.elements)
      return makeError("bad value '" + text + "' for parameter '" + param.name +
                       "': expected an element count, optionally +K (the pointer K elements "
                       "into the buffer, K at most the count)");
    plan.planned = true;
  }
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (!plans[i].planned)
      continue;
    // Index fills stay inside the smallest other buffer, planned or given.
    uint64_t indexRange = plans[i].elements;
    for (size_t other = 0; other < plans.size(); ++other) {
      if (other != i && plans[other].planned)
        indexRange = std::min(indexRange, plans[other].elements);
      if (other != i && givenElements[other])
        indexRange = std::min(indexRange, givenElements[other]);
    }
    if (kernel.params[i].byValueBytes) {
      Result<interp::ArgumentValue> aggregate =
          aggregateArgument(kernel.params[i], uint32_t(i), plans[i].elements, plans[i].fill,
                            indexRange, seed, memberPlans[i]);
      if (!aggregate)
        return aggregate.error();
      built.values[i] = std::move(*aggregate);
      built.values[i].autoSized = !given[i];
      if (!given[i])
        built.record[i] = {kernel.params[i].name, std::string(fillName(plans[i].fill)) + ":" +
                                                      std::to_string(plans[i].elements)};
      continue;
    }
    // A texture's buffer holds its texels; fills see one element per channel.
    std::optional<interp::TextureDescriptor> texture;
    if (kernel.params[i].resource != ir::ResourceKind::None)
      texture = textures[i] ? textures[i]->descriptor
                            : automaticTexture(kernel.params[i], plans[i].elements);
    const ir::ParamInfo param =
        texture ? texelChannels(kernel.params[i], *texture) : kernel.params[i];
    uint64_t elements = texture ? texture->texelCount() * texture->channels : plans[i].elements;
    if (Result<uint64_t> bytes = bufferBytes(param, elements, elementSize(param)); !bytes)
      return bytes.error();
    built.values[i] = interp::ArgumentValue::buffer(
        fillContents(param, uint32_t(i), elements, plans[i].fill, indexRange, seed),
        /*autoSized=*/!given[i]);
    built.values[i].texture = texture;
    built.values[i].pointerOffset = plans[i].offset * elementSize(param);
    if (!texture && param.pointsToPointers() && !param.pointerMembers.empty())
      if (Status attached =
              attachPointeeBuffers(param, uint32_t(i), built.values[i],
                                   automaticElements(kernel, config, positiveInts), plans[i].fill,
                                   indexRange, seed, memberPlans[i]);
          !attached)
        return attached.error();
    if (!given[i])
      built.record[i] = {kernel.params[i].name,
                         texture ? texture->describe() + ":" + fillName(plans[i].fill)
                                 : std::string(fillName(plans[i].fill)) + ":" +
                                       std::to_string(plans[i].elements)};
  }
  // Members set one by one, over the aggregate's filled or given bytes.
  for (const MemberValue &member : memberValues) {
    const ir::ScalarMember &info = kernel.params[member.ref.param].scalarMembers[member.ref.member];
    std::vector<uint8_t> &bytes = built.values[member.ref.param].bytes;
    if (uint64_t(info.offset) + info.bits / 8 <= bytes.size())
      std::memcpy(bytes.data() + info.offset, &member.bits, info.bits / 8);
  }
  // Pointers into another parameter's buffer, once that buffer is made.
  for (size_t i = 0; i < kernel.params.size(); ++i)
    if (given[i] && !given[i]->bytes && given[i]->value.rfind(kSameBuffer, 0) == 0) {
      Result<interp::ArgumentValue> pointer = pointerIntoBuffer(kernel, i, given[i]->value, built);
      if (!pointer)
        return pointer.error();
      built.values[i] = std::move(*pointer);
    }
  built.record.insert(built.record.end(), memberRecord.begin(), memberRecord.end());
  return built;
}

void recycleArguments(BuiltArguments &&built) {
  SpareBuffers *spare = ThreadCache<SpareBuffers>::get();
  for (interp::ArgumentValue &value : built.values) {
    if (value.kind != interp::ArgumentValue::Kind::Buffer || !spare)
      continue;
    spare->give(std::move(value.bytes));
    for (std::vector<uint8_t> &member : value.members)
      spare->give(std::move(member));
  }
}

} // namespace simulee::session
