// Resolves #include <builtin_types.h> in user code: simulee_cuda.h has it all.
#include "simulee_cuda.h"
