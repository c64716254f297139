// Texture and surface kernels compiled against NVIDIA's CUDA 12.4 headers
// (tex2D and friends lower to PTX tex.*, surf2Dread/write to suld/sust) give
// what a host computation of the CUDA Programming Guide's texture fetching
// rules gives.
#include "TestSupport.h"

#include "ir/CudaInstallation.h"

#include <llvm/IR/Instructions.h>

#include <cmath>
#include <random>

namespace simulee::interp_test {
namespace {

using interp::AddressMode;
using interp::ArgumentValue;
using interp::FilterMode;
using interp::TextureDescriptor;

::testing::AssertionResult runTextures(const std::string &kernel, interp::Dim3 grid,
                                       interp::Dim3 block, std::vector<ArgumentValue> &args) {
  Result<std::optional<ir::CudaInstallation>> cuda = ir::findCudaInstallation("");
  if (!cuda || !*cuda)
    return ::testing::AssertionFailure()
           << "no CUDA installation from NVIDIA's wheels: run scripts/cuda-headers.sh";
  return launch("nvidia/textures.cu", 0, kernel, grid, block, args);
}

template <class T>
ArgumentValue textureArg(const std::vector<T> &texels, const TextureDescriptor &texture) {
  ArgumentValue value = bufferArg(texels);
  value.texture = texture;
  return value;
}

TextureDescriptor texture2D(uint32_t width, uint32_t height, FilterMode filter,
                            AddressMode address = AddressMode::Clamp, bool normalized = false) {
  TextureDescriptor texture;
  texture.dims = 2;
  texture.extent = {width, height, 1};
  texture.filter = filter;
  texture.address = address;
  texture.normalizedCoords = normalized;
  return texture;
}

// The Programming Guide's bilinear filter, clamped: texels i = floor(x - 0.5)
// and i + 1 weighted by the fraction of x - 0.5 in 8-bit fixed point.
float hostBilinear(const std::vector<float> &texels, int width, int height, float x, float y) {
  auto at = [&](int i, int j) {
    i = std::clamp(i, 0, width - 1);
    j = std::clamp(j, 0, height - 1);
    return texels[size_t(j) * width + i];
  };
  float xb = x - 0.5f, yb = y - 0.5f;
  int i = int(std::floor(xb)), j = int(std::floor(yb));
  float alpha = std::round((xb - float(i)) * 256.0f) / 256.0f;
  float beta = std::round((yb - float(j)) * 256.0f) / 256.0f;
  return (1 - alpha) * (1 - beta) * at(i, j) + alpha * (1 - beta) * at(i + 1, j) +
         (1 - alpha) * beta * at(i, j + 1) + alpha * beta * at(i + 1, j + 1);
}

TEST(TextureKernels, Tex2DLinearMatchesHostBilinearFilter) {
  const int width = 7, height = 5, n = 64;
  std::mt19937 engine(11);
  std::uniform_real_distribution<float> texel(-10.0f, 10.0f), coordU(-1.0f, width + 1.0f),
      coordV(-1.0f, height + 1.0f);
  std::vector<float> texels(width * height), u(n), v(n), out(n, -99.0f);
  for (float &t : texels)
    t = texel(engine);
  for (int i = 0; i < n; ++i)
    u[i] = coordU(engine), v[i] = coordV(engine);
  // Hand-checked points: a texel centre, the middle of four texels, and x =
  // 3.25 (x - 0.5 = 2.75: a quarter of texel 2, three quarters of texel 3).
  u[0] = 0.5f, v[0] = 0.5f;
  u[1] = 1.0f, v[1] = 1.0f;
  u[2] = 3.25f, v[2] = 2.5f;
  std::vector<ArgumentValue> args = {
      textureArg(texels, texture2D(width, height, FilterMode::Linear)), bufferArg(u), bufferArg(v),
      bufferArg(out)};
  ASSERT_TRUE(runTextures("sample2D", {1, 1, 1}, {n, 1, 1}, args));
  std::vector<float> got = valuesOf<float>(args[3].bytes);
  EXPECT_FLOAT_EQ(got[0], texels[0]);
  EXPECT_FLOAT_EQ(got[1], (texels[0] + texels[1] + texels[width] + texels[width + 1]) / 4);
  EXPECT_FLOAT_EQ(got[2], 0.25f * texels[2 * width + 2] + 0.75f * texels[2 * width + 3]);
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(got[i], hostBilinear(texels, width, height, u[i], v[i]), 1e-4f)
        << "sample " << i << " at (" << u[i] << ", " << v[i] << ")";
}

TEST(TextureKernels, NormalisedCoordinatesWrapMirrorAndBorder) {
  const int width = 4, height = 2, n = 6;
  std::vector<float> texels = {0, 1, 2, 3, 10, 11, 12, 13};
  // Normalised u = 1.125 is texel 4.5 -> x index 4: wraps to 0, mirrors to
  // 3, is a zero border texel; v = 0.25 is row 0.
  std::vector<float> u = {1.125f, -0.125f, 0.375f, 1.125f, -0.125f, 0.875f};
  std::vector<float> v = {0.25f, 0.75f, 0.75f, 0.25f, 0.75f, 0.25f};
  struct Case {
    AddressMode mode;
    std::vector<float> expected;
  } cases[] = {
      {AddressMode::Wrap, {0, 13, 11, 0, 13, 3}},
      {AddressMode::Mirror, {3, 10, 11, 3, 10, 3}},
      {AddressMode::Border, {0, 0, 11, 0, 0, 3}},
      {AddressMode::Clamp, {3, 10, 11, 3, 10, 3}},
  };
  for (const Case &c : cases) {
    std::vector<float> out(n, -99.0f);
    std::vector<ArgumentValue> args = {
        textureArg(texels, texture2D(width, height, FilterMode::Point, c.mode, true)), bufferArg(u),
        bufferArg(v), bufferArg(out)};
    ASSERT_TRUE(runTextures("sample2D", {1, 1, 1}, {n, 1, 1}, args));
    EXPECT_TRUE(matches(c.expected, valuesOf<float>(args[3].bytes)))
        << "address mode " << int(c.mode);
  }
}

TEST(TextureKernels, Uchar4TexelsReadAsNormalisedFloats) {
  TextureDescriptor texture = texture2D(2, 1, FilterMode::Linear);
  texture.type = interp::TexelType::Unsigned;
  texture.channelBytes = 1;
  texture.channels = 4;
  texture.readNormalizedFloat = true;
  std::vector<uint8_t> texels = {0, 51, 255, 10, 255, 153, 0, 20};
  std::vector<float> u = {0.5f, 1.0f, 1.5f}, v = {0.5f, 0.5f, 0.5f};
  std::vector<float> out(12, -1.0f);
  std::vector<ArgumentValue> args = {textureArg(texels, texture), bufferArg(u), bufferArg(v),
                                     bufferArg(out)};
  ASSERT_TRUE(runTextures("sample2DChannels", {1, 1, 1}, {3, 1, 1}, args));
  std::vector<float> expected = {0.0f, 0.2f,        1.0f, 10 / 255.0f, 0.5f, 0.4f,
                                 0.5f, 15 / 255.0f, 1.0f, 0.6f,        0.0f, 20 / 255.0f};
  std::vector<float> got = valuesOf<float>(args[3].bytes);
  for (size_t k = 0; k < expected.size(); ++k)
    EXPECT_NEAR(got[k], expected[k], 1e-6f) << "channel value " << k;
}

TEST(TextureKernels, Tex1DfetchIsZeroOutsideAndTex1DTex3DSample) {
  const int n = 8;
  TextureDescriptor ints;
  ints.type = interp::TexelType::Signed;
  ints.extent = {5, 1, 1};
  std::vector<int> intTexels = {10, -20, 30, -40, 50};
  TextureDescriptor line;
  line.extent = {2, 1, 1};
  line.filter = FilterMode::Linear;
  std::vector<float> lineTexels = {1.0f, 3.0f};
  TextureDescriptor volume;
  volume.dims = 3;
  volume.extent = {2, 2, 2};
  std::vector<float> volumeTexels = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<int> fetched(n, 99);
  std::vector<float> sampled(n, -1.0f), sampled3D(n, -1.0f);
  std::vector<ArgumentValue> args = {
      textureArg(intTexels, ints), textureArg(lineTexels, line), textureArg(volumeTexels, volume),
      bufferArg(fetched),          bufferArg(sampled),           bufferArg(sampled3D)};
  ASSERT_TRUE(runTextures("fetchAndSample", {1, 1, 1}, {n, 1, 1}, args));
  EXPECT_TRUE(
      matches(std::vector<int>{0, 0, 10, -20, 30, -40, 50, 0}, valuesOf<int>(args[3].bytes)));
  // x = 0.25 i: clamped to texel 0 up to x = 0.5, then 1 + 2 (x - 0.5) up to 1.5.
  EXPECT_TRUE(
      matches(std::vector<float>{1, 1, 1, 1.5f, 2, 2.5f, 3, 3}, valuesOf<float>(args[4].bytes)));
  EXPECT_TRUE(matches(volumeTexels, valuesOf<float>(args[5].bytes)));
}

// Texels no other argument reaches are read-only for the launch: their
// fetches need no tracking (interp::untrackedInstructions); texels bound to
// the output buffer (alias) may be written, so the fetch stays tracked.
TEST(TextureKernels, FetchesOfTexelsNoOtherArgumentReachesAreUntracked) {
  const ir::Program *program = loadTestProgram("nvidia/textures.cu", 0);
  ASSERT_NE(program, nullptr);
  const ir::KernelInfo *kernel = program->findKernel("sample2D");
  ASSERT_NE(kernel, nullptr);
  interp::LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {4, 1, 1};
  std::vector<float> texels(4), coords(4);
  std::vector<ArgumentValue> args = {textureArg(texels, texture2D(2, 2, FilterMode::Point)),
                                     bufferArg(coords), bufferArg(coords), bufferArg(coords)};
  auto fetches = [&](const std::vector<bool> &untracked) {
    int count = 0;
    for (size_t id = 0; id < untracked.size(); ++id)
      count +=
          untracked[id] && llvm::isa_and_present<llvm::CallInst>(program->instructions[id].llvm);
    return count;
  };
  EXPECT_EQ(fetches(interp::untrackedInstructions(*program, *kernel, config, args)), 1);
  args[0].texture->aliasOf = 3; // the texels are out's
  EXPECT_EQ(fetches(interp::untrackedInstructions(*program, *kernel, config, args)), 0);
  args[0].texture->aliasOf = 1; // u's, which the kernel only reads: but one buffer, two names
  EXPECT_EQ(fetches(interp::untrackedInstructions(*program, *kernel, config, args)), 0);
}

TEST(TextureKernels, Surf2DWriteThenReadRoundTripsAndClamps) {
  const int width = 8, height = 3;
  TextureDescriptor surface;
  surface.isSurface = true;
  surface.dims = 2;
  surface.extent = {width, height, 1};
  std::vector<float> in(width * height), out(width * height, 0.0f);
  for (int i = 0; i < width * height; ++i)
    in[i] = float(i) * 0.5f;
  std::vector<float> back(width * height, -1.0f), neighbour(width * height, -1.0f);
  std::vector<ArgumentValue> args = {textureArg(in, surface), textureArg(out, surface),
                                     bufferArg(back), bufferArg(neighbour), scalarArg(width)};
  ASSERT_TRUE(runTextures("surfaceRoundTrip", {height, 1, 1}, {width, 1, 1}, args));
  std::vector<float> written(width * height), right(width * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      written[y * width + x] = in[y * width + x] * 2.0f + 1.0f;
      right[y * width + x] = in[y * width + std::min(x + 1, width - 1)];
    }
  EXPECT_TRUE(matches(written, valuesOf<float>(args[1].bytes)));
  EXPECT_TRUE(matches(written, valuesOf<float>(args[2].bytes)));
  EXPECT_TRUE(matches(right, valuesOf<float>(args[3].bytes)));
}

TEST(TextureKernels, LayeredAndCubeMapFetchesPickTheirSlice) {
  const int n = 10;
  TextureDescriptor layers; // 3 layers of 2 texels
  layers.dims = 3;
  layers.extent = {2, 1, 3};
  std::vector<float> layerTexels = {0, 1, 10, 11, 20, 21};
  TextureDescriptor cube; // six faces of one texel: face f holds f
  cube.dims = 3;
  cube.extent = {1, 1, 6};
  cube.normalizedCoords = true;
  std::vector<float> faceTexels = {0, 1, 2, 3, 4, 5};
  TextureDescriptor slices; // a surface of 4 layers of 2 floats
  slices.isSurface = true;
  slices.dims = 3;
  slices.extent = {2, 1, 4};
  std::vector<float> sliceTexels(8, 0.0f);
  std::vector<float> layer(n, -1.0f), faces(6, -1.0f), back(8, -1.0f);
  std::vector<ArgumentValue> args = {
      textureArg(layerTexels, layers), textureArg(faceTexels, cube),
      textureArg(sliceTexels, slices), bufferArg(layer),
      bufferArg(faces),                bufferArg(back)};
  ASSERT_TRUE(runTextures("layeredAndCube", {1, 1, 1}, {n, 1, 1}, args));
  // Layers -1, -1, 0, 0, 1, 1, 2, 2, 3, 3: clamped to 0 and 2.
  EXPECT_TRUE(matches(std::vector<float>{0, 1, 0, 1, 10, 11, 20, 21, 20, 21},
                      valuesOf<float>(args[3].bytes)));
  EXPECT_TRUE(matches(faceTexels, valuesOf<float>(args[4].bytes)));
  std::vector<float> written = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_TRUE(matches(written, valuesOf<float>(args[2].bytes)));
  EXPECT_TRUE(matches(written, valuesOf<float>(args[5].bytes)));
}

} // namespace
} // namespace simulee::interp_test
