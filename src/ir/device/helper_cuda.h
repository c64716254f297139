// Resolves #include <helper_cuda.h> (from the CUDA samples) in user code.
#include "simulee_cuda.h"

#ifndef checkCudaErrors
#define checkCudaErrors(call) ((void)(call))
#endif
#ifndef getLastCudaError
#define getLastCudaError(message) ((void)(message))
#endif
