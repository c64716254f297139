// What PTX texture and surface instructions lower to: calls of three
// functions the interpreter implements (Builtins.cpp -> Op::TextureFetch,
// Op::SurfaceLoad, Op::SurfaceStore), with the instruction's modifiers
// packed into a constant `flags` argument (ir/Opcodes.h).
//
//   tex{.level,.grad}.{1d,2d,3d,a1d,a2d,cube}.v4.{f32,s32,u32}.{f32,s32}  d, [handle, {coords}]{, lod}
//     (textures have one level: the level of detail and gradients are ignored)
//     -> {i32 x4} __simulee_texture_fetch(i64 handle, i32 flags, i32 x, i32 y, i32 z)
//     (a1d/a2d: {layer, x[, y]} -> x, y, z = layer; cube: the direction x, y, z)
//   suld.b.{1d,2d,3d,a1d,a2d}{.v2,.v4}.{b8,b16,b32,b64}.{trap,clamp,zero}  d, [handle, {x, y, z}]
//     -> iN or {iN x V} __simulee_surface_load(i64, i32 flags, i32 x, i32 y, i32 z)
//   sust.b.... [handle, {x, y, z}], {values}
//     (a1d/a2d: {layer, x[, y]}: a 3-D surface with the layer as z)
//     -> void __simulee_surface_store(i64, i32 flags, i32 x, i32 y, i32 z, iN values...)
//
// The surface functions are declared once per element type and count, with
// a suffix (".b32x2"). Coordinates are passed as their 32 bits (floats
// bit-cast). CUDA 12's
// surf*read/surf*write reach sust/suld through simulee_surfaces.h, since
// clang's texture header does not handle surfaces.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>
#include <string>

namespace simulee::ir {

inline constexpr const char *kTextureFetchFunction = "__simulee_texture_fetch";
inline constexpr const char *kSurfaceLoadFunction = "__simulee_surface_load";
inline constexpr const char *kSurfaceStoreFunction = "__simulee_surface_store";

// How one tex/suld/sust instruction is lowered, from its dot-separated parts
// (parts[0] is the opcode); `error` says what is unsupported.
struct TextureInstruction {
  enum class Kind : uint8_t { Fetch, SurfaceLoad, SurfaceStore } kind = Kind::Fetch;
  unsigned dims = 1;        // as the flags say; a layered surface's is 3
  unsigned spatialDims = 1; // coordinates besides a layer
  bool layered = false;     // a1d/a2d: the coordinate vector starts with the layer
  uint8_t flags = 0;         // textureFetchFlags / surfaceFlags (ir/Opcodes.h)
  bool floatResult = false;  // tex: f32 channels
  bool floatCoords = false;  // tex: f32 coordinates
  unsigned elementBits = 32; // suld/sust
  unsigned vectorCount = 1;  // suld/sust: 1, 2 or 4
  std::string error;
};

TextureInstruction decodeTextureInstruction(llvm::ArrayRef<llvm::StringRef> parts);

} // namespace simulee::ir
