#include "ir/TexturePtx.h"

#include "ir/Opcodes.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>

namespace simulee::ir {
namespace {

bool has(llvm::ArrayRef<llvm::StringRef> parts, llvm::StringRef modifier) {
  return std::find(parts.begin() + 1, parts.end(), modifier) != parts.end();
}

unsigned geometry(llvm::ArrayRef<llvm::StringRef> parts) {
  for (llvm::StringRef part : parts.drop_front()) {
    if (part == "1d")
      return 1;
    if (part == "2d")
      return 2;
    if (part == "3d")
      return 3;
  }
  return 0;
}

} // namespace

TextureInstruction decodeTextureInstruction(llvm::ArrayRef<llvm::StringRef> parts) {
  TextureInstruction decoded;
  std::string opcode = llvm::join(parts, ".");
  auto unsupported = [&](const std::string &why) {
    decoded.error = "PTX instruction '" + opcode + "' (" + why + ")";
    return decoded;
  };
  decoded.dims = geometry(parts);
  if (parts.empty() || decoded.dims == 0)
    return unsupported("only 1d, 2d and 3d textures and surfaces; no arrays, cubes or "
                       "multisampling");
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
    decoded.flags = textureFetchFlags(decoded.dims, !decoded.floatCoords, fetch);
    return decoded;
  }
  bool load = parts[0] == "suld";
  if (!load && parts[0] != "sust")
    return unsupported("not a texture or surface instruction");
  decoded.kind =
      load ? TextureInstruction::Kind::SurfaceLoad : TextureInstruction::Kind::SurfaceStore;
  if (!has(parts, "b"))
    return unsupported("only unformatted (.b) surface accesses");
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
