#include "ir/TexturePtx.h"

#include "ir/Opcodes.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>

namespace simulee::ir {
namespace {

bool has(llvm::ArrayRef<llvm::StringRef> parts, llvm::StringRef modifier) {
  return std::find(parts.begin() + 1, parts.end(), modifier) != parts.end();
}

// The instruction's geometry: its spatial dimensions and whether it
// addresses a layer of an array (a1d, a2d) or a cube map (cube); 0
// dimensions for one simulee does not model.
struct Geometry {
  unsigned dims = 0;
  TextureGeometry kind = TextureGeometry::Plain;
};
Geometry geometry(llvm::ArrayRef<llvm::StringRef> parts) {
  for (llvm::StringRef part : parts.drop_front()) {
    if (part == "1d" || part == "2d" || part == "3d")
      return {unsigned(part[0] - '0'), TextureGeometry::Plain};
    if (part == "a1d" || part == "a2d")
      return {unsigned(part[1] - '0'), TextureGeometry::Layered};
    if (part == "cube")
      return {3, TextureGeometry::Cube};
  }
  return {};
}

} // namespace

TextureInstruction decodeTextureInstruction(llvm::ArrayRef<llvm::StringRef> parts) {
  TextureInstruction decoded;
  std::string opcode = llvm::join(parts, ".");
  auto unsupported = [&](const std::string &why) {
    decoded.error = "PTX instruction '" + opcode + "' (" + why + ")";
    return decoded;
  };
  Geometry shape = geometry(parts);
  if (parts.empty() || shape.dims == 0)
    return unsupported("only 1d, 2d, 3d, a1d, a2d and cube textures, and 1d, 2d, 3d, a1d and "
                       "a2d surfaces; no layered cube maps or multisampling");
  decoded.dims = decoded.spatialDims = shape.dims;
  decoded.layered = shape.kind == TextureGeometry::Layered;
  if (parts[0] == "tex") {
    decoded.kind = TextureInstruction::Kind::Fetch;
    // tex.level / tex.grad (tex2DLod, tex2DGrad): simulee's textures have one
    // level, which they sample whatever the level of detail.
    size_t modifiers = has(parts, "level") || has(parts, "grad") ? 1 : 0;
    if (!has(parts, "v4") || parts.size() != 5 + modifiers)
      return unsupported("only tex{.level,.grad}.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32}");
    llvm::StringRef result = parts[parts.size() - 2], coords = parts.back();
    if ((result != "f32" && result != "s32" && result != "u32") ||
        (coords != "f32" && coords != "s32"))
      return unsupported("results f32, s32 or u32 and coordinates f32 or s32 only");
    decoded.floatResult = result == "f32";
    decoded.floatCoords = coords == "f32";
    auto fetch = result == "f32"   ? TextureResult::F32
                 : result == "s32" ? TextureResult::S32
                                   : TextureResult::U32;
    decoded.flags = textureFetchFlags(decoded.dims, !decoded.floatCoords, fetch, shape.kind);
    return decoded;
  }
  bool load = parts[0] == "suld";
  if (!load && parts[0] != "sust")
    return unsupported("not a texture or surface instruction");
  decoded.kind =
      load ? TextureInstruction::Kind::SurfaceLoad : TextureInstruction::Kind::SurfaceStore;
  if (!has(parts, "b"))
    return unsupported("only unformatted (.b) surface accesses");
  if (shape.kind == TextureGeometry::Cube)
    return unsupported("no cube map surfaces");
  // A layer of a layered surface is a slice: the surface is addressed as a
  // 3-D one, the layer as z.
  if (decoded.layered)
    decoded.dims = 3;
  decoded.vectorCount = has(parts, "v4") ? 4 : has(parts, "v2") ? 2 : 1;
  decoded.elementBits = has(parts, "b8")    ? 8
                        : has(parts, "b16") ? 16
                        : has(parts, "b32") ? 32
                        : has(parts, "b64") ? 64
                                            : 0;
  if (decoded.elementBits == 0)
    return unsupported("elements b8, b16, b32 or b64 only");
  auto boundary = has(parts, "clamp")  ? SurfaceBoundary::Clamp
                  : has(parts, "zero") ? SurfaceBoundary::Zero
                                       : SurfaceBoundary::Trap;
  decoded.flags = surfaceFlags(decoded.dims, boundary);
  return decoded;
}

} // namespace simulee::ir
