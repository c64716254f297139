// The device simulee exec simulates: an A100-like GPU with the limits the
// interpreter enforces (interp/Launch.h), of compute capability 8.0 unless
// `--sm` says otherwise, and the names of CUDA errors.
#pragma once

#include <cuda_runtime_api.h>

namespace simulee::runtime {

const cudaDeviceProp &simulatedDevice();
// The value of `attribute`; false for an attribute simulee does not know.
bool deviceAttribute(cudaDeviceAttr attribute, int &value);

const char *errorName(cudaError_t error);   // "cudaErrorInvalidValue"
const char *errorString(cudaError_t error); // "invalid argument"

} // namespace simulee::runtime
