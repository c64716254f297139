// Texture and surface parameters (cudaTextureObject_t, cudaSurfaceObject_t)
// from the user's words, or chosen automatically. The spelling, for
// `--arg NAME=SPEC`:
//
//   KIND:EXTENT[:OPTION]...
//   KIND    tex1d tex2d tex3d surf1d surf2d surf3d
//   EXTENT  W, WxH or WxHxD texels (as many as KIND's dimensions)
//   OPTION  texel type: float int uint short ushort char uchar, with 2 or 4
//           channels as a suffix (float4, uchar4; default float);
//           filter: point linear (default point; linear needs float texels
//           or float-read); address mode: clamp wrap mirror border (default
//           clamp; wrap and mirror need normalized); normalized (coordinates
//           in [0,1)); float-read (8/16-bit integer texels read as [0,1] or
//           [-1,1]); a fill as for buffers (random zeros small binary sorted
//           indices perm prefix; default random), @PATH (the texels, raw,
//           row-major) or alias=PARAM (the texels are pointer parameter
//           PARAM's buffer, as when a texture is bound to memory the kernel
//           also writes: texel reads then race with those writes).
//
// e.g. `--arg img=tex2d:64x32:uchar4:float-read:linear:@image.raw`,
// `--arg out=surf2d:64x32:float:zeros`. A parameter not given gets an
// automatic texture of float texels, point-sampled and clamped, with as many
// dimensions as the kernel's fetches use and as many texels as an automatic
// buffer would have elements.
#pragma once

#include "interp/Texture.h"
#include "ir/Program.h"
#include "session/Arguments.h"
#include "support/Result.h"

#include <string>

namespace simulee::session {

struct TextureArgument {
  interp::TextureDescriptor descriptor;
  Fill fill = Fill::Random;
  std::string file; // @PATH; empty: filled as `fill` says
};

// Whether `text` is meant as a texture spec (starts with tex1d:, surf2d: ...).
bool isTextureSpec(const std::string &text);

Result<TextureArgument> parseTextureArgument(const ir::ParamInfo &param, const std::string &text);

// The automatic texture or surface for `param` with about `texels` texels.
interp::TextureDescriptor automaticTexture(const ir::ParamInfo &param, uint64_t texels);

// `param` as buffer fills see it: one element per channel of the texel type.
ir::ParamInfo texelChannels(const ir::ParamInfo &param, const interp::TextureDescriptor &texture);

} // namespace simulee::session
