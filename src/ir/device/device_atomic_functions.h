// Resolves #include <device_atomic_functions.h> in user code: simulee_cuda.h has it all.
#include "simulee_cuda.h"
