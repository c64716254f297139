// The CUDA runtime API of texture objects, surface objects and CUDA arrays
// (Textures.h): each entry point translates its arguments and forwards to
// the texture table or the Runtime's memory.
#include "runtime/Runtime.h"
#include "runtime/Textures.h"

#include <cuda_runtime_api.h>

#include <cstring>

using simulee::runtime::AllocationKind;
using simulee::runtime::CudaArray;
using simulee::runtime::Runtime;
using simulee::runtime::textureObjects;

#define CALLER __builtin_return_address(0)

namespace {

cudaError_t result(int code) { return static_cast<cudaError_t>(code); }
cudaError_t failed(cudaError_t error) { return result(Runtime::get().setError(error)); }

cudaError_t createObject(unsigned long long *handle, const cudaResourceDesc *resource,
                         const cudaTextureDesc *texture, bool hasView, const char *function) {
  if (!handle || !resource)
    return failed(cudaErrorInvalidValue);
  auto made = simulee::runtime::makeTextureObject(*resource, texture, hasView);
  if (auto *error = std::get_if<simulee::runtime::DescriptorError>(&made)) {
    if (!error->unsupported.empty())
      Runtime::get().unsupported((std::string(function) + " with " + error->unsupported).c_str());
    return failed(cudaError_t(error->error));
  }
  *handle = textureObjects().add(std::move(std::get<simulee::runtime::TextureObject>(made)));
  return cudaSuccess;
}

CudaArray *arrayOf(cudaArray_const_t array) {
  return reinterpret_cast<CudaArray *>(const_cast<cudaArray_t>(array));
}

// Copies `height` rows of `width` bytes between an array (at byte column
// `wOffset`, row `hOffset`) and pitched memory.
cudaError_t arrayCopy2D(CudaArray *array, size_t wOffset, size_t hOffset, void *memory,
                        size_t pitch, size_t width, size_t height, bool toArray,
                        const char *function, const void *caller) {
  if (!array || array->freed)
    return failed(cudaErrorInvalidResourceHandle);
  if (wOffset + width > array->rowBytes() || hOffset + height > array->rows() ||
      (height > 1 && width > pitch)) {
    Runtime::get().hostFinding(function, caller,
                               "copies " + std::to_string(height) + " rows of " +
                                   std::to_string(width) + " bytes at (" + std::to_string(wOffset) +
                                   ", " + std::to_string(hOffset) + ") of a CUDA array of " +
                                   std::to_string(array->rows()) + " rows of " +
                                   std::to_string(array->rowBytes()) + " bytes");
    return failed(cudaErrorInvalidValue);
  }
  for (size_t row = 0; row < height; ++row) {
    auto *inArray =
        reinterpret_cast<char *>(array->address + (hOffset + row) * array->rowBytes() + wOffset);
    char *inMemory = static_cast<char *>(memory) + row * pitch;
    int error = toArray ? Runtime::get().copy(inArray, inMemory, width, function, caller)
                        : Runtime::get().copy(inMemory, inArray, width, function, caller);
    if (error)
      return result(error);
  }
  return cudaSuccess;
}

// The deprecated 1-D copies: `count` bytes from (wOffset, hOffset) on, row
// after row.
cudaError_t arrayCopyLinear(CudaArray *array, size_t wOffset, size_t hOffset, void *memory,
                            size_t count, bool toArray, const char *function, const void *caller) {
  if (!array || array->freed)
    return failed(cudaErrorInvalidResourceHandle);
  uint64_t start = hOffset * array->rowBytes() + wOffset;
  if (wOffset > array->rowBytes() || start + count > array->rows() * array->rowBytes())
    return failed(cudaErrorInvalidValue);
  auto *inArray = reinterpret_cast<char *>(array->address + start);
  return result(toArray ? Runtime::get().copy(inArray, memory, count, function, caller)
                        : Runtime::get().copy(memory, inArray, count, function, caller));
}

// cudaMallocArray and cudaMalloc3DArray: a 1-D, 2-D or 3-D array, layered
// (extent.depth layers of 1-D or 2-D ones) or a cube map (six square faces).
cudaError_t makeArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, cudaExtent extent,
                      unsigned flags, const char *function, const void *caller) {
  constexpr unsigned kModelled = cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap;
  if (!array || !desc || !extent.width)
    return failed(cudaErrorInvalidValue);
  if (flags & ~kModelled)
    Runtime::get().unsupported(
        (std::string(function) + " with flags other than cudaArrayLayered, cudaArrayCubemap and "
                                 "cudaArraySurfaceLoadStore (texture gather, sparse, deferred "
                                 "mapping)")
            .c_str());
  bool layered = flags & cudaArrayLayered, cube = flags & cudaArrayCubemap;
  // As cudaMalloc3DArray checks them: a 3-D array has a height; a layered
  // one has layers; a cube map's faces are square, six of them (a multiple
  // of six when layered).
  bool valid = (!extent.depth || extent.height || layered) && (!layered || extent.depth) &&
               (!cube || (extent.width == extent.height &&
                          (layered ? extent.depth % 6 == 0 : extent.depth == 6)));
  if (!valid)
    return failed(cudaErrorInvalidValue);
  auto format = simulee::runtime::texelFormat(*desc);
  if (!format)
    Runtime::get().unsupported(
        (std::string(function) + " with a channel format with " + format.error().message).c_str());
  auto *made = new CudaArray{}; // never deleted: a freed array's handle stays recognisable
  made->format = *desc;
  made->width = extent.width;
  made->height = extent.height;
  made->depth = extent.depth;
  made->texelBytes = format->texelBytes();
  made->flags = flags;
  void *pointer = nullptr;
  if (int error =
          Runtime::get().allocate(&pointer, made->sizeBytes(), AllocationKind::Device, caller)) {
    delete made;
    return result(error);
  }
  made->address = reinterpret_cast<uintptr_t>(pointer);
  Runtime::get().memory().find(pointer).allocation->function = function;
  *array = reinterpret_cast<cudaArray_t>(made);
  return cudaSuccess;
}

} // namespace

extern "C" {

// --- channel formats and CUDA arrays ----------------------------------------

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height, unsigned int flags) {
  if (flags & (cudaArrayLayered | cudaArrayCubemap))
    return failed(cudaErrorInvalidValue); // those take cudaMalloc3DArray
  return makeArray(array, desc, cudaExtent{width, height, 0}, flags, "cudaMallocArray", CALLER);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags) {
  return makeArray(array, desc, extent, flags, "cudaMalloc3DArray", CALLER);
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  if (!array)
    return cudaSuccess;
  CudaArray *freed = arrayOf(array);
  if (freed->freed)
    return failed(cudaErrorInvalidResourceHandle);
  freed->freed = true;
  return result(Runtime::get().free(reinterpret_cast<void *>(freed->address),
                                    AllocationKind::Device, "cudaFreeArray", CALLER));
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                             unsigned int *flags, cudaArray_t array) {
  const CudaArray *info = arrayOf(array);
  if (!info || info->freed)
    return failed(cudaErrorInvalidResourceHandle);
  if (desc)
    *desc = info->format;
  if (extent)
    *extent = cudaExtent{info->width, info->height, info->depth};
  if (flags)
    *flags = info->flags;
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array) {
  const CudaArray *info = arrayOf(array);
  if (!info || info->freed || !desc)
    return failed(cudaErrorInvalidResourceHandle);
  *desc = info->format;
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height, enum cudaMemcpyKind) {
  return arrayCopy2D(arrayOf(dst), wOffset, hOffset, const_cast<void *>(src), spitch, width, height,
                     true, "cudaMemcpy2DToArray", CALLER);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t spitch, size_t width, size_t height,
                                     enum cudaMemcpyKind, cudaStream_t) {
  return arrayCopy2D(arrayOf(dst), wOffset, hOffset, const_cast<void *>(src), spitch, width, height,
                     true, "cudaMemcpy2DToArrayAsync", CALLER);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind) {
  return arrayCopy2D(arrayOf(src), wOffset, hOffset, dst, dpitch, width, height, false,
                     "cudaMemcpy2DFromArray", CALLER);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width, size_t height,
                                       enum cudaMemcpyKind, cudaStream_t) {
  return arrayCopy2D(arrayOf(src), wOffset, hOffset, dst, dpitch, width, height, false,
                     "cudaMemcpy2DFromArrayAsync", CALLER);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind) {
  return arrayCopyLinear(arrayOf(dst), wOffset, hOffset, const_cast<void *>(src), count, true,
                         "cudaMemcpyToArray", CALLER);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, enum cudaMemcpyKind) {
  return arrayCopyLinear(arrayOf(src), wOffset, hOffset, dst, count, false, "cudaMemcpyFromArray",
                         CALLER);
}

// --- texture and surface objects --------------------------------------------

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc) {
  if (!pTexDesc)
    return failed(cudaErrorInvalidValue);
  return createObject(pTexObject, pResDesc, pTexDesc, pResViewDesc != nullptr,
                      "cudaCreateTextureObject");
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  return textureObjects().remove(texObject, false) ? cudaSuccess : failed(cudaErrorInvalidValue);
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaTextureObject_t texObject) {
  const auto *object = textureObjects().find(texObject, false);
  if (!object || !pResDesc)
    return failed(cudaErrorInvalidValue);
  *pResDesc = object->resource;
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                            cudaTextureObject_t texObject) {
  const auto *object = textureObjects().find(texObject, false);
  if (!object || !pTexDesc)
    return failed(cudaErrorInvalidValue);
  *pTexDesc = object->texture;
  return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc) {
  return createObject(pSurfObject, pResDesc, nullptr, false, "cudaCreateSurfaceObject");
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  return textureObjects().remove(surfObject, true) ? cudaSuccess : failed(cudaErrorInvalidValue);
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaSurfaceObject_t surfObject) {
  const auto *object = textureObjects().find(surfObject, true);
  if (!object || !pResDesc)
    return failed(cudaErrorInvalidValue);
  *pResDesc = object->resource;
  return cudaSuccess;
}

} // extern "C"
