#include "runtime/DeviceProperties.h"

#include "interp/Launch.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace simulee::runtime {
namespace {

// The compute capability `simulee exec --sm` chose (SIMULEE_EXEC_SM), else 80.
int computeCapability() {
  const char *text = std::getenv("SIMULEE_EXEC_SM");
  int sm = text ? std::atoi(text) : 80;
  return sm >= 30 && sm <= 120 ? sm : 80;
}

cudaDeviceProp makeDevice() {
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  int sm = computeCapability();
  std::snprintf(p.name, sizeof p.name, "simulee simulated GPU (sm_%d)", sm);
  p.totalGlobalMem = size_t(40) << 30;
  p.sharedMemPerBlock = interp::kMaxSharedBytesPerBlock;
  p.regsPerBlock = 65536;
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
  p.multiProcessorCount = 108;
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.asyncEngineCount = 2;
  p.unifiedAddressing = 1;
  p.memoryClockRate = 1215000;
  p.memoryBusWidth = 5120;
  p.l2CacheSize = 40 << 20;
  p.maxThreadsPerMultiProcessor = 2048;
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = 167936;
  p.regsPerMultiprocessor = 65536;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = interp::kMaxSharedBytesPerBlock;
  p.maxBlocksPerMultiProcessor = 32;
  p.reservedSharedMemPerBlock = 1024;
  return p;
}

} // namespace

const cudaDeviceProp &simulatedDevice() {
  static const cudaDeviceProp device = makeDevice();
  return device;
}

bool deviceAttribute(cudaDeviceAttr attribute, int &value) {
  const cudaDeviceProp &p = simulatedDevice();
  switch (attribute) {
  case cudaDevAttrMaxThreadsPerBlock:
    value = p.maxThreadsPerBlock;
    return true;
  case cudaDevAttrMaxBlockDimX:
    value = p.maxThreadsDim[0];
    return true;
  case cudaDevAttrMaxBlockDimY:
    value = p.maxThreadsDim[1];
    return true;
  case cudaDevAttrMaxBlockDimZ:
    value = p.maxThreadsDim[2];
    return true;
  case cudaDevAttrMaxGridDimX:
    value = p.maxGridSize[0];
    return true;
  case cudaDevAttrMaxGridDimY:
    value = p.maxGridSize[1];
    return true;
  case cudaDevAttrMaxGridDimZ:
    value = p.maxGridSize[2];
    return true;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    value = int(p.sharedMemPerBlock);
    return true;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    value = int(p.sharedMemPerBlockOptin);
    return true;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    value = int(p.sharedMemPerMultiprocessor);
    return true;
  case cudaDevAttrTotalConstantMemory:
    value = int(p.totalConstMem);
    return true;
  case cudaDevAttrWarpSize:
    value = p.warpSize;
    return true;
  case cudaDevAttrMaxRegistersPerBlock:
    value = p.regsPerBlock;
    return true;
  case cudaDevAttrClockRate:
    value = p.clockRate;
    return true;
  case cudaDevAttrMultiProcessorCount:
    value = p.multiProcessorCount;
    return true;
  case cudaDevAttrComputeCapabilityMajor:
    value = p.major;
    return true;
  case cudaDevAttrComputeCapabilityMinor:
    value = p.minor;
    return true;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    value = p.maxThreadsPerMultiProcessor;
    return true;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    value = p.maxBlocksPerMultiProcessor;
    return true;
  case cudaDevAttrConcurrentKernels:
    value = p.concurrentKernels;
    return true;
  case cudaDevAttrUnifiedAddressing:
    value = p.unifiedAddressing;
    return true;
  case cudaDevAttrManagedMemory:
    value = p.managedMemory;
    return true;
  case cudaDevAttrCooperativeLaunch:
    value = p.cooperativeLaunch;
    return true;
  case cudaDevAttrL2CacheSize:
    value = p.l2CacheSize;
    return true;
  case cudaDevAttrMemoryClockRate:
    value = p.memoryClockRate;
    return true;
  case cudaDevAttrGlobalMemoryBusWidth:
    value = p.memoryBusWidth;
    return true;
  case cudaDevAttrCanMapHostMemory:
    value = p.canMapHostMemory;
    return true;
  case cudaDevAttrConcurrentManagedAccess:
    value = p.concurrentManagedAccess;
    return true;
  case cudaDevAttrAsyncEngineCount:
    value = p.asyncEngineCount;
    return true;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    value = p.regsPerMultiprocessor;
    return true;
  default:
    return false;
  }
}

const char *errorName(cudaError_t error) {
  switch (error) {
  case cudaSuccess:
    return "cudaSuccess";
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidPitchValue:
    return "cudaErrorInvalidPitchValue";
  case cudaErrorInvalidSymbol:
    return "cudaErrorInvalidSymbol";
  case cudaErrorInvalidDevicePointer:
    return "cudaErrorInvalidDevicePointer";
  case cudaErrorMissingConfiguration:
    return "cudaErrorMissingConfiguration";
  case cudaErrorInvalidDevice:
    return "cudaErrorInvalidDevice";
  case cudaErrorInvalidDeviceFunction:
    return "cudaErrorInvalidDeviceFunction";
  case cudaErrorInvalidResourceHandle:
    return "cudaErrorInvalidResourceHandle";
  case cudaErrorLaunchOutOfResources:
    return "cudaErrorLaunchOutOfResources";
  default:
    return "cudaErrorUnknown";
  }
}

const char *errorString(cudaError_t error) {
  switch (error) {
  case cudaSuccess:
    return "no error";
  case cudaErrorInvalidValue:
    return "invalid argument";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  case cudaErrorInvalidPitchValue:
    return "invalid pitch argument";
  case cudaErrorInvalidSymbol:
    return "invalid device symbol";
  case cudaErrorInvalidDevicePointer:
    return "invalid device pointer";
  case cudaErrorMissingConfiguration:
    return "__global__ function call is not configured";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal";
  case cudaErrorInvalidDeviceFunction:
    return "invalid device function";
  case cudaErrorInvalidResourceHandle:
    return "invalid resource handle";
  case cudaErrorLaunchOutOfResources:
    return "too many resources requested for launch";
  default:
    return "unknown error";
  }
}

} // namespace simulee::runtime
