// What clang's CUDA host code calls: module registration (from the module
// constructor it emits) and the `<<<...>>>` launch sequence. The fat binary
// clang embeds is the module descriptor `simulee exec` wrote in its place
// (HostCompile.h): the .cu file whose device code the runtime compiles.
#include "runtime/Runtime.h"

#include <cuda_runtime_api.h>

using simulee::runtime::Module;
using simulee::runtime::PendingLaunch;
using simulee::runtime::Runtime;

namespace {

// clang's __cuda_fatbin_wrapper.
struct FatbinWrapper {
  int magic;
  int version;
  const char *data;
  void *unused;
};

simulee::interp::Dim3 toDim3(const dim3 &d) { return {d.x, d.y, d.z}; }

// The runtime starts when the library is loaded, so that a program with no
// kernel of its own still gets its summary and report.
[[gnu::constructor]] void startRuntime() { Runtime::get(); }

} // namespace

extern "C" {

void **__cudaRegisterFatBinary(void *fatCubin) {
  const auto *wrapper = static_cast<const FatbinWrapper *>(fatCubin);
  Module *module = Runtime::get().registerModule(wrapper ? wrapper->data : nullptr);
  return reinterpret_cast<void **>(module);
}

void __cudaRegisterFatBinaryEnd(void **handle) {
  Runtime::get().moduleRegistered(reinterpret_cast<Module *>(handle));
}

// Modules live until the process ends: the report at exit still needs them.
void __cudaUnregisterFatBinary(void **) {}

void __cudaRegisterFunction(void **handle, const char *hostFun, char *, const char *deviceName, int,
                            uint3 *, uint3 *, dim3 *, dim3 *, int *) {
  Runtime::get().registerFunction(reinterpret_cast<Module *>(handle), hostFun, deviceName);
}

void __cudaRegisterVar(void **handle, char *hostVar, char *, const char *deviceName, int,
                       size_t size, int constant, int) {
  Runtime::get().registerVariable(reinterpret_cast<Module *>(handle), hostVar, deviceName, size,
                                  constant != 0);
}

void __cudaRegisterManagedVar(void **, void **, char *, const char *, int, size_t, int, int) {
  Runtime::get().unsupported("__managed__ variables (__cudaRegisterManagedVar)");
}

void __cudaRegisterTexture(void **, const void *, const void **, const char *, int, int, int) {
  Runtime::get().unsupported("texture references (__cudaRegisterTexture)");
}

void __cudaRegisterSurface(void **, const void *, const void **, const char *, int, int) {
  Runtime::get().unsupported("surface references (__cudaRegisterSurface)");
}

char __cudaInitModule(void **) { return 1; }

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st *stream) {
  Runtime::get().pushConfiguration(PendingLaunch{toDim3(gridDim), toDim3(blockDim), sharedMem,
                                                 __builtin_return_address(0), stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream) {
  PendingLaunch launch;
  if (!Runtime::get().popConfiguration(launch))
    return cudaErrorMissingConfiguration;
  *gridDim = dim3(launch.grid.x, launch.grid.y, launch.grid.z);
  *blockDim = dim3(launch.block.x, launch.block.y, launch.block.z);
  *sharedMem = launch.sharedBytes;
  if (stream)
    *static_cast<cudaStream_t *>(stream) = static_cast<cudaStream_t>(launch.stream);
  // The stub calls cudaLaunchKernel next; it reports the `<<<...>>>` site.
  simulee::runtime::stubCallSite = launch.returnAddress;
  return cudaSuccess;
}

} // extern "C"
