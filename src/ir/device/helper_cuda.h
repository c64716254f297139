// Resolves #include <helper_cuda.h> (the CUDA samples' helper) in code built
// without the samples' Common directory (which, when given with -I, comes
// first): its error checks and device choice, in simulee's words. A failed
// call prints where and why and exits, as the samples' helper does, so that
// a program under `simulee exec` stops where it would on a GPU.
#pragma once

#ifdef __SIMULEE_NVIDIA_HEADERS__
#include <cuda_runtime.h>
#else
#include "simulee_cuda.h"
#endif
#include <stdio.h>
#include <stdlib.h>

// A runtime call's error, by name.
static inline void __simulee_check_cuda(cudaError_t result, const char *call, const char *file,
                                        int line) {
  if (result == cudaSuccess)
    return;
  fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line, (int)result,
          cudaGetErrorName(result), call);
  exit(EXIT_FAILURE);
}

// Another library's status (a driver CUresult, a cuBLAS status): its number.
template <class Status>
static inline void __simulee_check_cuda(Status result, const char *call, const char *file,
                                        int line) {
  if (!result)
    return;
  fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\" \n", file, line, (int)result, call);
  exit(EXIT_FAILURE);
}

static inline void __simulee_last_cuda_error(const char *message, const char *file, int line) {
  cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess)
    return;
  fprintf(stderr, "%s(%i) : getLastCudaError() CUDA error : %s : (%d) %s.\n", file, line, message,
          (int)error, cudaGetErrorString(error));
  exit(EXIT_FAILURE);
}

#ifndef checkCudaErrors
#define checkCudaErrors(call) __simulee_check_cuda((call), #call, __FILE__, __LINE__)
#endif
#ifndef getLastCudaError
#define getLastCudaError(message) __simulee_last_cuda_error((message), __FILE__, __LINE__)
#endif

// The device the program runs on: the one simulee simulates (device 0),
// announced as the samples' helper announces its choice.
static inline int findCudaDevice(int, const char **) {
  checkCudaErrors(cudaSetDevice(0));
  struct cudaDeviceProp properties;
  checkCudaErrors(cudaGetDeviceProperties(&properties, 0));
  printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", 0, properties.name,
         properties.major, properties.minor);
  return 0;
}
