#include "runtime/DeviceProperties.h"

#include "interp/Launch.h"
#include "support/SimulatedDevice.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace simulee::runtime {
namespace {

// The compute capability `simulee exec --sm` chose (SIMULEE_EXEC_SM), else 80.
int computeCapability() {
  const char *text = std::getenv("SIMULEE_EXEC_SM");
  int sm = text ? std::atoi(text) : kSimulatedComputeCapability;
  return sm >= 30 && sm <= 120 ? sm : kSimulatedComputeCapability;
}

// What the call-site reader folds (support/SimulatedDevice.h) is what the
// device reports.
static_assert(interp::kWarpSize == 32 && interp::kMaxThreadsPerBlock == 1024 &&
                  interp::kMaxSharedBytesPerBlock == 48 * 1024 &&
                  interp::kMaxSharedBytesPerBlockOptIn == kSimulatedSharedBytesPerBlockOptIn,
              "simulatedDeviceProperty agrees with the interpreter's limits");

cudaDeviceProp makeDevice() {
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  int sm = computeCapability();
  std::snprintf(p.name, sizeof p.name, "simulee simulated GPU (sm_%d)", sm);
  p.totalGlobalMem = size_t(40) << 30;
  p.sharedMemPerBlock = interp::kMaxSharedBytesPerBlock;
  p.regsPerBlock = kSimulatedRegistersPerBlock;
  p.warpSize = int(interp::kWarpSize);
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = int(interp::kMaxThreadsPerBlock);
  p.maxThreadsDim[0] = 1024;
  p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = int(interp::kMaxBlockDimZ);
  p.maxGridSize[0] = int(interp::kMaxGridDimX);
  p.maxGridSize[1] = int(interp::kMaxGridDimYZ);
  p.maxGridSize[2] = int(interp::kMaxGridDimYZ);
  p.clockRate = 1410000;
  p.totalConstMem = 65536;
  p.major = sm / 10;
  p.minor = sm % 10;
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.deviceOverlap = 1;
  p.multiProcessorCount = kSimulatedMultiProcessors;
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.asyncEngineCount = 2;
  p.unifiedAddressing = 1;
  p.memoryClockRate = 1215000;
  p.memoryBusWidth = 5120;
  p.l2CacheSize = 40 << 20;
  p.maxThreadsPerMultiProcessor = kSimulatedMaxThreadsPerMultiProcessor;
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = kSimulatedSharedBytesPerMultiprocessor;
  p.regsPerMultiprocessor = kSimulatedRegistersPerBlock;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = interp::kMaxSharedBytesPerBlockOptIn;
  p.maxBlocksPerMultiProcessor = kSimulatedMaxBlocksPerMultiProcessor;
  p.reservedSharedMemPerBlock = 1024;
  // The rest, as a discrete data-center GPU of that generation reports them
  // (computeMode 0 = cudaComputeModeDefault, integrated 0: a discrete GPU).
  p.computeMode = cudaComputeModeDefault;
  p.integrated = 0;
  p.kernelExecTimeoutEnabled = 0;
  p.ECCEnabled = 0;
  p.tccDriver = 0;
  p.pciBusID = 1;
  p.pciDeviceID = 0;
  p.pciDomainID = 0;
  p.surfaceAlignment = 512;
  p.maxTexture1D = 131072;
  p.maxTexture1DMipmap = 32768;
  p.maxTexture1DLinear = 268435456;
  p.maxTexture2D[0] = 131072;
  p.maxTexture2D[1] = 65536;
  p.maxTexture2DMipmap[0] = 32768;
  p.maxTexture2DMipmap[1] = 32768;
  p.maxTexture2DLinear[0] = 131072;
  p.maxTexture2DLinear[1] = 65000;
  p.maxTexture2DLinear[2] = 2097120;
  p.maxTexture2DGather[0] = 32768;
  p.maxTexture2DGather[1] = 32768;
  p.maxTexture3D[0] = p.maxTexture3D[1] = p.maxTexture3D[2] = 16384;
  p.maxTexture3DAlt[0] = p.maxTexture3DAlt[1] = 8192;
  p.maxTexture3DAlt[2] = 32768;
  p.maxTextureCubemap = 32768;
  p.maxTexture1DLayered[0] = 32768;
  p.maxTexture1DLayered[1] = 2048;
  p.maxTexture2DLayered[0] = p.maxTexture2DLayered[1] = 32768;
  p.maxTexture2DLayered[2] = 2048;
  p.maxTextureCubemapLayered[0] = 32768;
  p.maxTextureCubemapLayered[1] = 2046;
  p.maxSurface1D = 32768;
  p.maxSurface2D[0] = 131072;
  p.maxSurface2D[1] = 65536;
  p.maxSurface3D[0] = p.maxSurface3D[1] = p.maxSurface3D[2] = 16384;
  p.maxSurface1DLayered[0] = 32768;
  p.maxSurface1DLayered[1] = 2048;
  p.maxSurface2DLayered[0] = p.maxSurface2DLayered[1] = 32768;
  p.maxSurface2DLayered[2] = 2048;
  p.maxSurfaceCubemap = 32768;
  p.maxSurfaceCubemapLayered[0] = 32768;
  p.maxSurfaceCubemapLayered[1] = 2046;
  p.isMultiGpuBoard = 0;
  p.multiGpuBoardGroupID = 0;
  p.hostNativeAtomicSupported = 0;
  p.singleToDoublePrecisionPerfRatio = 2;
  p.pageableMemoryAccess = 0;
  p.pageableMemoryAccessUsesHostPageTables = 0;
  p.computePreemptionSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.cooperativeMultiDeviceLaunch = 1;
  p.directManagedMemAccessFromHost = 0;
  p.persistingL2CacheMaxSize = 30 << 20;
  p.accessPolicyMaxWindowSize = 128 << 20;
  p.hostRegisterSupported = 1;
  p.sparseCudaArraySupported = 1;
  p.hostRegisterReadOnlySupported = 1;
  p.timelineSemaphoreInteropSupported = 1;
  p.memoryPoolsSupported = 1;
  p.gpuDirectRDMASupported = 0;
  p.gpuDirectRDMAFlushWritesOptions = 0;
  p.gpuDirectRDMAWritesOrdering = 0;
  p.memoryPoolSupportedHandleTypes = 1; // cudaMemHandleTypePosixFileDescriptor
  p.deferredMappingCudaArraySupported = 0;
  p.ipcEventSupported = 1;
  p.clusterLaunch = sm >= 90 ? 1 : 0;
  p.unifiedFunctionPointers = 0;
  return p;
}

} // namespace

const cudaDeviceProp &simulatedDevice() {
  static const cudaDeviceProp device = makeDevice();
  return device;
}

bool deviceAttribute(cudaDeviceAttr attribute, int &value) {
  const cudaDeviceProp &p = simulatedDevice();
  auto clamp = [](size_t bytes) { return int(bytes > size_t(INT32_MAX) ? INT32_MAX : bytes); };
  switch (attribute) {
  // clang-format off
  case cudaDevAttrMaxThreadsPerBlock: value = p.maxThreadsPerBlock; return true;
  case cudaDevAttrMaxBlockDimX: value = p.maxThreadsDim[0]; return true;
  case cudaDevAttrMaxBlockDimY: value = p.maxThreadsDim[1]; return true;
  case cudaDevAttrMaxBlockDimZ: value = p.maxThreadsDim[2]; return true;
  case cudaDevAttrMaxGridDimX: value = p.maxGridSize[0]; return true;
  case cudaDevAttrMaxGridDimY: value = p.maxGridSize[1]; return true;
  case cudaDevAttrMaxGridDimZ: value = p.maxGridSize[2]; return true;
  case cudaDevAttrMaxSharedMemoryPerBlock: value = clamp(p.sharedMemPerBlock); return true;
  case cudaDevAttrTotalConstantMemory: value = clamp(p.totalConstMem); return true;
  case cudaDevAttrWarpSize: value = p.warpSize; return true;
  case cudaDevAttrMaxPitch: value = clamp(p.memPitch); return true;
  case cudaDevAttrMaxRegistersPerBlock: value = p.regsPerBlock; return true;
  case cudaDevAttrClockRate: value = p.clockRate; return true;
  case cudaDevAttrTextureAlignment: value = clamp(p.textureAlignment); return true;
  case cudaDevAttrGpuOverlap: value = p.deviceOverlap; return true;
  case cudaDevAttrMultiProcessorCount: value = p.multiProcessorCount; return true;
  case cudaDevAttrKernelExecTimeout: value = p.kernelExecTimeoutEnabled; return true;
  case cudaDevAttrIntegrated: value = p.integrated; return true;
  case cudaDevAttrCanMapHostMemory: value = p.canMapHostMemory; return true;
  case cudaDevAttrComputeMode: value = p.computeMode; return true;
  case cudaDevAttrMaxTexture1DWidth: value = p.maxTexture1D; return true;
  case cudaDevAttrMaxTexture2DWidth: value = p.maxTexture2D[0]; return true;
  case cudaDevAttrMaxTexture2DHeight: value = p.maxTexture2D[1]; return true;
  case cudaDevAttrMaxTexture3DWidth: value = p.maxTexture3D[0]; return true;
  case cudaDevAttrMaxTexture3DHeight: value = p.maxTexture3D[1]; return true;
  case cudaDevAttrMaxTexture3DDepth: value = p.maxTexture3D[2]; return true;
  case cudaDevAttrMaxTexture2DLayeredWidth: value = p.maxTexture2DLayered[0]; return true;
  case cudaDevAttrMaxTexture2DLayeredHeight: value = p.maxTexture2DLayered[1]; return true;
  case cudaDevAttrMaxTexture2DLayeredLayers: value = p.maxTexture2DLayered[2]; return true;
  case cudaDevAttrSurfaceAlignment: value = clamp(p.surfaceAlignment); return true;
  case cudaDevAttrConcurrentKernels: value = p.concurrentKernels; return true;
  case cudaDevAttrEccEnabled: value = p.ECCEnabled; return true;
  case cudaDevAttrPciBusId: value = p.pciBusID; return true;
  case cudaDevAttrPciDeviceId: value = p.pciDeviceID; return true;
  case cudaDevAttrTccDriver: value = p.tccDriver; return true;
  case cudaDevAttrMemoryClockRate: value = p.memoryClockRate; return true;
  case cudaDevAttrGlobalMemoryBusWidth: value = p.memoryBusWidth; return true;
  case cudaDevAttrL2CacheSize: value = p.l2CacheSize; return true;
  case cudaDevAttrMaxThreadsPerMultiProcessor: value = p.maxThreadsPerMultiProcessor; return true;
  case cudaDevAttrAsyncEngineCount: value = p.asyncEngineCount; return true;
  case cudaDevAttrUnifiedAddressing: value = p.unifiedAddressing; return true;
  case cudaDevAttrMaxTexture1DLayeredWidth: value = p.maxTexture1DLayered[0]; return true;
  case cudaDevAttrMaxTexture1DLayeredLayers: value = p.maxTexture1DLayered[1]; return true;
  case cudaDevAttrMaxTexture2DGatherWidth: value = p.maxTexture2DGather[0]; return true;
  case cudaDevAttrMaxTexture2DGatherHeight: value = p.maxTexture2DGather[1]; return true;
  case cudaDevAttrMaxTexture3DWidthAlt: value = p.maxTexture3DAlt[0]; return true;
  case cudaDevAttrMaxTexture3DHeightAlt: value = p.maxTexture3DAlt[1]; return true;
  case cudaDevAttrMaxTexture3DDepthAlt: value = p.maxTexture3DAlt[2]; return true;
  case cudaDevAttrPciDomainId: value = p.pciDomainID; return true;
  case cudaDevAttrTexturePitchAlignment: value = clamp(p.texturePitchAlignment); return true;
  case cudaDevAttrMaxTextureCubemapWidth: value = p.maxTextureCubemap; return true;
  case cudaDevAttrMaxTextureCubemapLayeredWidth: value = p.maxTextureCubemapLayered[0]; return true;
  case cudaDevAttrMaxTextureCubemapLayeredLayers: value = p.maxTextureCubemapLayered[1]; return true;
  case cudaDevAttrMaxSurface1DWidth: value = p.maxSurface1D; return true;
  case cudaDevAttrMaxSurface2DWidth: value = p.maxSurface2D[0]; return true;
  case cudaDevAttrMaxSurface2DHeight: value = p.maxSurface2D[1]; return true;
  case cudaDevAttrMaxSurface3DWidth: value = p.maxSurface3D[0]; return true;
  case cudaDevAttrMaxSurface3DHeight: value = p.maxSurface3D[1]; return true;
  case cudaDevAttrMaxSurface3DDepth: value = p.maxSurface3D[2]; return true;
  case cudaDevAttrMaxSurface1DLayeredWidth: value = p.maxSurface1DLayered[0]; return true;
  case cudaDevAttrMaxSurface1DLayeredLayers: value = p.maxSurface1DLayered[1]; return true;
  case cudaDevAttrMaxSurface2DLayeredWidth: value = p.maxSurface2DLayered[0]; return true;
  case cudaDevAttrMaxSurface2DLayeredHeight: value = p.maxSurface2DLayered[1]; return true;
  case cudaDevAttrMaxSurface2DLayeredLayers: value = p.maxSurface2DLayered[2]; return true;
  case cudaDevAttrMaxSurfaceCubemapWidth: value = p.maxSurfaceCubemap; return true;
  case cudaDevAttrMaxSurfaceCubemapLayeredWidth: value = p.maxSurfaceCubemapLayered[0]; return true;
  case cudaDevAttrMaxSurfaceCubemapLayeredLayers: value = p.maxSurfaceCubemapLayered[1]; return true;
  case cudaDevAttrMaxTexture1DLinearWidth: value = p.maxTexture1DLinear; return true;
  case cudaDevAttrMaxTexture2DLinearWidth: value = p.maxTexture2DLinear[0]; return true;
  case cudaDevAttrMaxTexture2DLinearHeight: value = p.maxTexture2DLinear[1]; return true;
  case cudaDevAttrMaxTexture2DLinearPitch: value = p.maxTexture2DLinear[2]; return true;
  case cudaDevAttrMaxTexture2DMipmappedWidth: value = p.maxTexture2DMipmap[0]; return true;
  case cudaDevAttrMaxTexture2DMipmappedHeight: value = p.maxTexture2DMipmap[1]; return true;
  case cudaDevAttrComputeCapabilityMajor: value = p.major; return true;
  case cudaDevAttrComputeCapabilityMinor: value = p.minor; return true;
  case cudaDevAttrMaxTexture1DMipmappedWidth: value = p.maxTexture1DMipmap; return true;
  case cudaDevAttrStreamPrioritiesSupported: value = p.streamPrioritiesSupported; return true;
  case cudaDevAttrGlobalL1CacheSupported: value = p.globalL1CacheSupported; return true;
  case cudaDevAttrLocalL1CacheSupported: value = p.localL1CacheSupported; return true;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: value = clamp(p.sharedMemPerMultiprocessor); return true;
  case cudaDevAttrMaxRegistersPerMultiprocessor: value = p.regsPerMultiprocessor; return true;
  case cudaDevAttrManagedMemory: value = p.managedMemory; return true;
  case cudaDevAttrIsMultiGpuBoard: value = p.isMultiGpuBoard; return true;
  case cudaDevAttrMultiGpuBoardGroupID: value = p.multiGpuBoardGroupID; return true;
  case cudaDevAttrHostNativeAtomicSupported: value = p.hostNativeAtomicSupported; return true;
  case cudaDevAttrSingleToDoublePrecisionPerfRatio: value = p.singleToDoublePrecisionPerfRatio; return true;
  case cudaDevAttrPageableMemoryAccess: value = p.pageableMemoryAccess; return true;
  case cudaDevAttrConcurrentManagedAccess: value = p.concurrentManagedAccess; return true;
  case cudaDevAttrComputePreemptionSupported: value = p.computePreemptionSupported; return true;
  case cudaDevAttrCanUseHostPointerForRegisteredMem: value = p.canUseHostPointerForRegisteredMem; return true;
  case cudaDevAttrCooperativeLaunch: value = p.cooperativeLaunch; return true;
  case cudaDevAttrCooperativeMultiDeviceLaunch: value = p.cooperativeMultiDeviceLaunch; return true;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: value = clamp(p.sharedMemPerBlockOptin); return true;
  case cudaDevAttrCanFlushRemoteWrites: value = 0; return true;
  case cudaDevAttrHostRegisterSupported: value = p.hostRegisterSupported; return true;
  case cudaDevAttrPageableMemoryAccessUsesHostPageTables: value = p.pageableMemoryAccessUsesHostPageTables; return true;
  case cudaDevAttrDirectManagedMemAccessFromHost: value = p.directManagedMemAccessFromHost; return true;
  case cudaDevAttrMaxBlocksPerMultiprocessor: value = p.maxBlocksPerMultiProcessor; return true;
  case cudaDevAttrMaxPersistingL2CacheSize: value = p.persistingL2CacheMaxSize; return true;
  case cudaDevAttrMaxAccessPolicyWindowSize: value = p.accessPolicyMaxWindowSize; return true;
  case cudaDevAttrReservedSharedMemoryPerBlock: value = clamp(p.reservedSharedMemPerBlock); return true;
  case cudaDevAttrSparseCudaArraySupported: value = p.sparseCudaArraySupported; return true;
  case cudaDevAttrHostRegisterReadOnlySupported: value = p.hostRegisterReadOnlySupported; return true;
  case cudaDevAttrTimelineSemaphoreInteropSupported: value = p.timelineSemaphoreInteropSupported; return true;
  case cudaDevAttrMemoryPoolsSupported: value = p.memoryPoolsSupported; return true;
  case cudaDevAttrGPUDirectRDMASupported: value = p.gpuDirectRDMASupported; return true;
  case cudaDevAttrGPUDirectRDMAFlushWritesOptions: value = int(p.gpuDirectRDMAFlushWritesOptions); return true;
  case cudaDevAttrGPUDirectRDMAWritesOrdering: value = p.gpuDirectRDMAWritesOrdering; return true;
  case cudaDevAttrMemoryPoolSupportedHandleTypes: value = int(p.memoryPoolSupportedHandleTypes); return true;
  case cudaDevAttrClusterLaunch: value = p.clusterLaunch; return true;
  case cudaDevAttrDeferredMappingCudaArraySupported: value = p.deferredMappingCudaArraySupported; return true;
  case cudaDevAttrIpcEventSupport: value = p.ipcEventSupported; return true;
  case cudaDevAttrMemSyncDomainCount: value = computeCapability() >= 90 ? 4 : 1; return true;
  case cudaDevAttrNumaConfig: value = 0; return true; // cudaDeviceNumaConfigNone
  case cudaDevAttrNumaId: value = -1; return true;
  case cudaDevAttrMpsEnabled: value = 0; return true;
  case cudaDevAttrHostNumaId: value = -1; return true;
  // clang-format on
  default: // the reserved values, and any the headers do not name
    return false;
  }
}

namespace {

struct ErrorText {
  cudaError_t error;
  const char *name;
  const char *text; // as NVIDIA's runtime words it (cudaGetErrorString)
};

// clang-format off
constexpr ErrorText kErrorTexts[] = {
  {cudaSuccess, "cudaSuccess", "no error"},
  {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
  {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
  {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
  {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
  {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
  {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
  {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
  {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
  {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
  {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
  {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
  {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
  {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
  {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
  {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
  {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
  {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
  {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
  {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
  {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
  {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
  {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
  {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
  {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
  {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began"},
  {cudaErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread", "attempt to terminate a thread-local capture sequence from another thread"},
  {cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
};
// clang-format on

const ErrorText *errorText(cudaError_t error) {
  for (const ErrorText &entry : kErrorTexts)
    if (entry.error == error)
      return &entry;
  return nullptr;
}

} // namespace

const char *errorName(cudaError_t error) {
  const ErrorText *entry = errorText(error);
  return entry ? entry->name : "cudaErrorUnknown";
}

const char *errorString(cudaError_t error) {
  const ErrorText *entry = errorText(error);
  return entry ? entry->text : "unknown error";
}

} // namespace simulee::runtime
