#include "runtime/Textures.h"

#include <optional>

namespace simulee::runtime {
namespace {

DescriptorError unsupported(std::string feature) { return DescriptorError{std::move(feature), 0}; }
DescriptorError invalid() { return DescriptorError{"", cudaErrorInvalidValue}; }

const char *addressModeName(cudaTextureAddressMode mode) {
  switch (mode) {
  case cudaAddressModeWrap:
    return "cudaAddressModeWrap";
  case cudaAddressModeClamp:
    return "cudaAddressModeClamp";
  case cudaAddressModeMirror:
    return "cudaAddressModeMirror";
  case cudaAddressModeBorder:
    return "cudaAddressModeBorder";
  }
  return "an unknown address mode";
}

} // namespace

Result<interp::TextureDescriptor> texelFormat(const cudaChannelFormatDesc &format) {
  interp::TextureDescriptor d;
  int bits[4] = {format.x, format.y, format.z, format.w};
  unsigned channels = 0;
  for (int b : bits)
    channels += b != 0;
  for (unsigned c = 0; c < channels; ++c)
    if (bits[c] != bits[0])
      return makeError("channels of different sizes (" + std::to_string(format.x) + "," +
                       std::to_string(format.y) + "," + std::to_string(format.z) + "," +
                       std::to_string(format.w) + " bits)");
  if (channels != 1 && channels != 2 && channels != 4)
    return makeError(std::to_string(channels) + " channels (1, 2 or 4 are supported)");
  if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32)
    return makeError("channels of " + std::to_string(bits[0]) + " bits");
  switch (format.f) {
  case cudaChannelFormatKindSigned:
    d.type = interp::TexelType::Signed;
    break;
  case cudaChannelFormatKindUnsigned:
    d.type = interp::TexelType::Unsigned;
    break;
  case cudaChannelFormatKindFloat:
    if (bits[0] != 32)
      return makeError("half-precision (16-bit float) channels");
    d.type = interp::TexelType::Float;
    break;
  default:
    return makeError("channel format kind " + std::to_string(int(format.f)) +
                     " (signed, unsigned and float are supported)");
  }
  d.channels = uint8_t(channels);
  d.channelBytes = uint8_t(bits[0] / 8);
  return d;
}

std::variant<TextureObject, DescriptorError>
makeTextureObject(const cudaResourceDesc &resource, const cudaTextureDesc *texture, bool hasView) {
  if (hasView)
    return unsupported("a resource view (cudaResourceViewDesc)");
  TextureObject object;
  object.resource = resource;
  if (texture)
    object.texture = *texture;
  interp::TextureDescriptor &d = object.descriptor;
  auto format = [&](const cudaChannelFormatDesc &channels) -> std::optional<DescriptorError> {
    Result<interp::TextureDescriptor> texels = texelFormat(channels);
    if (!texels)
      return unsupported("a channel format with " + texels.error().message);
    d = *texels;
    return std::nullopt;
  };
  switch (resource.resType) {
  case cudaResourceTypeLinear: {
    if (!texture)
      return invalid(); // surfaces are over CUDA arrays only
    if (std::optional<DescriptorError> bad = format(resource.res.linear.desc))
      return *bad;
    // At least one texel, at most 2^27 (cudaDevAttrMaxTexture1DLinearWidth).
    if (!resource.res.linear.devPtr || resource.res.linear.sizeInBytes < d.texelBytes() ||
        resource.res.linear.sizeInBytes / d.texelBytes() > (uint64_t(1) << 27))
      return invalid();
    d.dims = 1;
    d.extent = {uint32_t(resource.res.linear.sizeInBytes / d.texelBytes()), 1, 1};
    object.address = reinterpret_cast<uintptr_t>(resource.res.linear.devPtr);
    break;
  }
  case cudaResourceTypePitch2D: {
    if (!texture)
      return invalid();
    const auto &pitched = resource.res.pitch2D;
    if (std::optional<DescriptorError> bad = format(pitched.desc))
      return *bad;
    // Within sm_80's maxTexture2DLinear (131072 x 65000, about).
    if (!pitched.devPtr || !pitched.width || !pitched.height || pitched.width > (1u << 17) ||
        pitched.height > (1u << 16) || pitched.pitchInBytes < pitched.width * d.texelBytes())
      return invalid();
    d.dims = 2;
    d.extent = {uint32_t(pitched.width), uint32_t(pitched.height), 1};
    d.rowPitch = pitched.pitchInBytes;
    object.address = reinterpret_cast<uintptr_t>(pitched.devPtr);
    break;
  }
  case cudaResourceTypeArray: {
    const auto *array = reinterpret_cast<const CudaArray *>(resource.res.array.array);
    if (!array || array->freed)
      return DescriptorError{"", cudaErrorInvalidResourceHandle};
    if (!texture && !(array->flags & cudaArraySurfaceLoadStore))
      return invalid(); // a surface needs an array made with cudaArraySurfaceLoadStore
    if (std::optional<DescriptorError> bad = format(array->format))
      return *bad;
    if ((array->flags & cudaArrayCubemap) && (array->flags & cudaArrayLayered))
      return unsupported("a layered cube map array (cudaArrayCubemap | cudaArrayLayered)");
    // A 3-D array, and the layers of a layered or cube map one, are slices.
    d.dims = array->depth ? 3 : array->height ? 2 : 1;
    d.extent = {uint32_t(array->width), uint32_t(array->rows()), uint32_t(array->slices())};
    object.address = array->address;
    break;
  }
  case cudaResourceTypeMipmappedArray:
    return unsupported("a mipmapped array (cudaResourceTypeMipmappedArray)");
  default:
    return invalid();
  }
  if (!texture) {
    d.isSurface = true;
    return object;
  }
  const cudaTextureDesc &t = *texture;
  if (t.sRGB)
    return unsupported("sRGB conversion (cudaTextureDesc::sRGB)");
  if (t.maxAnisotropy > 1)
    return unsupported("anisotropic filtering (cudaTextureDesc::maxAnisotropy " +
                       std::to_string(t.maxAnisotropy) + ")");
  for (unsigned axis = 1; axis < d.dims; ++axis)
    if (t.addressMode[axis] != t.addressMode[0])
      return unsupported(std::string("different address modes per axis (") +
                         addressModeName(t.addressMode[0]) + " and " +
                         addressModeName(t.addressMode[axis]) + ")");
  switch (t.addressMode[0]) {
  case cudaAddressModeClamp:
    d.address = interp::AddressMode::Clamp;
    break;
  case cudaAddressModeBorder:
    for (float channel : t.borderColor)
      if (channel != 0)
        return unsupported("a border colour other than 0 (cudaTextureDesc::borderColor)");
    d.address = interp::AddressMode::Border;
    break;
  // Wrap and mirror apply to normalized coordinates only; otherwise CUDA
  // clamps.
  case cudaAddressModeWrap:
    d.address = t.normalizedCoords ? interp::AddressMode::Wrap : interp::AddressMode::Clamp;
    break;
  case cudaAddressModeMirror:
    d.address = t.normalizedCoords ? interp::AddressMode::Mirror : interp::AddressMode::Clamp;
    break;
  default:
    return invalid();
  }
  d.normalizedCoords = t.normalizedCoords != 0;
  if (t.readMode == cudaReadModeNormalizedFloat && d.type != interp::TexelType::Float) {
    if (d.channelBytes == 4)
      return invalid(); // 32-bit integers cannot be read as normalized floats
    d.readNormalizedFloat = true;
  }
  if (t.filterMode == cudaFilterModeLinear) {
    if (d.type != interp::TexelType::Float && !d.readNormalizedFloat)
      return invalid(); // linear filtering returns floats
    d.filter = interp::FilterMode::Linear;
  }
  return object;
}

uint64_t TextureObjects::add(TextureObject object) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t handle = next_++;
  objects_.emplace(handle, std::move(object));
  return handle;
}

const TextureObject *TextureObjects::find(uint64_t handle, bool surface) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = objects_.find(handle);
  if (found == objects_.end() || found->second.descriptor.isSurface != surface)
    return nullptr;
  return &found->second;
}

bool TextureObjects::remove(uint64_t handle, bool surface) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = objects_.find(handle);
  if (found == objects_.end() || found->second.descriptor.isSurface != surface)
    return false;
  objects_.erase(found);
  return true;
}

TextureObjects &textureObjects() {
  static TextureObjects *objects = new TextureObjects(); // used at exit too: never destroyed
  return *objects;
}

} // namespace simulee::runtime
