#include "interp/Texture.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>

namespace simulee::interp {
namespace {

const char *typeName(TexelType type, unsigned channelBytes) {
  switch (type) {
  case TexelType::Float:
    return "float";
  case TexelType::Signed:
    return channelBytes == 1 ? "char" : channelBytes == 2 ? "short" : "int";
  case TexelType::Unsigned:
    return channelBytes == 1 ? "uchar" : channelBytes == 2 ? "ushort" : "uint";
  }
  return "float";
}

const char *addressName(AddressMode mode) {
  switch (mode) {
  case AddressMode::Clamp:
    return "clamp";
  case AddressMode::Wrap:
    return "wrap";
  case AddressMode::Mirror:
    return "mirror";
  case AddressMode::Border:
    return "border";
  }
  return "clamp";
}

// Channel `c` of a texel as stored: sign- or zero-extended integer, or the
// float's bits.
uint32_t rawChannel(const TextureDescriptor &t, const uint8_t *texel, unsigned c) {
  uint32_t bits = 0;
  std::memcpy(&bits, texel + c * t.channelBytes, t.channelBytes);
  if (t.type == TexelType::Signed && t.channelBytes < 4) {
    unsigned shift = 32 - 8 * t.channelBytes;
    bits = uint32_t(int32_t(bits << shift) >> shift);
  }
  return bits;
}

// Channel `c` as the float a filtering or f32 fetch sees.
float floatChannel(const TextureDescriptor &t, const uint8_t *texel, unsigned c) {
  uint32_t bits = rawChannel(t, texel, c);
  if (t.type == TexelType::Float)
    return std::bit_cast<float>(bits);
  double value = t.type == TexelType::Signed ? double(int32_t(bits)) : double(bits);
  if (!t.readNormalizedFloat)
    return float(value);
  unsigned valueBits = 8 * t.channelBytes;
  if (t.type == TexelType::Unsigned)
    return float(value / double((uint64_t(1) << valueBits) - 1));
  return float(std::max(value / double((uint64_t(1) << (valueBits - 1)) - 1), -1.0));
}

// The texel index along one axis of `size` texels after the address mode;
// nothing when a border texel (all zero) is meant. Wrap and mirror need
// normalised coordinates; without them CUDA clamps.
std::optional<int64_t> addressed(int64_t i, uint32_t size, AddressMode mode, bool normalized) {
  int64_t n = size;
  if (!normalized && (mode == AddressMode::Wrap || mode == AddressMode::Mirror))
    mode = AddressMode::Clamp;
  switch (mode) {
  case AddressMode::Clamp:
    return std::clamp<int64_t>(i, 0, n - 1);
  case AddressMode::Border:
    if (i < 0 || i >= n)
      return std::nullopt;
    return i;
  case AddressMode::Wrap:
    return ((i % n) + n) % n;
  case AddressMode::Mirror: {
    int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  }
  return std::nullopt;
}

// A float coordinate in texels, finite and far from int64's limits.
double texelCoordinate(uint32_t bits, uint32_t size, bool normalized) {
  double u = double(std::bit_cast<float>(bits));
  if (std::isnan(u))
    u = 0;
  if (normalized)
    u *= size;
  return std::clamp(u, -1e9, 1e9);
}

// A cube map fetch's face (0-5: +x, -x, +y, -y, +z, -z) and its normalised
// coordinates in that face, after the Programming Guide's table of cube map
// fetches: the major axis m picks the face, and (s / |m| + 1) / 2, (t / |m|
// + 1) / 2 address it.
struct CubeTexel {
  int64_t face = 0;
  float s = 0.5f, t = 0.5f;
};
CubeTexel cubeFace(const std::array<uint32_t, 3> &direction) {
  float x = std::bit_cast<float>(direction[0]), y = std::bit_cast<float>(direction[1]),
        z = std::bit_cast<float>(direction[2]);
  float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float m = 0, s = 0, t = 0;
  int64_t face = 0;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    m = ax, s = x >= 0 ? -z : z, t = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    m = ay, s = x, t = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    m = az, s = z >= 0 ? x : -x, t = -y;
  }
  if (!(m > 0)) // the zero vector (or NaNs): the first face's centre
    return {};
  return {face, (s / m + 1) / 2, (t / m + 1) / 2};
}

} // namespace

std::string TextureDescriptor::describe() const {
  std::string text = std::string(isSurface ? "surf" : "tex") + std::to_string(dims) + "d:";
  for (unsigned axis = 0; axis < dims; ++axis)
    text += (axis ? "x" : "") + std::to_string(extent[axis]);
  text += std::string(":") + typeName(type, channelBytes);
  if (channels > 1)
    text += std::to_string(channels);
  if (isSurface)
    return aliasOf >= 0 ? text + ":alias=" + aliasName : text;
  text += filter == FilterMode::Linear ? ":linear" : ":point";
  text += std::string(":") + addressName(address);
  if (normalizedCoords)
    text += ":normalized";
  if (readNormalizedFloat)
    text += ":float-read";
  if (aliasOf >= 0)
    text += ":alias=" + aliasName;
  return text;
}

std::array<uint32_t, 4> fetchTexture(const TextureDescriptor &t, uint8_t flags,
                                     const std::array<uint32_t, 3> &coords, TexelReader &reader) {
  unsigned dims = std::clamp(flags & 3u, 1u, 3u);
  bool integerCoords = flags >> 2 & 1;
  auto result = ir::TextureResult(flags >> 3 & 3);
  auto geometry = ir::TextureGeometry(flags >> 5 & 3);
  std::array<uint32_t, 4> out{0, 0, 0, 0};

  // A layer of a layered texture or a cube map's face is a slice (z): an
  // integer, clamped, never filtered across. A cube map's face is addressed
  // in normalised coordinates, clamped to its edges (no filtering across
  // faces).
  std::array<uint32_t, 3> at = coords;
  bool normalized = t.normalizedCoords;
  AddressMode address = t.address;
  std::optional<int64_t> slice;
  int64_t lastSlice = int64_t(std::max<uint32_t>(t.extent[2], 1)) - 1;
  if (geometry == ir::TextureGeometry::Layered) {
    slice = std::clamp<int64_t>(int32_t(coords[2]), 0, lastSlice);
  } else if (geometry == ir::TextureGeometry::Cube) {
    CubeTexel cube = cubeFace(coords);
    at = {std::bit_cast<uint32_t>(cube.s), std::bit_cast<uint32_t>(cube.t), 0};
    slice = std::min(cube.face, lastSlice);
    dims = 2;
    normalized = true;
    address = AddressMode::Clamp;
  }

  // Up to 8 texels, each with its weight (point sampling: one, weight 1).
  struct Tap {
    std::array<int64_t, 3> at{0, 0, 0};
    double weight = 1;
    bool border = false;
  };
  Tap taps[8];
  unsigned tapCount = 1;
  bool linear =
      t.filter == FilterMode::Linear && !integerCoords && result == ir::TextureResult::F32;
  for (unsigned axis = 0; axis < 3; ++axis) {
    uint32_t size = t.extent[axis];
    if (axis >= dims) {
      for (unsigned k = 0; k < tapCount; ++k)
        taps[k].at[axis] = axis == 2 && slice ? *slice : 0;
      continue;
    }
    if (integerCoords) { // tex1Dfetch: the texel index itself, zero outside
      int64_t i = int32_t(at[axis]);
      taps[0].at[axis] = i;
      taps[0].border |= i < 0 || i >= int64_t(size);
      continue;
    }
    double u = texelCoordinate(at[axis], size, normalized);
    if (!linear) {
      std::optional<int64_t> i = addressed(int64_t(std::floor(u)), size, address, normalized);
      taps[0].at[axis] = i.value_or(0);
      taps[0].border |= !i;
      continue;
    }
    // Linear: texels floor(u - 0.5) and the next, weighted by the fraction
    // held in 9-bit fixed point with 8 fractional bits, as the hardware does.
    double below = std::floor(u - 0.5);
    double alpha = std::round((u - 0.5 - below) * 256.0) / 256.0;
    std::optional<int64_t> i0 = addressed(int64_t(below), size, address, normalized);
    std::optional<int64_t> i1 = addressed(int64_t(below) + 1, size, address, normalized);
    for (unsigned k = 0; k < tapCount; ++k) {
      taps[k + tapCount] = taps[k];
      taps[k].at[axis] = i0.value_or(0);
      taps[k].border |= !i0;
      taps[k].weight *= 1 - alpha;
      taps[k + tapCount].at[axis] = i1.value_or(0);
      taps[k + tapCount].border |= !i1;
      taps[k + tapCount].weight *= alpha;
    }
    tapCount *= 2;
  }

  double sums[4] = {0, 0, 0, 0};
  for (unsigned k = 0; k < tapCount; ++k) {
    const Tap &tap = taps[k];
    if (tap.border)
      continue;
    uint64_t index = (uint64_t(tap.at[2]) * t.extent[1] + uint64_t(tap.at[1])) * t.extent[0] +
                     uint64_t(tap.at[0]);
    const uint8_t *texel = reader.read(index);
    if (!texel)
      continue;
    for (unsigned c = 0; c < t.channels && c < 4; ++c) {
      if (result == ir::TextureResult::F32)
        sums[c] += tap.weight * floatChannel(t, texel, c);
      else
        out[c] = rawChannel(t, texel, c);
    }
  }
  if (result == ir::TextureResult::F32)
    for (unsigned c = 0; c < 4; ++c)
      out[c] = std::bit_cast<uint32_t>(float(sums[c]));
  return out;
}

SurfaceAddress surfaceAddress(const TextureDescriptor &s, uint8_t flags,
                              const std::array<int64_t, 3> &coords, uint32_t sizeBytes) {
  unsigned dims = std::clamp(flags & 3u, 1u, 3u);
  auto boundary = ir::SurfaceBoundary(flags >> 2 & 3);
  int64_t rowBytes = int64_t(s.extent[0]) * s.texelBytes();
  int64_t x = coords[0];
  int64_t y = dims >= 2 ? coords[1] : 0;
  int64_t z = dims >= 3 ? coords[2] : 0;
  if (boundary == ir::SurfaceBoundary::Clamp && rowBytes >= int64_t(sizeBytes)) {
    x = std::clamp<int64_t>(x, 0, rowBytes - sizeBytes);
    y = std::clamp<int64_t>(y, 0, int64_t(s.extent[1]) - 1);
    z = std::clamp<int64_t>(z, 0, int64_t(s.extent[2]) - 1);
  }
  bool inside = x >= 0 && x + int64_t(sizeBytes) <= rowBytes && y >= 0 &&
                y < int64_t(s.extent[1]) && z >= 0 && z < int64_t(s.extent[2]);
  if (!inside)
    return SurfaceAddress{false, 0};
  return SurfaceAddress{true, s.byteOffset + uint64_t(z * s.extent[1] + y) * s.pitchBytes() +
                                  uint64_t(x)};
}

uint64_t surfaceOverrunOffset(const TextureDescriptor &s, const std::array<int64_t, 3> &coords,
                              uint32_t sizeBytes) {
  constexpr int64_t kLargestSide = int64_t(1) << 20;
  uint32_t texelBytes = std::max<uint32_t>(s.texelBytes(), 1);
  int64_t side =
      (std::clamp<int64_t>(coords[0], 0, kLargestSide) + sizeBytes + texelBytes - 1) / texelBytes;
  for (unsigned axis = 1; axis < s.dims; ++axis)
    side = std::max(side, std::clamp<int64_t>(coords[axis], 0, kLargestSide) + 1);
  // Generously (the next power of two of twice the side): a repair sees only
  // the first overrun of each instruction and has a few attempts.
  side = int64_t(std::bit_ceil(uint64_t(2 * side)));
  uint64_t needed = uint64_t(side) * texelBytes;
  for (unsigned axis = 1; axis < s.dims; ++axis)
    needed *= uint64_t(side);
  return std::max<uint64_t>(needed, s.sizeBytes());
}

} // namespace simulee::interp
