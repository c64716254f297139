// Resolves #include <cuda_runtime_api.h> in user code: simulee_cuda.h has it all.
#include "simulee_cuda.h"
