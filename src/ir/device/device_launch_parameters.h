// Resolves #include <device_launch_parameters.h> in user code: simulee_cuda.h has it all.
#include "simulee_cuda.h"
