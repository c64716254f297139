// Texture and surface parameters from `--arg NAME=KIND:EXTENT[:OPTION]...`,
// or automatic: the spec says exactly what the descriptor holds, a bad spec
// is one clear error naming the parameter, and the buffer holds the texels.
#include "session/TextureArguments.h"

#include <gtest/gtest.h>

using namespace simulee;
using interp::AddressMode;
using interp::FilterMode;
using interp::TexelType;

namespace {

ir::ParamInfo resource(const std::string &name, ir::ResourceKind kind, uint8_t dims) {
  ir::ParamInfo param;
  param.name = name;
  param.kind = ir::ValueKind::Pointer;
  param.bits = 64;
  param.elementKind = ir::ValueKind::Float;
  param.elementBytes = 4;
  param.resource = kind;
  param.resourceDims = dims;
  return param;
}

const ir::ParamInfo kTexture = resource("img", ir::ResourceKind::Texture, 2);
const ir::ParamInfo kSurface = resource("dst", ir::ResourceKind::Surface, 2);

TEST(TextureArguments, SpecSetsEveryField) {
  Result<session::TextureArgument> parsed =
      session::parseTextureArgument(kTexture, "tex2d:64x32:uchar4:float-read:linear:border:zeros");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const interp::TextureDescriptor &t = parsed->descriptor;
  EXPECT_FALSE(t.isSurface);
  EXPECT_EQ(t.dims, 2);
  EXPECT_EQ(t.extent[0], 64u);
  EXPECT_EQ(t.extent[1], 32u);
  EXPECT_EQ(t.type, TexelType::Unsigned);
  EXPECT_EQ(t.channelBytes, 1);
  EXPECT_EQ(t.channels, 4);
  EXPECT_TRUE(t.readNormalizedFloat);
  EXPECT_EQ(t.filter, FilterMode::Linear);
  EXPECT_EQ(t.address, AddressMode::Border);
  EXPECT_FALSE(t.normalizedCoords);
  EXPECT_EQ(parsed->fill, session::Fill::Zeros);
  EXPECT_EQ(t.sizeBytes(), 64u * 32u * 4u);
}

TEST(TextureArguments, DescriptionParsesBackToTheSameTexture) {
  for (const char *spec : {"tex3d:4x5x6:short2:point:wrap:normalized", "surf1d:100:float4",
                           "tex1d:7:int:point:clamp"}) {
    const ir::ParamInfo &param = spec[0] == 's' ? kSurface : kTexture;
    Result<session::TextureArgument> first = session::parseTextureArgument(param, spec);
    ASSERT_TRUE(first) << first.error().message;
    Result<session::TextureArgument> again =
        session::parseTextureArgument(param, first->descriptor.describe());
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(again->descriptor.describe(), first->descriptor.describe());
    EXPECT_EQ(again->descriptor.sizeBytes(), first->descriptor.sizeBytes());
  }
}

TEST(TextureArguments, BadSpecsAreOneErrorNamingTheParameter) {
  struct Bad {
    const ir::ParamInfo *param;
    const char *spec;
    const char *why;
  } cases[] = {
      {&kTexture, "random:64", "expected KIND:EXTENT"},
      {&kTexture, "tex2d:64", "WxH"},
      {&kTexture, "tex2d:0x4", "WxH"},
      {&kTexture, "surf2d:4x4", "texNd"},
      {&kSurface, "tex2d:4x4", "surfNd"},
      {&kTexture, "tex2d:4x4:int:linear", "linear filtering needs float"},
      {&kTexture, "tex2d:4x4:wrap", "need normalized"},
      {&kTexture, "tex2d:4x4:float:float-read", "float-read needs"},
      {&kTexture, "tex2d:4x4:point:linear", "two filter modes"},
      {&kTexture, "tex2d:4x4:bilinear", "unknown option 'bilinear'"},
      {&kSurface, "surf2d:4x4:linear", "surfaces have no filtering"},
  };
  for (const Bad &bad : cases) {
    Result<session::TextureArgument> parsed = session::parseTextureArgument(*bad.param, bad.spec);
    ASSERT_FALSE(parsed) << bad.spec;
    EXPECT_NE(parsed.error().message.find("'" + bad.param->name + "'"), std::string::npos)
        << parsed.error().message;
    EXPECT_NE(parsed.error().message.find(bad.why), std::string::npos) << parsed.error().message;
    EXPECT_EQ(parsed.error().message.find('\n'), std::string::npos);
  }
}

TEST(TextureArguments, AutomaticTextureHasTheFetchesDimensionsAndEnoughTexels) {
  for (uint8_t dims : {1, 2, 3})
    for (uint64_t texels : {1ull, 100ull, 5000ull}) {
      interp::TextureDescriptor t =
          session::automaticTexture(resource("t", ir::ResourceKind::Texture, dims), texels);
      EXPECT_EQ(t.dims, dims);
      EXPECT_GE(t.texelCount(), texels);
      EXPECT_LT(t.texelCount(), 2 * texels + 64);
      EXPECT_EQ(t.filter, FilterMode::Point);
      EXPECT_EQ(t.address, AddressMode::Clamp);
    }
  EXPECT_TRUE(session::automaticTexture(kSurface, 10).isSurface);
}

TEST(TextureArguments, BuiltArgumentsBackTexturesWithTheirTexels) {
  ir::KernelInfo kernel;
  kernel.name = kernel.sourceName = "k";
  kernel.params = {kTexture, kSurface};
  interp::LaunchConfig config;
  config.block = {64, 1, 1};
  Result<session::BuiltArguments> built = session::buildArguments(
      kernel, config, {session::ArgumentSpec{"img", "tex2d:8x4:float2:linear:sorted"}}, 1);
  ASSERT_TRUE(built) << built.error().message;
  const interp::ArgumentValue &img = built->values[0], &dst = built->values[1];
  ASSERT_TRUE(img.texture && dst.texture);
  EXPECT_EQ(img.bytes.size(), 8u * 4u * 8u);
  EXPECT_EQ(img.texture->channels, 2);
  EXPECT_FALSE(img.autoSized);
  EXPECT_TRUE(dst.texture->isSurface);
  EXPECT_TRUE(dst.autoSized);
  EXPECT_EQ(dst.bytes.size(), dst.texture->sizeBytes());
  // The record of the automatic surface is a spec that builds it again.
  Result<session::BuiltArguments> again = session::buildArguments(
      kernel, config, {session::ArgumentSpec{"dst", built->record[1].second}}, 1);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->values[1].texture->describe(), dst.texture->describe());

  Result<session::BuiltArguments> wrong =
      session::buildArguments(kernel, config, {session::ArgumentSpec{"img", "zeros:64"}}, 1);
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message.find("texture parameter 'img'"), std::string::npos);
}

TEST(TextureArguments, AliasedTextureReadsAnotherParametersBuffer) {
  ir::ParamInfo out = kTexture;
  out.name = "out";
  out.resource = ir::ResourceKind::None;
  ir::ParamInfo n;
  n.name = "n";
  n.kind = ir::ValueKind::Int;
  n.bits = 32;
  ir::KernelInfo kernel;
  kernel.name = kernel.sourceName = "k";
  kernel.params = {kTexture, out, n};
  interp::LaunchConfig config;
  Result<session::BuiltArguments> built = session::buildArguments(
      kernel, config, {session::ArgumentSpec{"img", "tex2d:4x4:alias=out"}}, 1);
  ASSERT_TRUE(built) << built.error().message;
  ASSERT_TRUE(built->values[0].texture);
  EXPECT_EQ(built->values[0].texture->aliasOf, 1);
  EXPECT_TRUE(built->values[0].bytes.empty());
  EXPECT_NE(built->values[0].texture->describe().find(":alias=out"), std::string::npos);

  for (const char *target : {"n", "img", "nothing"}) {
    Result<session::BuiltArguments> bad = session::buildArguments(
        kernel, config,
        {session::ArgumentSpec{"img", std::string("tex2d:4x4:alias=") + target}}, 1);
    ASSERT_FALSE(bad) << target;
    EXPECT_NE(bad.error().message.find("texture parameter 'img'"), std::string::npos)
        << bad.error().message;
  }
}

} // namespace
