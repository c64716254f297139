// Textures and surfaces as a kernel sees them: the descriptor simulee keeps
// for a cudaTextureObject_t / cudaSurfaceObject_t parameter (given with
// `--arg NAME=tex2d:64x32:float:linear` or chosen automatically), and the
// sampling rules of tex1Dfetch / tex1D / tex2D / tex3D, the layered fetches
// and cube maps (CUDA Programming Guide, "Texture Fetching"); a layer or a
// cube map's face is a slice (z) of the texels. The texels live in the parameter's backing
// buffer, row-major (x fastest); every texel a fetch reads is read through a
// callback, so the interpreter records it as a memory read of that buffer.
#pragma once

#include "ir/Opcodes.h"

#include <array>
#include <cstdint>
#include <string>

namespace simulee::interp {

enum class TexelType : uint8_t { Float, Signed, Unsigned };
enum class FilterMode : uint8_t { Point, Linear };
enum class AddressMode : uint8_t { Clamp, Wrap, Mirror, Border };

struct TextureDescriptor {
  bool isSurface = false;
  uint8_t dims = 1;                        // 1, 2 or 3
  std::array<uint32_t, 3> extent{1, 1, 1}; // width, height, depth in texels
  TexelType type = TexelType::Float;
  uint8_t channelBytes = 4; // 1, 2 or 4 (floats: 4)
  uint8_t channels = 1;     // 1, 2 or 4
  FilterMode filter = FilterMode::Point;
  AddressMode address = AddressMode::Clamp; // every axis
  bool normalizedCoords = false;            // coordinates in [0, 1)
  bool readNormalizedFloat = false; // cudaReadModeNormalizedFloat: integer texels as [0,1]/[-1,1]
  // The texels are another parameter's buffer (a texture bound to memory the
  // kernel also reaches through a pointer): reads of them are accesses of
  // that buffer, so they race with the kernel's writes to it. -1: its own.
  int32_t aliasOf = -1;
  std::string aliasName; // that parameter's name, for describe()
  // Where the texels lie in their buffer (simulee exec: a texture over
  // pitched or offset device memory): texel (x, y, z) at byteOffset +
  // (z * height + y) * rowPitch + x * texelBytes(). rowPitch 0: rows packed.
  uint64_t byteOffset = 0;
  uint64_t rowPitch = 0;

  uint32_t texelBytes() const { return uint32_t(channelBytes) * channels; }
  uint64_t texelCount() const { return uint64_t(extent[0]) * extent[1] * extent[2]; }
  uint64_t sizeBytes() const { return texelCount() * texelBytes(); }
  uint64_t pitchBytes() const { return rowPitch ? rowPitch : uint64_t(extent[0]) * texelBytes(); }
  // The byte offset of texel `index` (row-major) in its buffer.
  uint64_t texelOffset(uint64_t index) const {
    return byteOffset + index / extent[0] * pitchBytes() + index % extent[0] * texelBytes();
  }
  // The --arg spelling, e.g. "tex2d:64x32:float:linear:clamp".
  std::string describe() const;
};

// Reads texel `index` (row-major); null when it cannot be read (the reader
// has reported why). Every texel a fetch uses is read exactly once.
class TexelReader {
public:
  virtual const uint8_t *read(uint64_t index) = 0;

protected:
  ~TexelReader() = default;
};

// One fetch (`flags` as ir::textureFetchFlags): `coords` are the raw 32-bit
// coordinate operands (floats, or integers for tex1Dfetch); returns the four
// channels' result bits.
std::array<uint32_t, 4> fetchTexture(const TextureDescriptor &texture, uint8_t flags,
                                     const std::array<uint32_t, 3> &coords, TexelReader &reader);

// Surface access (PTX suld.b / sust.b): x in bytes, y and z in rows and
// slices; `flags` as ir::surfaceFlags. With the Clamp boundary an access
// outside is moved inside; otherwise it is outside (Trap: an error on a GPU,
// Zero: reads 0, writes nothing).
struct SurfaceAddress {
  bool inside = true;      // false: outside the surface (after clamping, if asked)
  uint64_t byteOffset = 0; // in the backing buffer
};
SurfaceAddress surfaceAddress(const TextureDescriptor &surface, uint8_t flags,
                              const std::array<int64_t, 3> &coords, uint32_t sizeBytes);

// Where an access outside the surface is reported: past the end of its
// buffer, and as far as a square (2-D) or cubic (3-D) surface with room for
// twice these coordinates would reach.
uint64_t surfaceOverrunOffset(const TextureDescriptor &surface,
                              const std::array<int64_t, 3> &coords, uint32_t sizeBytes);

} // namespace simulee::interp
