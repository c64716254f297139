// Resolves #include <helper_cuda.h> (from the CUDA samples) in user code.
#ifdef __SIMULEE_NVIDIA_HEADERS__
#include <cuda_runtime.h>
#else
#include "simulee_cuda.h"
#endif

#ifndef checkCudaErrors
#define checkCudaErrors(call) ((void)(call))
#endif
#ifndef getLastCudaError
#define getLastCudaError(message) ((void)(message))
#endif
