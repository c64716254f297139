// How simulee exec's runtime turns the program's texture and surface
// descriptors into the interpreter's (runtime/Textures.h): the layout of
// pitched memory and CUDA arrays, CUDA's rules for filtering, read modes and
// addressing, and the features it refuses by name. Built only where the
// runtime is (it needs NVIDIA's headers).
#ifdef SIMULEE_TEST_TEXTURE_OBJECTS

#include "runtime/Textures.h"

#include <gtest/gtest.h>

namespace simulee::runtime {
namespace {

cudaChannelFormatDesc format(int bits, int channels, cudaChannelFormatKind kind) {
  return cudaChannelFormatDesc{bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0,
                               channels > 3 ? bits : 0, kind};
}

cudaResourceDesc pitched(cudaChannelFormatDesc channels, size_t width, size_t height,
                         size_t pitch) {
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypePitch2D;
  resource.res.pitch2D.devPtr = reinterpret_cast<void *>(uintptr_t(0x1000));
  resource.res.pitch2D.desc = channels;
  resource.res.pitch2D.width = width;
  resource.res.pitch2D.height = height;
  resource.res.pitch2D.pitchInBytes = pitch;
  return resource;
}

std::variant<TextureObject, DescriptorError> make(const cudaResourceDesc &resource,
                                                  const cudaTextureDesc &texture) {
  return makeTextureObject(resource, &texture, false);
}

std::string refusal(const std::variant<TextureObject, DescriptorError> &made) {
  const auto *error = std::get_if<DescriptorError>(&made);
  return error ? error->unsupported : "(accepted)";
}

int errorOf(const std::variant<TextureObject, DescriptorError> &made) {
  const auto *error = std::get_if<DescriptorError>(&made);
  return error ? error->error : 0;
}

TEST(TextureObjects, PitchedMemoryKeepsItsRowPitchAndTexelLayout) {
  cudaTextureDesc t = {};
  t.filterMode = cudaFilterModeLinear;
  t.readMode = cudaReadModeNormalizedFloat;
  auto made = make(pitched(format(8, 4, cudaChannelFormatKindUnsigned), 45, 30, 256), t);
  ASSERT_TRUE(std::holds_alternative<TextureObject>(made)) << refusal(made);
  const interp::TextureDescriptor &d = std::get<TextureObject>(made).descriptor;
  EXPECT_EQ(d.dims, 2);
  EXPECT_EQ(d.extent[0], 45u);
  EXPECT_EQ(d.extent[1], 30u);
  EXPECT_EQ(d.channels, 4);
  EXPECT_EQ(d.channelBytes, 1);
  EXPECT_EQ(d.type, interp::TexelType::Unsigned);
  EXPECT_TRUE(d.readNormalizedFloat);
  EXPECT_EQ(d.filter, interp::FilterMode::Linear);
  // Texel (3, 2) lies two pitches and three texels in.
  EXPECT_EQ(d.texelOffset(2 * 45 + 3), 2 * 256u + 3 * 4u);
}

TEST(TextureObjects, CudaRulesForFilteringReadModesAndPitches) {
  cudaTextureDesc t = {};
  t.filterMode = cudaFilterModeLinear; // integer texels read as integers: no
  EXPECT_EQ(errorOf(make(pitched(format(32, 1, cudaChannelFormatKindSigned), 8, 8, 64), t)),
            cudaErrorInvalidValue);
  t.filterMode = cudaFilterModePoint;
  t.readMode = cudaReadModeNormalizedFloat; // 32-bit integers cannot be normalized
  EXPECT_EQ(errorOf(make(pitched(format(32, 1, cudaChannelFormatKindSigned), 8, 8, 64), t)),
            cudaErrorInvalidValue);
  t.readMode = cudaReadModeElementType; // a pitch shorter than a row
  EXPECT_EQ(errorOf(make(pitched(format(32, 1, cudaChannelFormatKindFloat), 8, 8, 16), t)),
            cudaErrorInvalidValue);
  // Wrap without normalized coordinates is clamp, as on a GPU.
  t.addressMode[0] = t.addressMode[1] = cudaAddressModeWrap;
  auto made = make(pitched(format(32, 1, cudaChannelFormatKindFloat), 8, 8, 32), t);
  ASSERT_TRUE(std::holds_alternative<TextureObject>(made)) << refusal(made);
  EXPECT_EQ(std::get<TextureObject>(made).descriptor.address, interp::AddressMode::Clamp);
  t.normalizedCoords = 1;
  made = make(pitched(format(32, 1, cudaChannelFormatKindFloat), 8, 8, 32), t);
  EXPECT_EQ(std::get<TextureObject>(made).descriptor.address, interp::AddressMode::Wrap);
}

TEST(TextureObjects, FeaturesTheInterpreterDoesNotModelAreRefusedByName) {
  cudaResourceDesc floats = pitched(format(32, 1, cudaChannelFormatKindFloat), 8, 8, 32);
  cudaTextureDesc t = {};
  t.sRGB = 1;
  EXPECT_NE(refusal(make(floats, t)).find("sRGB"), std::string::npos);
  t = {};
  t.maxAnisotropy = 8;
  EXPECT_NE(refusal(make(floats, t)).find("anisotropic"), std::string::npos);
  t = {};
  t.addressMode[0] = cudaAddressModeClamp;
  t.addressMode[1] = cudaAddressModeBorder;
  EXPECT_NE(refusal(make(floats, t)).find("address modes per axis"), std::string::npos);
  t = {};
  t.addressMode[0] = t.addressMode[1] = cudaAddressModeBorder;
  t.borderColor[0] = 1;
  EXPECT_NE(refusal(make(floats, t)).find("border colour"), std::string::npos);
  t = {};
  EXPECT_NE(refusal(make(pitched(format(16, 1, cudaChannelFormatKindFloat), 8, 8, 32), t))
                .find("half-precision"),
            std::string::npos);
  EXPECT_NE(refusal(make(pitched(format(8, 3, cudaChannelFormatKindUnsigned), 8, 8, 32), t))
                .find("3 channels"),
            std::string::npos);
  cudaResourceDesc mipmapped = {};
  mipmapped.resType = cudaResourceTypeMipmappedArray;
  EXPECT_NE(refusal(make(mipmapped, t)).find("mipmapped"), std::string::npos);
  EXPECT_NE(refusal(makeTextureObject(floats, &t, true)).find("resource view"), std::string::npos);
}

TEST(TextureObjects, SurfacesNeedAnArrayMadeForLoadAndStore) {
  EXPECT_EQ(errorOf(makeTextureObject(pitched(format(32, 1, cudaChannelFormatKindFloat), 8, 8, 32),
                                      nullptr, false)),
            cudaErrorInvalidValue);
  CudaArray array;
  array.address = 0x2000;
  array.format = format(32, 2, cudaChannelFormatKindFloat);
  array.width = 16;
  array.height = 4;
  array.texelBytes = 8;
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = reinterpret_cast<cudaArray_t>(&array);
  EXPECT_EQ(errorOf(makeTextureObject(resource, nullptr, false)), cudaErrorInvalidValue);
  array.flags = cudaArraySurfaceLoadStore;
  auto made = makeTextureObject(resource, nullptr, false);
  ASSERT_TRUE(std::holds_alternative<TextureObject>(made)) << refusal(made);
  const TextureObject &object = std::get<TextureObject>(made);
  EXPECT_TRUE(object.descriptor.isSurface);
  EXPECT_EQ(object.address, 0x2000u);
  EXPECT_EQ(object.descriptor.pitchBytes(), 16 * 8u);
  array.freed = true;
  EXPECT_EQ(errorOf(makeTextureObject(resource, nullptr, false)), cudaErrorInvalidResourceHandle);
}

TEST(TextureObjects, LayersAndCubeFacesAreSlicesOfTheArray) {
  CudaArray array;
  array.address = 0x3000;
  array.format = format(32, 1, cudaChannelFormatKindFloat);
  array.width = array.height = 4;
  array.depth = 6;
  array.texelBytes = 4;
  array.flags = cudaArrayCubemap;
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = reinterpret_cast<cudaArray_t>(&array);
  cudaTextureDesc t = {};
  auto made = make(resource, t);
  ASSERT_TRUE(std::holds_alternative<TextureObject>(made)) << refusal(made);
  const interp::TextureDescriptor &cube = std::get<TextureObject>(made).descriptor;
  EXPECT_EQ(cube.dims, 3);
  EXPECT_EQ(cube.extent, (std::array<uint32_t, 3>{4, 4, 6}));
  EXPECT_EQ(array.sizeBytes(), 6 * 4 * 4 * 4u);
  array.height = 0; // 1-D layered: 6 layers of one row
  array.flags = cudaArrayLayered;
  made = make(resource, t);
  ASSERT_TRUE(std::holds_alternative<TextureObject>(made)) << refusal(made);
  EXPECT_EQ(std::get<TextureObject>(made).descriptor.extent, (std::array<uint32_t, 3>{4, 1, 6}));
  array.height = 4;
  array.flags = cudaArrayCubemap | cudaArrayLayered;
  EXPECT_NE(refusal(make(resource, t)).find("layered cube map"), std::string::npos);
}

TEST(TextureObjects, HandlesNameTheirKindUntilDestroyed) {
  TextureObjects objects;
  TextureObject texture;
  uint64_t handle = objects.add(texture);
  EXPECT_NE(handle, 0u);
  EXPECT_NE(objects.find(handle, false), nullptr);
  EXPECT_EQ(objects.find(handle, true), nullptr); // not a surface
  EXPECT_TRUE(objects.remove(handle, false));
  EXPECT_EQ(objects.find(handle, false), nullptr);
  EXPECT_FALSE(objects.remove(handle, false));
}

} // namespace
} // namespace simulee::runtime

#endif
