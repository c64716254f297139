// Texture objects, surface objects and CUDA arrays of simulee exec
// (cudaCreateTextureObject, cudaCreateSurfaceObject, cudaMallocArray). A
// handle the program holds names a TextureObject here: the interpreter's
// descriptor (interp/Texture.h: texel type, channels, extent, filter,
// address mode, normalized coordinates, read mode) and the address of its
// first texel in device memory. At launch a texture or surface parameter
// becomes a buffer whose texels are that allocation's bytes (the
// descriptor's aliasOf, byteOffset and rowPitch), so fetches read the
// program's data and surface stores land in it. A CUDA array is a device
// allocation of packed rows. What the interpreter cannot model (mipmaps,
// layered cube maps, sRGB, anisotropy, per-axis address modes, resource
// views, border colours other than 0) is refused by name, never ignored.
#pragma once

#include "interp/Texture.h"
#include "support/Result.h"

#include <driver_types.h>
#include <texture_types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>

namespace simulee::runtime {

// A CUDA array: `depth` slices (0: a 1-D or 2-D array, one slice) of
// `height` rows (0: a 1-D array, one row) of `width` texels, packed, in the
// device allocation at `address`. The layers of a layered array
// (cudaArrayLayered) and the faces of a cube map (cudaArrayCubemap) are its
// slices.
struct CudaArray {
  uintptr_t address = 0;
  cudaChannelFormatDesc format{};
  uint64_t width = 0, height = 0, depth = 0;
  uint32_t texelBytes = 0;
  unsigned flags = 0;
  bool freed = false;
  uint64_t rows() const { return height ? height : 1; }
  uint64_t slices() const { return depth ? depth : 1; }
  uint64_t rowBytes() const { return width * texelBytes; }
  uint64_t sizeBytes() const { return slices() * rows() * rowBytes(); }
};

struct TextureObject {
  interp::TextureDescriptor descriptor; // byteOffset and aliasOf set at launch
  uintptr_t address = 0;                // the first texel (a device or managed pointer)
  cudaResourceDesc resource{};          // as the program gave them
  cudaTextureDesc texture{};
};

// Why a descriptor is refused: `unsupported` names a feature simulee does
// not model (the program stops with that error); otherwise the call fails
// with `error` as it would on a GPU.
struct DescriptorError {
  std::string unsupported;
  int error = 0; // cudaError_t
};

// The texel layout of a channel format (channels of 8, 16 or 32 bits, all
// alike; floats of 32 bits).
Result<interp::TextureDescriptor> texelFormat(const cudaChannelFormatDesc &format);

// The object cudaCreateTextureObject / cudaCreateSurfaceObject make of the
// program's descriptors; `texture` is null for a surface.
std::variant<TextureObject, DescriptorError>
makeTextureObject(const cudaResourceDesc &resource, const cudaTextureDesc *texture, bool hasView);

class TextureObjects {
public:
  uint64_t add(TextureObject object); // the handle (never 0)
  // The live object `handle` names, or null (unknown or destroyed, or a
  // texture where a surface is wanted and conversely).
  const TextureObject *find(uint64_t handle, bool surface) const;
  bool remove(uint64_t handle, bool surface);

private:
  std::map<uint64_t, TextureObject> objects_;
  uint64_t next_ = 1;
  mutable std::mutex mutex_;
};

TextureObjects &textureObjects();

} // namespace simulee::runtime
