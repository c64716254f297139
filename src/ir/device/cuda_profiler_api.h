// Resolves #include <cuda_profiler_api.h>, which NVIDIA's runtime wheel does
// not ship: the profiler calls a program brackets its timed region with. No
// profiler runs under simulee; both calls succeed and do nothing
// (libsimulee_cudart defines them for `simulee exec`).
#pragma once

#ifdef __SIMULEE_NVIDIA_HEADERS__
#include <cuda_runtime_api.h>
#else
#include "simulee_cuda.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
#ifdef __cplusplus
}
#endif
