// The CUDA installation clang compiles .cu files against: NVIDIA's own headers
// (runtime, CCCL, cuRAND, fp16/bf16) and libdevice, assembled from NVIDIA's
// PyPI wheels by scripts/setup.sh, or a toolkit the user names with
// --cuda-path. A toolkit elsewhere on the machine is never used unasked.
#pragma once

#include "support/Result.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace simulee::ir {

struct CudaInstallation {
  std::string root; // holds include/ and nvvm/libdevice/
  bool userGiven = false;
};

// The installation to use: `userPath` when set (an error if it is no CUDA
// installation), else $SIMULEE_CUDA_PATH, else an assembled one (what
// scripts/cuda-headers.sh makes): the `cuda` directory next to the binary
// holding this code (the executable, the Python package's module, exec's
// runtime), else the build's, else the checkout's build/cuda. Nothing when
// none is there: .cu files then compile against simulee's stand-in header
// alone.
Result<std::optional<CudaInstallation>> findCudaInstallation(const std::string &userPath);

// The GPU architecture every .cu file is compiled for, device code and host
// code alike, so that both sides agree on __CUDA_ARCH__ and on the tunings
// CUB and Thrust pick from it; simulee exec's cudaFuncGetAttributes reports
// it as the kernels' ptxVersion and binaryVersion, as a GPU running code
// built for it would.
inline constexpr int kDeviceCodeArch = 80;
inline constexpr const char *kDeviceCodeArchFlag = "--cuda-gpu-arch=sm_80";

// The headers force-included after the precompiled wrapper when compiling
// against NVIDIA's headers: surf*read/write (simulee_surfaces.h) and what
// nvcc gives that clang's CUDA support lacks (simulee_nvcc_compat.h: host
// min/max, assert, __managed__). None with simulee's stand-in header.
std::vector<std::string> nvccCompatIncludeArgs(const std::optional<CudaInstallation> &installation);

// The include search of any file of a program built against `installation`
// (a .cu file's or a plain C++ file's): NVIDIA's headers, then simulee's
// own (what NVIDIA's wheels lack: cuda_profiler_api.h, nvToolsExt.h, the
// samples' helper_cuda.h ...), told that NVIDIA's are in use.
std::vector<std::string> nvidiaHeaderSearchArgs(const CudaInstallation &installation,
                                                const std::string &ownIncludeDir);

// clang arguments that choose the headers of a .cu compile: `installation`
// with simulee's own include directory searched after it, or, with no
// installation, simulee's stand-in header alone (no CUDA installation at all).
std::vector<std::string> cudaHeaderArgs(const std::optional<CudaInstallation> &installation,
                                        const std::string &ownIncludeDir);

// Path of libdevice in `installation`, or empty.
std::string libdevicePath(const CudaInstallation &installation);

// Reads the dependency file clang wrote and fails when a header came from a
// CUDA toolkit's include directory other than `installation`'s (a system
// toolkit on the default include path, or one named by CPATH).
Status checkNoForeignCudaHeaders(const std::string &dependencyFile,
                                 const CudaInstallation &installation,
                                 const std::string &ownIncludeDir, const std::string &sourcePath);

// Whether `path` is a CUDA header: in a CUDA toolkit's include directory (any
// installation, found by its cuda_runtime_api.h) or one of clang's CUDA
// wrappers (__clang_cuda_*.h).
bool isCudaHeader(llvm::StringRef path);

// Environment for the clang child process: the parent's, less the variables
// that add include directories behind simulee's back (CPATH and friends).
std::vector<std::string> clangEnvironment();

} // namespace simulee::ir
