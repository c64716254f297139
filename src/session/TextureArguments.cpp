#include "session/TextureArguments.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>

#include <cmath>

namespace simulee::session {
namespace {

struct TexelFormat {
  const char *name;
  interp::TexelType type;
  uint8_t channelBytes;
};

constexpr TexelFormat kFormats[] = {
    {"float", interp::TexelType::Float, 4},     {"int", interp::TexelType::Signed, 4},
    {"uint", interp::TexelType::Unsigned, 4},   {"short", interp::TexelType::Signed, 2},
    {"ushort", interp::TexelType::Unsigned, 2}, {"char", interp::TexelType::Signed, 1},
    {"uchar", interp::TexelType::Unsigned, 1},
};

// "float4" -> float, 4 channels.
bool parseFormat(llvm::StringRef word, interp::TextureDescriptor &texture) {
  uint8_t channels = 1;
  if (word.consume_back("2"))
    channels = 2;
  else if (word.consume_back("4"))
    channels = 4;
  for (const TexelFormat &format : kFormats)
    if (word == format.name) {
      texture.type = format.type;
      texture.channelBytes = format.channelBytes;
      texture.channels = channels;
      return true;
    }
  return false;
}

bool parseExtent(llvm::StringRef word, interp::TextureDescriptor &texture) {
  llvm::SmallVector<llvm::StringRef, 3> sizes;
  word.split(sizes, 'x');
  if (sizes.size() != texture.dims)
    return false;
  for (size_t axis = 0; axis < sizes.size(); ++axis) {
    uint32_t size = 0;
    if (sizes[axis].getAsInteger(10, size) || size == 0 || size > (1u << 24))
      return false;
    texture.extent[axis] = size;
  }
  return true;
}

uint32_t ceilRoot(uint64_t value, unsigned degree) {
  auto root = uint64_t(std::ceil(std::pow(double(value), 1.0 / degree) - 1e-9));
  return uint32_t(std::max<uint64_t>(root, 1));
}

} // namespace

bool isTextureSpec(const std::string &text) {
  llvm::StringRef spec(text);
  for (const char *kind : {"tex1d:", "tex2d:", "tex3d:", "surf1d:", "surf2d:", "surf3d:"})
    if (spec.starts_with(kind))
      return true;
  return false;
}

Result<TextureArgument> parseTextureArgument(const ir::ParamInfo &param, const std::string &text) {
  auto bad = [&](const std::string &why) {
    return makeError("bad value '" + text + "' for " +
                     (param.resource == ir::ResourceKind::Surface ? "surface" : "texture") +
                     " parameter '" + param.name + "': " + why);
  };
  if (!isTextureSpec(text))
    return bad("expected KIND:EXTENT[:OPTION]... such as tex2d:64x32:float:linear or "
               "surf2d:64x32:float (see --help)");
  llvm::SmallVector<llvm::StringRef, 8> words;
  llvm::StringRef(text).split(words, ':');
  TextureArgument argument;
  interp::TextureDescriptor &texture = argument.descriptor;
  texture.isSurface = words[0].starts_with("surf");
  texture.dims = uint8_t(words[0].drop_back().back() - '0'); // tex2d -> 2
  if ((param.resource == ir::ResourceKind::Surface) != texture.isSurface)
    return bad(texture.isSurface ? "a texture parameter takes a texNd: spec"
                                 : "a surface parameter takes a surfNd: spec");
  if (words.size() < 2 || !parseExtent(words[1], texture))
    return bad("expected the extent as " +
               std::string(texture.dims == 1   ? "W"
                           : texture.dims == 2 ? "WxH"
                                               : "WxHxD") +
               " texels after '" + words[0].str() + ":'");
  bool filterGiven = false, addressGiven = false, formatGiven = false, fillGiven = false;
  for (llvm::StringRef word : llvm::ArrayRef(words).drop_front(2)) {
    auto once = [&](bool &given, const char *what) -> Status {
      if (given)
        return makeError(std::string("two ") + what + "s");
      given = true;
      return Ok{};
    };
    Status status = Ok{};
    if (word.starts_with("@")) {
      status = once(fillGiven, "fill");
      argument.file = word.drop_front().str();
    } else if (word == "point" || word == "linear") {
      status = once(filterGiven, "filter mode");
      texture.filter = word == "linear" ? interp::FilterMode::Linear : interp::FilterMode::Point;
    } else if (word == "clamp" || word == "wrap" || word == "mirror" || word == "border") {
      status = once(addressGiven, "address mode");
      texture.address = word == "clamp"    ? interp::AddressMode::Clamp
                        : word == "wrap"   ? interp::AddressMode::Wrap
                        : word == "mirror" ? interp::AddressMode::Mirror
                                           : interp::AddressMode::Border;
    } else if (word.starts_with("alias=") && word.size() > 6) {
      status = once(fillGiven, "fill");
      texture.aliasName = word.drop_front(6).str();
    } else if (word == "normalized") {
      texture.normalizedCoords = true;
    } else if (word == "float-read") {
      texture.readNormalizedFloat = true;
    } else if (interp::TextureDescriptor probe; parseFormat(word, probe)) {
      status = once(formatGiven, "texel type");
      parseFormat(word, texture);
    } else {
      std::optional<Fill> fill = fillNamed(std::string_view(word));
      if (!fill)
        return bad("unknown option '" + word.str() +
                   "' (texel types float/int/uint/short/ushort/char/uchar[2|4], point, linear, "
                   "clamp, wrap, mirror, border, normalized, float-read, a fill, @FILE or "
                   "alias=PARAM)");
      argument.fill = *fill;
      status = once(fillGiven, "fill");
    }
    if (!status)
      return bad(status.error().message);
  }
  if (texture.isSurface &&
      (filterGiven || addressGiven || texture.normalizedCoords || texture.readNormalizedFloat))
    return bad("surfaces have no filtering, address modes or normalisation");
  if (texture.readNormalizedFloat &&
      (texture.type == interp::TexelType::Float || texture.channelBytes > 2))
    return bad("float-read needs 8- or 16-bit integer texels");
  if (texture.filter == interp::FilterMode::Linear && texture.type != interp::TexelType::Float &&
      !texture.readNormalizedFloat)
    return bad("linear filtering needs float texels or float-read");
  if (!texture.normalizedCoords && (texture.address == interp::AddressMode::Wrap ||
                                    texture.address == interp::AddressMode::Mirror))
    return bad("wrap and mirror addressing need normalized coordinates");
  if (texture.sizeBytes() > (uint64_t(1) << 32))
    return bad("more than 4 GiB of texels");
  return argument;
}

interp::TextureDescriptor automaticTexture(const ir::ParamInfo &param, uint64_t texels) {
  interp::TextureDescriptor texture;
  texture.isSurface = param.resource == ir::ResourceKind::Surface;
  texture.dims = uint8_t(std::clamp<unsigned>(param.resourceDims, 1, 3));
  texels = std::max<uint64_t>(texels, 1);
  uint32_t side = ceilRoot(texels, texture.dims);
  for (unsigned axis = 0; axis + 1 < texture.dims; ++axis)
    texture.extent[axis] = side;
  uint64_t plane = texture.dims == 1 ? 1 : uint64_t(side) * (texture.dims == 3 ? side : 1);
  texture.extent[texture.dims - 1] = uint32_t(std::max<uint64_t>((texels + plane - 1) / plane, 1));
  return texture;
}

ir::ParamInfo texelChannels(const ir::ParamInfo &param, const interp::TextureDescriptor &texture) {
  ir::ParamInfo channels = param;
  channels.elementKind =
      texture.type == interp::TexelType::Float ? ir::ValueKind::Float : ir::ValueKind::Int;
  channels.elementBytes = texture.channelBytes;
  channels.elementSigned = texture.type == interp::TexelType::Signed;
  return channels;
}

} // namespace simulee::session
