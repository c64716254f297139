// The CUDA runtime API entry points of libsimulee_cudart: each translates its
// arguments and forwards to the Runtime (Runtime.h). Declared by NVIDIA's own
// cuda_runtime_api.h, so every signature is checked against the real one.
// Streams and events are ordered and synchronous: every operation is complete
// when its call returns.
#include "runtime/DeviceProperties.h"
#include "runtime/Runtime.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstring>

using simulee::runtime::AllocationKind;
using simulee::runtime::Runtime;

#define CALLER __builtin_return_address(0)

namespace {

cudaError_t result(int code) { return static_cast<cudaError_t>(code); }

cudaError_t launchFrom(const void *func, dim3 grid, dim3 block, void **args, size_t sharedMem,
                       const void *returnAddress) {
  const void *site =
      simulee::runtime::stubCallSite ? simulee::runtime::stubCallSite : returnAddress;
  simulee::runtime::stubCallSite = nullptr;
  return result(Runtime::get().launch(func, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z},
                                      args, sharedMem, site));
}

// An event is the time it was recorded at.
struct Event {
  std::chrono::steady_clock::time_point recorded = std::chrono::steady_clock::now();
};

// A stream is a name only: work on it is done when its call returns.
struct Stream {
  unsigned flags = 0;
};

} // namespace

extern "C" {

// --- launch ---------------------------------------------------------------

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t) {
  return launchFrom(func, gridDim, blockDim, args, sharedMem, CALLER);
}

// Every block of a cooperative launch is simulated; grid-wide sync is the
// interpreter's to support or refuse.
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t) {
  return launchFrom(func, gridDim, blockDim, args, sharedMem, CALLER);
}

// --- memory ---------------------------------------------------------------

cudaError_t cudaMalloc(void **devPtr, size_t size) {
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
    return result(Runtime::get().setError(cudaErrorInvalidValue));
  *pitch = (width + 255) / 256 * 256;
  return result(Runtime::get().allocate(devPtr, *pitch * height, AllocationKind::Device, CALLER));
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t) {
  return result(Runtime::get().allocate(devPtr, size, AllocationKind::Device, CALLER));
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t) {
  return result(Runtime::get().free(devPtr, AllocationKind::Device, "cudaFreeAsync", CALLER));
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

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int) {
  *pDevice = pHost; // unified addressing: the same address
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind) {
  return result(Runtime::get().copy(dst, src, count, "cudaMemcpy", CALLER));
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind,
                            cudaStream_t) {
  return result(Runtime::get().copy(dst, src, count, "cudaMemcpyAsync", CALLER));
}

static cudaError_t copy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                          size_t height, const char *function, const void *caller) {
  if (width > dpitch || width > spitch)
    return result(Runtime::get().setError(cudaErrorInvalidPitchValue));
  for (size_t row = 0; row < height; ++row) {
    int error =
        Runtime::get().copy(static_cast<char *>(dst) + row * dpitch,
                            static_cast<const char *>(src) + row * spitch, width, function, caller);
    if (error)
      return result(error);
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind) {
  return copy2D(dst, dpitch, src, spitch, width, height, "cudaMemcpy2D", CALLER);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind, cudaStream_t) {
  return copy2D(dst, dpitch, src, spitch, width, height, "cudaMemcpy2DAsync", CALLER);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  return result(Runtime::get().fill(devPtr, value, count, "cudaMemset", CALLER));
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t) {
  return result(Runtime::get().fill(devPtr, value, count, "cudaMemsetAsync", CALLER));
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
  for (size_t row = 0; row < height; ++row)
    if (int error = Runtime::get().fill(static_cast<char *>(devPtr) + row * pitch, value, width,
                                        "cudaMemset2D", CALLER))
      return result(error);
  return cudaSuccess;
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t) {
  for (size_t row = 0; row < height; ++row)
    if (int error = Runtime::get().fill(static_cast<char *>(devPtr) + row * pitch, value, width,
                                        "cudaMemset2DAsync", CALLER))
      return result(error);
  return cudaSuccess;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent) {
  for (size_t slice = 0; slice < extent.depth; ++slice)
    for (size_t row = 0; row < extent.height; ++row) {
      char *at = static_cast<char *>(pitchedDevPtr.ptr) +
                 (slice * pitchedDevPtr.ysize + row) * pitchedDevPtr.pitch;
      if (int error = Runtime::get().fill(at, value, extent.width, "cudaMemset3D", CALLER))
        return result(error);
    }
  return cudaSuccess;
}

// Linear (pitched) memory only: CUDA arrays are not provided.
static cudaError_t copy3D(const struct cudaMemcpy3DParms *p, const char *function,
                          const void *caller) {
  if (p->srcArray || p->dstArray)
    Runtime::get().unsupported("CUDA arrays (cudaMemcpy3D with cudaArray_t)");
  const cudaPitchedPtr &src = p->srcPtr, &dst = p->dstPtr;
  for (size_t z = 0; z < p->extent.depth; ++z)
    for (size_t y = 0; y < p->extent.height; ++y) {
      const char *from = static_cast<const char *>(src.ptr) +
                         ((p->srcPos.z + z) * src.ysize + p->srcPos.y + y) * src.pitch +
                         p->srcPos.x;
      char *to = static_cast<char *>(dst.ptr) +
                 ((p->dstPos.z + z) * dst.ysize + p->dstPos.y + y) * dst.pitch + p->dstPos.x;
      if (int error = Runtime::get().copy(to, from, p->extent.width, function, caller))
        return result(error);
    }
  return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
  return copy3D(p, "cudaMemcpy3D", CALLER);
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t) {
  return copy3D(p, "cudaMemcpy3DAsync", CALLER);
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
    return result(Runtime::get().setError(cudaErrorInvalidValue));
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
  return symbolCopy(symbol, const_cast<void *>(src), count, offset, true, "cudaMemcpyToSymbol",
                    CALLER);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind) {
  return symbolCopy(symbol, dst, count, offset, false, "cudaMemcpyFromSymbol", CALLER);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind, cudaStream_t) {
  return symbolCopy(symbol, const_cast<void *>(src), count, offset, true, "cudaMemcpyToSymbolAsync",
                    CALLER);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind, cudaStream_t) {
  return symbolCopy(symbol, dst, count, offset, false, "cudaMemcpyFromSymbolAsync", CALLER);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  std::vector<uint8_t> *storage = nullptr;
  if (int error = Runtime::get().symbolStorage(symbol, storage, "cudaGetSymbolAddress", CALLER))
    return result(error);
  *devPtr = storage->data();
  return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  std::vector<uint8_t> *storage = nullptr;
  if (int error = Runtime::get().symbolStorage(symbol, storage, "cudaGetSymbolSize", CALLER))
    return result(error);
  *size = storage->size();
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free, size_t *total) {
  *total = simulee::runtime::simulatedDevice().totalGlobalMem;
  *free = *total;
  return cudaSuccess;
}

cudaError_t cudaMemPrefetchAsync(const void *, size_t, int, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaMemAdvise(const void *, size_t, enum cudaMemoryAdvise, int) { return cudaSuccess; }

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
  return cudaSuccess;
}

// --- device ---------------------------------------------------------------

cudaError_t cudaGetDeviceCount(int *count) {
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device) {
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : result(Runtime::get().setError(cudaErrorInvalidDevice));
}

cudaError_t cudaSetDeviceFlags(unsigned int) { return cudaSuccess; }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t cudaThreadSynchronize(void) { return cudaSuccess; }
cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
// No profiler runs under simulee (cuda_profiler_api.h).
cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig) { return cudaSuccess; }
cudaError_t cudaFuncSetCacheConfig(const void *, enum cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaFuncSetAttribute(const void *, enum cudaFuncAttribute, int) { return cudaSuccess; }

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
  if (device != 0)
    return result(Runtime::get().setError(cudaErrorInvalidDevice));
  *prop = simulee::runtime::simulatedDevice();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  if (device != 0)
    return result(Runtime::get().setError(cudaErrorInvalidDevice));
  if (!simulee::runtime::deviceAttribute(attr, *value))
    return result(Runtime::get().setError(cudaErrorInvalidValue));
  return cudaSuccess;
}

// Limits are accepted and reported back; the simulation does not need them.
static size_t limits[16];

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  if (size_t(limit) >= 16)
    return result(Runtime::get().setError(cudaErrorInvalidValue));
  limits[limit] = value;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit) {
  if (size_t(limit) >= 16)
    return result(Runtime::get().setError(cudaErrorInvalidValue));
  *pValue = limits[limit];
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int, int) {
  *canAccessPeer = 0; // one device
  return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  *flags = 0;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion) {
  *driverVersion = 12040;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
  *runtimeVersion = 12040;
  return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *) {
  std::memset(attr, 0, sizeof *attr);
  const cudaDeviceProp &device = simulee::runtime::simulatedDevice();
  attr->maxThreadsPerBlock = device.maxThreadsPerBlock;
  attr->numRegs = 32;
  attr->ptxVersion = 80;
  attr->binaryVersion = 80;
  attr->maxDynamicSharedSizeBytes = int(device.sharedMemPerBlock);
  return cudaSuccess;
}

// Occupancy of the simulated device, limited by threads and shared memory
// per multiprocessor and blocks per multiprocessor (registers are not
// modelled).
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int) {
  const cudaDeviceProp &device = simulee::runtime::simulatedDevice();
  if (blockSize <= 0 || blockSize > device.maxThreadsPerBlock) {
    *numBlocks = 0;
    return cudaSuccess;
  }
  int blocks =
      std::min(device.maxBlocksPerMultiProcessor, device.maxThreadsPerMultiProcessor / blockSize);
  if (dynamicSMemSize)
    blocks = std::min<int>(blocks, int(device.sharedMemPerMultiprocessor / dynamicSMemSize));
  *numBlocks = blocks;
  return cudaSuccess;
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
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
  *pStream = reinterpret_cast<cudaStream_t>(new Stream{flags});
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int) {
  return cudaStreamCreateWithFlags(pStream, flags);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  delete reinterpret_cast<Stream *>(stream);
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) { return cudaSuccess; }

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags) {
  *flags = stream ? reinterpret_cast<Stream *>(stream)->flags : 0;
  return cudaSuccess;
}

// Host work queued on a stream runs now: everything before it is complete.
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t fn, void *userData) {
  fn(userData);
  return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int) {
  callback(stream, cudaSuccess, userData);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  if (leastPriority)
    *leastPriority = 0;
  if (greatestPriority)
    *greatestPriority = -5;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event) {
  *event = reinterpret_cast<cudaEvent_t>(new Event{});
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int) {
  return cudaEventCreate(event);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event)
    return result(Runtime::get().setError(cudaErrorInvalidResourceHandle));
  reinterpret_cast<Event *>(event)->recorded = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int) {
  return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete reinterpret_cast<Event *>(event);
  return cudaSuccess;
}

// The host time between the records: the simulation's time, not a GPU's.
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!start || !end)
    return result(Runtime::get().setError(cudaErrorInvalidResourceHandle));
  *ms = std::chrono::duration<float, std::milli>(reinterpret_cast<Event *>(end)->recorded -
                                                 reinterpret_cast<Event *>(start)->recorded)
            .count();
  return cudaSuccess;
}

} // extern "C"
