// The CUDA runtime API entry points of libsimulee_cudart: each translates its
// arguments and forwards to the Runtime (Runtime.h). Declared by NVIDIA's own
// cuda_runtime_api.h, so every signature is checked against the real one.
// Streams and events are ordered and synchronous: every operation is complete
// when its call returns.
#include "ir/CudaInstallation.h"
#include "runtime/DeviceProperties.h"
#include "runtime/Runtime.h"
#include "runtime/StreamCapture.h"
#include "runtime/Textures.h"
#include "support/SimulatedDevice.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

using simulee::runtime::AllocationKind;
using simulee::runtime::CaptureSensitiveCall;
using simulee::runtime::Runtime;
using simulee::runtime::StreamWork;

#define CALLER __builtin_return_address(0)

namespace {

cudaError_t result(int code) { return static_cast<cudaError_t>(code); }

// What a call that did its work returns: cudaSuccess, or the error that left
// the context unusable (a failed device assert), which every later call
// returns as on a GPU.
cudaError_t succeeded() { return result(Runtime::get().stickyError()); }

// What a call naming a device other than the simulated machine's one
// returns (and records as the last error).
cudaError_t invalidDevice() { return result(Runtime::get().setError(cudaErrorInvalidDevice)); }

// What a call given a null or meaningless argument returns (and records as
// the last error).
cudaError_t invalidValue() { return result(Runtime::get().setError(cudaErrorInvalidValue)); }

// A launch on `stream`: a node of its graph while the stream captures.
cudaError_t launchFrom(const void *func, dim3 grid, dim3 block, void **args, size_t sharedMem,
                       cudaStream_t stream, bool cooperative, const void *returnAddress) {
  const void *site =
      simulee::runtime::stubCallSite ? simulee::runtime::stubCallSite : returnAddress;
  simulee::runtime::stubCallSite = nullptr;
  if (std::optional<cudaError_t> captured =
          simulee::runtime::captureLaunch(stream, func, grid, block, args, sharedMem, cooperative,
                                          site))
    return *captured;
  return result(Runtime::get().launch(func, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z},
                                      args, sharedMem, site, cooperative));
}

// Work issued on `stream`: a node of its graph while the stream captures,
// else done now.
cudaError_t onStream(cudaStream_t stream, cudaGraphNodeType type, const StreamWork &work) {
  if (std::optional<cudaError_t> captured = simulee::runtime::captureWork(stream, type, work))
    return *captured;
  return work();
}

// A synchronous copy or set: refused beside a capture that forbids it.
cudaError_t synchronousWork(const StreamWork &work) {
  if (cudaError_t refused = simulee::runtime::checkCaptureAllows(CaptureSensitiveCall::LegacyStreamSync))
    return refused;
  return work();
}

// A blocking copy waits for the device: the launches' printf output is
// printed first, as a GPU flushes its printf buffer there.
cudaError_t blockingCopy(const StreamWork &work) {
  return synchronousWork([&] {
    Runtime::get().printDeviceOutput();
    return work();
  });
}

// An event is the time it was recorded at.
struct Event {
  std::chrono::steady_clock::time_point recorded = std::chrono::steady_clock::now();
};

// A stream is a name only: work on it is done when its call returns.
struct Stream {
  unsigned flags = 0;
};

// cudaStreamSetAttribute's values, by stream and attribute.
struct StreamAttributes {
  std::mutex mutex;
  std::map<std::pair<cudaStream_t, int>, cudaStreamAttrValue> values;
};

StreamAttributes &streamAttributes() {
  static StreamAttributes *attributes = new StreamAttributes(); // used until exit
  return *attributes;
}

} // namespace

extern "C" {

// --- launch ---------------------------------------------------------------

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream) {
  return launchFrom(func, gridDim, blockDim, args, sharedMem, stream, false, CALLER);
}

// cudaLaunchKernelEx's launch: cooperative when an attribute says so; the
// other attributes (clusters aside, which are refused) are scheduling hints.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
  if (!config)
    return invalidValue();
  bool cooperative = false;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute &attribute = config->attrs[i];
    if (attribute.id == cudaLaunchAttributeCooperative)
      cooperative = attribute.val.cooperative != 0;
    if (attribute.id == cudaLaunchAttributeClusterDimension &&
        attribute.val.clusterDim.x * attribute.val.clusterDim.y * attribute.val.clusterDim.z > 1)
      Runtime::get().unsupported("thread block clusters (cudaLaunchAttributeClusterDimension)");
  }
  return launchFrom(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                    config->stream, cooperative, CALLER);
}

// A cooperative launch: its blocks may synchronize as a grid (this_grid().sync()),
// so all of them must be resident at once.
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream) {
  return launchFrom(func, gridDim, blockDim, args, sharedMem, stream, true, CALLER);
}

// --- memory ---------------------------------------------------------------

cudaError_t cudaMalloc(void **devPtr, size_t size) {
  if (cudaError_t refused = simulee::runtime::checkCaptureAllows(CaptureSensitiveCall::Unsafe))
    return refused;
  return result(Runtime::get().allocate(devPtr, size, AllocationKind::Device, CALLER));
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int) {
  return result(Runtime::get().allocate(devPtr, size, AllocationKind::Managed, CALLER));
}

cudaError_t cudaMallocHost(void **ptr, size_t size) {
  return result(Runtime::get().allocate(ptr, size, AllocationKind::Host, CALLER));
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int) {
  return result(Runtime::get().allocate(pHost, size, AllocationKind::Host, CALLER));
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
  if (!pitch)
    return invalidValue();
  *pitch = (width + 255) / 256 * 256;
  return result(Runtime::get().allocate(devPtr, *pitch * height, AllocationKind::Device, CALLER));
}

// In a capture, the allocation is made now and becomes the graph's
// allocation node, and the free its free node (GraphApi.cpp).
static cudaError_t allocateOnStream(void **devPtr, size_t size, cudaStream_t stream,
                                    const void *site) {
  if (int error = Runtime::get().allocate(devPtr, size, AllocationKind::Device, site))
    return result(error);
  if (std::optional<cudaError_t> captured = simulee::runtime::captureWork(
          stream, cudaGraphNodeTypeMemAlloc, simulee::runtime::allocationNodeWork(*devPtr, site)))
    return *captured;
  return succeeded();
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream) {
  return allocateOnStream(devPtr, size, stream, CALLER);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream) {
  simulee::runtime::StreamWork free =
      simulee::runtime::freeNodeWork(devPtr, "cudaFreeAsync", CALLER);
  if (std::optional<cudaError_t> captured =
          simulee::runtime::captureWork(stream, cudaGraphNodeTypeMemFree, free))
    return *captured;
  return free();
}

} // extern "C"

// A memory pool of the stream-ordered allocator: allocations come from the
// device memory as cudaMalloc's do; the pool keeps its attributes.
struct CUmemPoolHandle_st {
  std::map<int, uint64_t> attributes;
};

namespace {

// The memory pool calls name one device, 0, and a pool: the error a GPU
// gives when either is wrong, else cudaSuccess.
cudaError_t poolArgumentError(int device, const void *pool) {
  if (device != 0)
    return invalidDevice();
  return pool ? cudaSuccess : invalidValue();
}

// The pool attributes that are ints (the reuse policies); the others are
// 64-bit byte counts.
bool isIntPoolAttribute(cudaMemPoolAttr attr) {
  return attr <= cudaMemPoolReuseAllowInternalDependencies;
}

CUmemPoolHandle_st *defaultPool() {
  static CUmemPoolHandle_st *pool = new CUmemPoolHandle_st(); // used until exit
  return pool;
}

CUmemPoolHandle_st *&currentPool() {
  static CUmemPoolHandle_st *pool = defaultPool();
  return pool;
}

} // namespace

extern "C" {

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device) {
  if (cudaError_t error = poolArgumentError(device, memPool))
    return error;
  *memPool = defaultPool();
  return succeeded();
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device) {
  if (cudaError_t error = poolArgumentError(device, memPool))
    return error;
  *memPool = currentPool();
  return succeeded();
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  if (cudaError_t error = poolArgumentError(device, memPool))
    return error;
  currentPool() = memPool;
  return succeeded();
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps) {
  if (!memPool || !poolProps)
    return invalidValue();
  *memPool = new CUmemPoolHandle_st();
  return succeeded();
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  if (!memPool || memPool == defaultPool())
    return invalidValue();
  if (currentPool() == memPool)
    currentPool() = defaultPool();
  delete memPool;
  return succeeded();
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
  if (!memPool || !value)
    return invalidValue();
  memPool->attributes[attr] = isIntPoolAttribute(attr) ? uint64_t(*static_cast<int *>(value))
                                                       : *static_cast<uint64_t *>(value);
  return succeeded();
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
  if (!memPool || !value)
    return invalidValue();
  auto found = memPool->attributes.find(attr);
  uint64_t known = found == memPool->attributes.end() ? 0 : found->second;
  if (isIntPoolAttribute(attr))
    *static_cast<int *>(value) = found == memPool->attributes.end() ? 1 : int(known);
  else
    *static_cast<uint64_t *>(value) = known;
  return succeeded();
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t) {
  return memPool ? succeeded() : invalidValue();
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *, size_t) {
  return memPool ? succeeded() : invalidValue();
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream) {
  if (!memPool)
    return invalidValue();
  return allocateOnStream(ptr, size, stream, CALLER);
}

// A pitched 3-D allocation: rows padded to 256 bytes, as cudaMallocPitch.
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent) {
  size_t pitch = (extent.width + 255) / 256 * 256;
  pitchedDevPtr->pitch = pitch;
  pitchedDevPtr->xsize = extent.width;
  pitchedDevPtr->ysize = extent.height;
  return result(Runtime::get().allocate(&pitchedDevPtr->ptr, pitch * extent.height * extent.depth,
                                        AllocationKind::Device, CALLER));
}

cudaError_t cudaFree(void *devPtr) {
  return result(Runtime::get().free(devPtr, AllocationKind::Device, "cudaFree", CALLER));
}

cudaError_t cudaFreeHost(void *ptr) {
  return result(Runtime::get().free(ptr, AllocationKind::Host, "cudaFreeHost", CALLER));
}

// Pinned (cudaMallocHost, cudaHostAlloc) and registered host memory is
// mapped at the same address (unified addressing); other memory is not.
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
  if (!pDevice || flags != 0)
    return invalidValue();
  simulee::runtime::AddressInfo info = Runtime::get().memory().find(pHost);
  if (!info.allocation || info.allocation->freed ||
      info.allocation->kind != AllocationKind::Host)
    return invalidValue();
  *pDevice = pHost;
  return succeeded();
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int) {
  return result(Runtime::get().registerHost(ptr, size, CALLER));
}

cudaError_t cudaHostUnregister(void *ptr) {
  return result(Runtime::get().unregisterHost(ptr, CALLER));
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) {
  simulee::runtime::AddressInfo info = Runtime::get().memory().find(pHost);
  if (!pFlags || !info.allocation || info.allocation->kind != AllocationKind::Host)
    return invalidValue();
  *pFlags = cudaHostAllocMapped | cudaHostAllocPortable;
  return succeeded();
}

} // extern "C"

namespace {

// Where a copy's pointer lies, for its direction: memory only the device
// reaches (cudaMalloc), only the host (the program's own), or both (managed,
// pinned and registered memory).
enum class Reach { Device, Host, Both };

Reach reachOf(const void *pointer) {
  simulee::runtime::AddressInfo info = Runtime::get().memory().find(pointer);
  if (info.isDevicePointer)
    return Reach::Device;
  if (!info.allocation)
    return Reach::Host;
  return info.allocation->kind == AllocationKind::Managed ||
                 info.allocation->kind == AllocationKind::Host
             ? Reach::Both
             : Reach::Device;
}

// A copy whose pointers contradict its cudaMemcpyKind (device memory where
// the kind says host, or the program's own memory where it says device)
// fails with cudaErrorInvalidValue, as the driver refuses it on a GPU; CUDA
// calls such a copy undefined, so it is a host finding. cudaMemcpyDefault
// takes the direction from the pointers.
cudaError_t checkDirection(void *dst, const void *src, cudaMemcpyKind kind, const char *function,
                           const void *site) {
  if (kind == cudaMemcpyDefault || !dst || !src)
    return cudaSuccess;
  if (unsigned(kind) > unsigned(cudaMemcpyDefault))
    return result(Runtime::get().setError(cudaErrorInvalidMemcpyDirection));
  bool fromDevice = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  bool toDevice = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  static const char *const kKindNames[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
                                           "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice"};
  for (auto [pointer, device, role] :
       {std::tuple<const void *, bool, const char *>{src, fromDevice, "from"},
        std::tuple<const void *, bool, const char *>{dst, toDevice, "to"}}) {
    Reach reach = reachOf(pointer);
    if (reach == Reach::Both || (reach == Reach::Device) == device)
      continue;
    std::string where = reach == Reach::Device
                            ? "device memory (" + Runtime::get().describeAddress(pointer) + ")"
                            : "host memory CUDA did not allocate";
    Runtime::get().hostFinding(function, site,
                               std::string(kKindNames[kind]) + " copies " + role + " " + where +
                                   ", where the kind says " + (device ? "device" : "host") +
                                   " memory: the pointers contradict the direction");
    return invalidValue();
  }
  return cudaSuccess;
}

// `count` bytes copied as `function` at `site` copies them, once their
// direction is checked.
cudaError_t copyLinear(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                       const char *function, const void *site) {
  if (cudaError_t error = checkDirection(dst, src, kind, function, site))
    return error;
  return result(Runtime::get().copy(dst, src, count, function, site));
}

} // namespace

extern "C" {

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
  return blockingCopy(
      [=, site = CALLER] { return copyLinear(dst, src, count, kind, "cudaMemcpy", site); });
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream) {
  return onStream(stream, cudaGraphNodeTypeMemcpy, [=, site = CALLER] {
    return copyLinear(dst, src, count, kind, "cudaMemcpyAsync", site);
  });
}

// Copies between devices: the simulated machine has one, so only device 0
// to device 0 is a copy (device to device); any other device is invalid.
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count) {
  if (dstDevice != 0 || srcDevice != 0)
    return invalidDevice();
  return blockingCopy([=, site = CALLER] {
    return copyLinear(dst, src, count, cudaMemcpyDeviceToDevice, "cudaMemcpyPeer", site);
  });
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, cudaStream_t stream) {
  if (dstDevice != 0 || srcDevice != 0)
    return invalidDevice();
  return onStream(stream, cudaGraphNodeTypeMemcpy, [=, site = CALLER] {
    return copyLinear(dst, src, count, cudaMemcpyDeviceToDevice, "cudaMemcpyPeerAsync", site);
  });
}

static cudaError_t copy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                          size_t height, cudaMemcpyKind kind, const char *function,
                          const void *caller) {
  if (width > dpitch || width > spitch)
    return result(Runtime::get().setError(cudaErrorInvalidPitchValue));
  if (cudaError_t error = checkDirection(dst, src, kind, function, caller))
    return error;
  for (size_t row = 0; row < height; ++row) {
    int error =
        Runtime::get().copy(static_cast<char *>(dst) + row * dpitch,
                            static_cast<const char *>(src) + row * spitch, width, function, caller);
    if (error)
      return result(error);
  }
  return succeeded();
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind) {
  return blockingCopy([=, site = CALLER] {
    return copy2D(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2D", site);
  });
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream) {
  return onStream(stream, cudaGraphNodeTypeMemcpy, [=, site = CALLER] {
    return copy2D(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2DAsync", site);
  });
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  return synchronousWork([=, site = CALLER] {
    return result(Runtime::get().fill(devPtr, value, count, "cudaMemset", site));
  });
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
  return onStream(stream, cudaGraphNodeTypeMemset, [=, site = CALLER] {
    return result(Runtime::get().fill(devPtr, value, count, "cudaMemsetAsync", site));
  });
}

static cudaError_t fill2D(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                          const char *function, const void *caller) {
  for (size_t row = 0; row < height; ++row)
    if (int error = Runtime::get().fill(static_cast<char *>(devPtr) + row * pitch, value, width,
                                        function, caller))
      return result(error);
  return succeeded();
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
  return synchronousWork([=, site = CALLER] {
    return fill2D(devPtr, pitch, value, width, height, "cudaMemset2D", site);
  });
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
  return onStream(stream, cudaGraphNodeTypeMemset, [=, site = CALLER] {
    return fill2D(devPtr, pitch, value, width, height, "cudaMemset2DAsync", site);
  });
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent) {
  return synchronousWork([=, site = CALLER] {
    for (size_t slice = 0; slice < extent.depth; ++slice)
      if (cudaError_t error = fill2D(static_cast<char *>(pitchedDevPtr.ptr) +
                                         slice * pitchedDevPtr.ysize * pitchedDevPtr.pitch,
                                     pitchedDevPtr.pitch, value, extent.width, extent.height,
                                     "cudaMemset3D", site))
        return error;
    return succeeded();
  });
}

} // extern "C"

namespace simulee::runtime {

namespace {

// One side of a 3-D copy: rows of `pitch` bytes, `ysize` rows a slice, the
// copy starting `x` bytes into row `y` of slice `z`; `array` when it is a
// CUDA array (positions in texels there).
struct CopySide {
  char *base = nullptr;
  size_t pitch = 0, ysize = 0, x = 0, y = 0, z = 0;
  const CudaArray *array = nullptr;
};

CopySide copySide(cudaArray_t array, const cudaPitchedPtr &memory, const cudaPos &pos) {
  if (!array)
    return {static_cast<char *>(memory.ptr), memory.pitch, memory.ysize, pos.x, pos.y, pos.z};
  const auto *info = reinterpret_cast<const CudaArray *>(array);
  return {reinterpret_cast<char *>(info->address), info->rowBytes(), info->rows(),
          pos.x * info->texelBytes, pos.y, pos.z, info};
}

} // namespace

// cudaMemcpy3D: between pitched memory and CUDA arrays, in any direction.
// With an array on either side the extent's width counts that array's
// texels, otherwise bytes; a copy past an array's end is a host finding.
cudaError_t copyPitched(const cudaMemcpy3DParms &p, const char *function, const void *site) {
  CopySide src = copySide(p.srcArray, p.srcPtr, p.srcPos);
  CopySide dst = copySide(p.dstArray, p.dstPtr, p.dstPos);
  for (const CopySide *side : {&src, &dst})
    if (side->array && side->array->freed)
      return result(Runtime::get().setError(cudaErrorInvalidResourceHandle));
  const CudaArray *array = src.array ? src.array : dst.array;
  size_t width = array ? p.extent.width * array->texelBytes : p.extent.width;
  size_t height = p.extent.height, depth = p.extent.depth;
  for (const CopySide *side : {&src, &dst}) {
    const CudaArray *a = side->array;
    if (a && (side->x + width > a->rowBytes() || side->y + height > a->rows() ||
              side->z + depth > a->slices())) {
      Runtime::get().hostFinding(
          function, site,
          "copies " + std::to_string(depth) + " slices of " + std::to_string(height) +
              " rows of " + std::to_string(width) + " bytes at (" + std::to_string(side->x) +
              ", " + std::to_string(side->y) + ", " + std::to_string(side->z) +
              ") of a CUDA array of " + std::to_string(a->slices()) + " slices of " +
              std::to_string(a->rows()) + " rows of " + std::to_string(a->rowBytes()) + " bytes");
      return invalidValue();
    }
  }
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y) {
      const char *from = src.base + ((src.z + z) * src.ysize + src.y + y) * src.pitch + src.x;
      char *to = dst.base + ((dst.z + z) * dst.ysize + dst.y + y) * dst.pitch + dst.x;
      if (int error = Runtime::get().copy(to, from, width, function, site))
        return result(error);
    }
  return succeeded();
}

} // namespace simulee::runtime

extern "C" {

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
  if (!p)
    return invalidValue();
  return blockingCopy([params = *p, site = CALLER] {
    return simulee::runtime::copyPitched(params, "cudaMemcpy3D", site);
  });
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
  if (!p)
    return invalidValue();
  return onStream(stream, cudaGraphNodeTypeMemcpy, [params = *p, site = CALLER] {
    return simulee::runtime::copyPitched(params, "cudaMemcpy3DAsync", site);
  });
}

static cudaError_t symbolCopy(const void *symbol, void *host, size_t count, size_t offset,
                              bool toSymbol, const char *function, const void *caller) {
  std::vector<uint8_t> *storage = nullptr;
  if (int error = Runtime::get().symbolStorage(symbol, storage, function, caller))
    return result(error);
  if (offset > storage->size() || count > storage->size() - offset) {
    Runtime::get().hostFinding(function, caller,
                               "copies " + std::to_string(count) + " bytes at offset " +
                                   std::to_string(offset) + " of a device variable of " +
                                   std::to_string(storage->size()) + " bytes");
    return invalidValue();
  }
  uint8_t *bytes = storage->data() + offset;
  if (!toSymbol)
    return result(Runtime::get().copy(host, bytes, count, function, caller));
  int error = Runtime::get().copy(bytes, host, count, function, caller);
  Runtime::get().symbolWritten(symbol);
  return result(error);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind) {
  return blockingCopy([=, site = CALLER] {
    return symbolCopy(symbol, const_cast<void *>(src), count, offset, true, "cudaMemcpyToSymbol",
                      site);
  });
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind) {
  return blockingCopy([=, site = CALLER] {
    return symbolCopy(symbol, dst, count, offset, false, "cudaMemcpyFromSymbol", site);
  });
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind, cudaStream_t stream) {
  return onStream(stream, cudaGraphNodeTypeMemcpy, [=, site = CALLER] {
    return symbolCopy(symbol, const_cast<void *>(src), count, offset, true,
                      "cudaMemcpyToSymbolAsync", site);
  });
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind, cudaStream_t stream) {
  return onStream(stream, cudaGraphNodeTypeMemcpy, [=, site = CALLER] {
    return symbolCopy(symbol, dst, count, offset, false, "cudaMemcpyFromSymbolAsync", site);
  });
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  std::vector<uint8_t> *storage = nullptr;
  if (int error = Runtime::get().symbolStorage(symbol, storage, "cudaGetSymbolAddress", CALLER))
    return result(error);
  *devPtr = storage->data();
  return succeeded();
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  std::vector<uint8_t> *storage = nullptr;
  if (int error = Runtime::get().symbolStorage(symbol, storage, "cudaGetSymbolSize", CALLER))
    return result(error);
  *size = storage->size();
  return succeeded();
}

cudaError_t cudaMemGetInfo(size_t *free, size_t *total) {
  *total = simulee::runtime::simulatedDevice().totalGlobalMem;
  *free = *total;
  return succeeded();
}

cudaError_t cudaMemPrefetchAsync(const void *, size_t, int, cudaStream_t) { return succeeded(); }
cudaError_t cudaMemAdvise(const void *, size_t, enum cudaMemoryAdvise, int) { return succeeded(); }

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr) {
  std::memset(attributes, 0, sizeof *attributes);
  simulee::runtime::AddressInfo info = Runtime::get().memory().find(ptr);
  attributes->type = !info.allocation                                   ? cudaMemoryTypeUnregistered
                     : info.allocation->kind == AllocationKind::Device  ? cudaMemoryTypeDevice
                     : info.allocation->kind == AllocationKind::Managed ? cudaMemoryTypeManaged
                                                                        : cudaMemoryTypeHost;
  attributes->devicePointer = info.allocation ? const_cast<void *>(ptr) : nullptr;
  attributes->device = 0;
  attributes->hostPointer = info.allocation && info.allocation->kind != AllocationKind::Device
                                ? const_cast<void *>(ptr)
                                : nullptr;
  return succeeded();
}

// --- device ---------------------------------------------------------------

cudaError_t cudaGetDeviceCount(int *count) {
  *count = 1;
  return succeeded();
}

cudaError_t cudaGetDevice(int *device) {
  *device = 0;
  return succeeded();
}

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : invalidDevice(); }

// The device closest to the properties asked for: the only one there is.
cudaError_t cudaChooseDevice(int *device, const cudaDeviceProp *properties) {
  if (!device || !properties)
    return invalidValue();
  *device = 0;
  return succeeded();
}

cudaError_t cudaSetDeviceFlags(unsigned int) { return succeeded(); }
cudaError_t cudaDeviceSynchronize(void) {
  if (cudaError_t refused = simulee::runtime::checkCaptureAllows(CaptureSensitiveCall::DeviceSync))
    return refused;
  Runtime::get().printDeviceOutput();
  return succeeded();
}
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
cudaError_t cudaDeviceReset(void) {
  Runtime::get().printDeviceOutput();
  return succeeded();
}
// No profiler runs under simulee (cuda_profiler_api.h).
cudaError_t cudaProfilerStart(void) { return succeeded(); }
cudaError_t cudaProfilerStop(void) { return succeeded(); }
// Cache and bank preferences: hints with no effect on what a kernel
// computes. The device keeps the cache preference it was given; its shared
// memory banks are 4 bytes wide, as on every GPU since Volta, whatever is asked.
namespace {
enum cudaFuncCache deviceCachePreference = cudaFuncCachePreferNone;
} // namespace
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache preference) {
  deviceCachePreference = preference;
  return succeeded();
}
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *preference) {
  if (!preference)
    return invalidValue();
  *preference = deviceCachePreference;
  return succeeded();
}
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig) { return succeeded(); }
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config) {
  if (!config)
    return invalidValue();
  *config = cudaSharedMemBankSizeFourByte;
  return succeeded();
}
cudaError_t cudaFuncSetCacheConfig(const void *, enum cudaFuncCache) { return succeeded(); }
cudaError_t cudaFuncSetSharedMemConfig(const void *, enum cudaSharedMemConfig) {
  return succeeded();
}
// The dynamic shared memory a kernel may use is enforced at its launches; the
// carveout preference and the other attributes are accepted as hints.
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
    return result(Runtime::get().setMaxDynamicSharedBytes(func, value));
  simulee::runtime::KernelAttributes attributes;
  if (cudaError_t error = result(Runtime::get().kernelAttributes(func, attributes)))
    return error;
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout && (value < -1 || value > 100))
    return invalidValue();
  return succeeded();
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
  if (device != 0)
    return invalidDevice();
  *prop = simulee::runtime::simulatedDevice();
  return succeeded();
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  if (device != 0)
    return invalidDevice();
  if (!simulee::runtime::deviceAttribute(attr, *value))
    return invalidValue();
  return succeeded();
}

// Limits are accepted and reported back, from a GPU's defaults; the device
// heap's size bounds what kernels may malloc.
static size_t *limits() {
  static size_t values[16] = {};
  static bool set = [] {
    values[cudaLimitStackSize] = 1024;
    values[cudaLimitPrintfFifoSize] = 1 << 20;
    values[cudaLimitMallocHeapSize] = Runtime::get().heapLimitBytes();
    values[cudaLimitDevRuntimeSyncDepth] = 2;
    values[cudaLimitDevRuntimePendingLaunchCount] = 2048;
    values[cudaLimitMaxL2FetchGranularity] = 64;
    return true;
  }();
  (void)set;
  return values;
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  if (size_t(limit) >= 16)
    return invalidValue();
  limits()[limit] = value;
  if (limit == cudaLimitMallocHeapSize)
    Runtime::get().setHeapLimitBytes(value);
  return succeeded();
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit) {
  if (size_t(limit) >= 16 || !pValue)
    return invalidValue();
  *pValue = limits()[limit];
  return succeeded();
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int, int) {
  *canAccessPeer = 0; // one device
  return succeeded();
}

// One device: it has no peer, so every pair of devices is invalid, as a
// GPU answers for a device and itself.
cudaError_t cudaDeviceGetP2PAttribute(int *, enum cudaDeviceP2PAttr, int, int) {
  return invalidDevice();
}

cudaError_t cudaDeviceEnablePeerAccess(int, unsigned int) { return invalidDevice(); }

cudaError_t cudaDeviceDisablePeerAccess(int) { return invalidDevice(); }

cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  *flags = 0;
  return succeeded();
}

cudaError_t cudaDriverGetVersion(int *driverVersion) {
  *driverVersion = 12040;
  return succeeded();
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
  *runtimeVersion = 12040;
  return succeeded();
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
  if (!attr)
    return invalidValue();
  simulee::runtime::KernelAttributes attributes;
  if (cudaError_t error = result(Runtime::get().kernelAttributes(func, attributes)))
    return error;
  std::memset(attr, 0, sizeof *attr);
  attr->sharedSizeBytes = attributes.staticSharedBytes;
  attr->maxThreadsPerBlock = int(attributes.maxThreadsPerBlock);
  attr->numRegs = 32;
  attr->ptxVersion = simulee::ir::kDeviceCodeArch; // what the device code was built for
  attr->binaryVersion = attr->ptxVersion;
  attr->maxDynamicSharedSizeBytes = int(attributes.maxDynamicSharedBytes);
  attr->preferredShmemCarveout = -1;
  return succeeded();
}

// Occupancy of the simulated device, limited by threads and shared memory
// per multiprocessor and blocks per multiprocessor (registers are not
// modelled).
// Limited by threads, blocks and shared memory (the kernel's static shared
// memory with the dynamic), as simulee::simulatedResidentBlocksPerMultiprocessor
// says; a block over the kernel's __launch_bounds__ fits none.
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int) {
  if (!numBlocks)
    return invalidValue();
  simulee::runtime::KernelAttributes attributes;
  if (cudaError_t error = result(Runtime::get().kernelAttributes(func, attributes)))
    return error;
  *numBlocks = blockSize <= 0 || uint32_t(blockSize) > attributes.maxThreadsPerBlock
                   ? 0
                   : int(simulee::simulatedResidentBlocksPerMultiprocessor(
                         uint64_t(blockSize), attributes.staticSharedBytes + dynamicSMemSize));
  return succeeded();
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

// --- errors ---------------------------------------------------------------

cudaError_t cudaGetLastError(void) { return result(Runtime::get().takeLastError()); }
cudaError_t cudaPeekAtLastError(void) { return result(Runtime::get().peekLastError()); }

const char *cudaGetErrorName(cudaError_t error) { return simulee::runtime::errorName(error); }

const char *cudaGetErrorString(cudaError_t error) { return simulee::runtime::errorString(error); }

// --- streams and events ---------------------------------------------------

cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
  *pStream = reinterpret_cast<cudaStream_t>(new Stream{});
  return succeeded();
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
  *pStream = reinterpret_cast<cudaStream_t>(new Stream{flags});
  return succeeded();
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int) {
  return cudaStreamCreateWithFlags(pStream, flags);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  delete reinterpret_cast<Stream *>(stream);
  return succeeded();
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (cudaError_t refused = simulee::runtime::checkNotCapturing(stream))
    return refused;
  Runtime::get().printDeviceOutput();
  return succeeded();
}

cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (cudaError_t refused = simulee::runtime::streamWaitsForEvent(stream, event))
    return refused;
  return succeeded();
}

// Stream attributes (an L2 access policy window, a priority) are hints a
// synchronous runtime keeps and reports back.
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   const cudaStreamAttrValue *value) {
  if (!value)
    return invalidValue();
  StreamAttributes &attributes = streamAttributes();
  std::lock_guard<std::mutex> lock(attributes.mutex);
  attributes.values[{stream, int(attr)}] = *value;
  return succeeded();
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                   cudaStreamAttrValue *value) {
  if (!value)
    return invalidValue();
  StreamAttributes &attributes = streamAttributes();
  std::lock_guard<std::mutex> lock(attributes.mutex);
  auto found = attributes.values.find({stream, int(attr)});
  if (found != attributes.values.end())
    *value = found->second;
  else
    std::memset(value, 0, sizeof *value);
  return succeeded();
}

cudaError_t cudaCtxResetPersistingL2Cache(void) { return succeeded(); }

cudaError_t cudaStreamGetPriority(cudaStream_t, int *priority) {
  if (!priority)
    return invalidValue();
  *priority = 0;
  return succeeded();
}

// Managed memory is visible to every stream at every moment in a
// synchronous runtime.
cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void *, size_t, unsigned int) {
  return succeeded();
}

// The legacy and per-thread default streams are blocking.
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags) {
  if (!flags)
    return invalidValue();
  bool special = !stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
  *flags = special ? cudaStreamDefault : reinterpret_cast<Stream *>(stream)->flags;
  return succeeded();
}

// Host work queued on a stream runs now: everything before it is complete.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
  return onStream(stream, cudaGraphNodeTypeHost, [=] {
    Runtime::get().printDeviceOutput();
    fn(userData);
    return succeeded();
  });
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int) {
  return onStream(stream, cudaGraphNodeTypeHost, [=] {
    Runtime::get().printDeviceOutput();
    callback(stream, cudaSuccess, userData);
    return succeeded();
  });
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  if (leastPriority)
    *leastPriority = 0;
  if (greatestPriority)
    *greatestPriority = -5;
  return succeeded();
}

cudaError_t cudaEventCreate(cudaEvent_t *event) {
  *event = reinterpret_cast<cudaEvent_t>(new Event{});
  return succeeded();
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int) {
  return cudaEventCreate(event);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!event)
    return result(Runtime::get().setError(cudaErrorInvalidResourceHandle));
  reinterpret_cast<Event *>(event)->recorded = std::chrono::steady_clock::now();
  simulee::runtime::eventRecorded(event, stream);
  return succeeded();
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int) {
  return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t) {
  Runtime::get().printDeviceOutput();
  return succeeded();
}
cudaError_t cudaEventQuery(cudaEvent_t) { return succeeded(); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete reinterpret_cast<Event *>(event);
  return succeeded();
}

// The host time between the records: the simulation's time, not a GPU's.
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!start || !end)
    return result(Runtime::get().setError(cudaErrorInvalidResourceHandle));
  *ms = std::chrono::duration<float, std::milli>(reinterpret_cast<Event *>(end)->recorded -
                                                 reinterpret_cast<Event *>(start)->recorded)
            .count();
  return succeeded();
}

} // extern "C"
