// Stream capture (GraphApi.cpp), as the entry points of CudaApi.cpp see it:
// while a stream captures, the work issued on it becomes a node of the
// stream's graph instead of being done, and the calls a capture forbids
// fail as they do on a GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <optional>

namespace simulee::runtime {

// Work issued on a stream, done when called: now, or when its graph runs.
using StreamWork = std::function<cudaError_t()>;

// When `stream` is capturing, `work` is recorded as the next node of its
// graph (of node type `type`) and the call's result is returned; work on
// the legacy stream while a blocking stream captures is refused
// (cudaErrorStreamCaptureImplicit). std::nullopt: do the work now.
std::optional<cudaError_t> captureWork(cudaStream_t stream, cudaGraphNodeType type,
                                       const StreamWork &work);
// The same for a kernel launch: its argument values are copied now.
std::optional<cudaError_t> captureLaunch(cudaStream_t stream, const void *kernel, dim3 grid,
                                         dim3 block, void **args, size_t sharedBytes,
                                         bool cooperative, const void *site);

// The work of a graph's allocation node (the allocation made when the node
// was: live again at its address) and of its free node.
StreamWork allocationNodeWork(void *pointer, const void *site);
StreamWork freeNodeWork(void *pointer, const char *function, const void *site);

// Calls a capture may refuse, with the error a GPU returns; a refusal
// invalidates the captures that caused it (cudaStreamEndCapture then fails).
enum class CaptureSensitiveCall {
  // cudaMalloc: "potentially unsafe" under the calling thread's capture mode
  // (cudaThreadExchangeStreamCaptureMode): cudaErrorStreamCaptureUnsupported.
  Unsafe,
  // cudaMemcpy, cudaMemset: unsafe, and they wait for the legacy stream,
  // which may not wait for a capturing blocking stream
  // (cudaErrorStreamCaptureImplicit).
  LegacyStreamSync,
  // cudaDeviceSynchronize: waits for every stream, capturing ones included
  // (cudaErrorStreamCaptureUnsupported).
  DeviceSync,
};
// cudaSuccess when no capture under way refuses `call`.
cudaError_t checkCaptureAllows(CaptureSensitiveCall call);
// cudaStreamSynchronize / cudaStreamQuery: refused on a capturing stream
// (cudaErrorStreamCaptureUnsupported).
cudaError_t checkNotCapturing(cudaStream_t stream);

// Fork and join across streams: an event recorded on a capturing stream
// marks the nodes captured so far; a stream that waits on it joins the
// capture, its next work depending on them.
void eventRecorded(cudaEvent_t event, cudaStream_t stream);
cudaError_t streamWaitsForEvent(cudaStream_t stream, cudaEvent_t event);

// cudaMemcpy3D between pitched memory and CUDA arrays (CudaApi.cpp), for
// memcpy nodes.
cudaError_t copyPitched(const cudaMemcpy3DParms &params, const char *function, const void *site);

} // namespace simulee::runtime
