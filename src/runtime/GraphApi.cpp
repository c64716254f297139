// CUDA graphs in libsimulee_cudart: stream capture, graphs built node by
// node, and their instantiation and launch.
//
// A graph (CUgraph_st) owns its nodes; a node (CUgraphNode_st) is the work
// it does and the nodes it depends on. The work (NodeWork) is a kernel
// launch with a copy of its argument values, or a function that does a
// copy, a set, a host function or a child graph through the same Runtime
// calls as the API call it stands for; an empty node does nothing.
// Instantiating copies the nodes' work in a topological order
// (CUgraphExec_st), so that later changes to the graph do not reach it, as
// on a GPU; cudaGraphLaunch runs that order one node after the other. A
// kernel node is thus simulated and checked exactly as a direct launch of
// the same kernel, arguments and memory. Like the rest of the runtime this
// is synchronous: the one order stands for every order the dependencies
// allow, and two kernel nodes no dependency orders are each checked on
// their own (as launches on two streams are), never against each other.
//
// Capture: while a stream captures, CudaApi.cpp's entry points hand their
// work here (StreamCapture.h) and it becomes a node depending on the
// stream's last nodes, so one stream's work is a chain. An event recorded
// on a capturing stream and waited on by another stream forks the capture
// into it; waiting back on an event of that stream joins it. The calls a
// GPU refuses during capture fail with its error and invalidate the capture
// (cudaStreamEndCapture then returns cudaErrorStreamCaptureInvalidated): a
// synchronize or query of a capturing stream, cudaDeviceSynchronize, the
// "potentially unsafe" cudaMalloc / cudaMemcpy / cudaMemset under the
// thread's capture mode, and work on the legacy stream beside a capturing
// blocking stream.
//
// Reports: a node's work is reported as the call that made it: a captured
// launch at its `<<<...>>>` (or cudaLaunchKernel) line, a captured copy at
// its call, a node added with cudaGraphAdd*Node at that call. Launch
// ordinals count every run of a node.
//
// Graph objects are not synchronised, as CUDA documents for its own; the
// capture state is, since any thread may issue work on any stream.
#include "runtime/Runtime.h"
#include "runtime/StreamCapture.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using simulee::runtime::AllocationKind;
using simulee::runtime::Runtime;
using simulee::runtime::StreamWork;

#define CALLER __builtin_return_address(0)

namespace {

cudaError_t result(int code) { return static_cast<cudaError_t>(code); }
// A refused call: `error`, kept as the last error.
cudaError_t failed(cudaError_t error) { return result(Runtime::get().setError(error)); }
// cudaSuccess, or the error that left the context unusable (CudaApi.cpp).
cudaError_t succeeded() { return result(Runtime::get().stickyError()); }

// A kernel launch kept for later: its argument values copied when it was
// captured or added.
struct KernelLaunch {
  const void *kernel = nullptr;
  dim3 grid, block;
  size_t sharedBytes = 0;
  std::vector<std::vector<uint8_t>> arguments;
  const void *site = nullptr;
  bool cooperative = false; // captured from cudaLaunchCooperativeKernel

  cudaError_t run() const {
    std::vector<void *> pointers;
    for (const std::vector<uint8_t> &argument : arguments)
      pointers.push_back(const_cast<uint8_t *>(argument.data()));
    return result(Runtime::get().launch(kernel, {grid.x, grid.y, grid.z},
                                        {block.x, block.y, block.z}, pointers.data(), sharedBytes,
                                        site, cooperative));
  }
};

// What a node does when its graph runs.
struct NodeWork {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::optional<KernelLaunch> kernel; // a kernel node
  StreamWork action;                  // any other node but an empty one

  cudaError_t run() const {
    if (kernel)
      return kernel->run();
    return action ? action() : cudaSuccess;
  }
};

// Runs an instantiated graph's steps in order. The first error stops it, as
// a failed node leaves a GPU's later nodes undone.
cudaError_t runSteps(const std::vector<NodeWork> &steps) {
  for (const NodeWork &step : steps)
    if (cudaError_t error = step.run())
      return error;
  return succeeded();
}

} // namespace

// The graph handles are opaque types in NVIDIA's headers; these are
// simulee's definitions of them.
struct CUgraphNode_st {
  CUgraph_st *graph = nullptr;
  NodeWork work;
  std::vector<CUgraphNode_st *> dependencies;
  const CUgraphNode_st *original = nullptr; // the node a cudaGraphClone copy was made from
  std::vector<void *> argumentPointers; // cudaGraphKernelNodeGetParams' kernelParams
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes; // in the order they were added
};

struct CUgraphExec_st {
  std::vector<NodeWork> steps;               // the nodes' work, in a topological order
  std::vector<const CUgraphNode_st *> from;  // the graph node of each step
  std::vector<std::vector<size_t>> inputs;   // the steps each step depends on
};

namespace {

cudaGraphNode_t appendNode(cudaGraph_t graph, std::vector<cudaGraphNode_t> dependencies,
                           NodeWork work) {
  auto node = std::make_unique<CUgraphNode_st>();
  node->graph = graph;
  node->work = std::move(work);
  node->dependencies = std::move(dependencies);
  graph->nodes.push_back(std::move(node));
  return graph->nodes.back().get();
}

// The graph's nodes in an order every dependency holds in, the earliest
// added first among those ready; std::nullopt when they form a cycle.
std::optional<std::vector<const CUgraphNode_st *>> topologicalOrder(const CUgraph_st &graph) {
  std::vector<const CUgraphNode_st *> order;
  std::set<const CUgraphNode_st *> done;
  while (order.size() < graph.nodes.size()) {
    bool progressed = false;
    for (const std::unique_ptr<CUgraphNode_st> &node : graph.nodes) {
      bool ready = !done.count(node.get()) &&
                   std::all_of(node->dependencies.begin(), node->dependencies.end(),
                               [&](const CUgraphNode_st *before) { return done.count(before); });
      if (!ready)
        continue;
      order.push_back(node.get());
      done.insert(node.get());
      progressed = true;
    }
    if (!progressed)
      return std::nullopt;
  }
  return order;
}

// The executable form of `graph`: its nodes' work copied in a topological
// order, with the dependencies between steps (for cudaGraphExecUpdate).
std::optional<CUgraphExec_st> instantiate(const CUgraph_st &graph) {
  std::optional<std::vector<const CUgraphNode_st *>> order = topologicalOrder(graph);
  if (!order)
    return std::nullopt;
  CUgraphExec_st exec;
  std::map<const CUgraphNode_st *, size_t> stepOf;
  for (const CUgraphNode_st *node : *order) {
    std::vector<size_t> inputs;
    for (const CUgraphNode_st *before : node->dependencies)
      inputs.push_back(stepOf.at(before));
    std::sort(inputs.begin(), inputs.end());
    stepOf[node] = exec.steps.size();
    exec.steps.push_back(node->work);
    exec.from.push_back(node);
    exec.inputs.push_back(std::move(inputs));
  }
  return exec;
}

// A kernel node's launch from its parameters; `extra`-style arguments are
// not provided.
cudaError_t kernelLaunchOf(const cudaKernelNodeParams *params, const char *function,
                           const void *site, KernelLaunch &launch) {
  if (!params)
    return failed(cudaErrorInvalidValue);
  if (params->extra)
    Runtime::get().unsupported("kernel node arguments in the `extra` format");
  launch = KernelLaunch{params->func, params->gridDim, params->blockDim, params->sharedMemBytes,
                        {}, site};
  return result(Runtime::get().copyArguments(params->func, params->kernelParams, launch.arguments,
                                             function, site));
}

// --- capture state --------------------------------------------------------

// One capture: begun on `origin`, reaching the streams that waited on its
// events.
struct CaptureSequence {
  cudaGraph_t graph = nullptr;
  cudaStream_t origin = nullptr;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  unsigned long long id = 0;
  std::thread::id thread; // the one that began it
  bool invalidated = false;
};

// Where a capturing stream, or an event recorded on one, stands: the nodes
// the stream's next work depends on.
struct CapturePoint {
  std::shared_ptr<CaptureSequence> sequence;
  std::vector<cudaGraphNode_t> tips;
  bool blocking = false; // a stream that synchronises with the legacy stream
};

struct CaptureState {
  std::mutex mutex;
  std::map<cudaStream_t, CapturePoint> streams; // the capturing ones
  std::map<cudaEvent_t, CapturePoint> events;   // recorded on a capturing stream
  unsigned long long nextId = 1;
  // streams.size(), read without the lock: no capture, no cost to the
  // calls that ask.
  std::atomic<size_t> capturing{0};
};

CaptureState &captures() {
  static CaptureState *state = new CaptureState(); // used until exit, as the Runtime
  return *state;
}

// cudaThreadExchangeStreamCaptureMode's setting for this thread.
thread_local cudaStreamCaptureMode threadCaptureMode = cudaStreamCaptureModeGlobal;

bool isLegacyStream(cudaStream_t stream) { return !stream || stream == cudaStreamLegacy; }

// Blocking streams synchronise with the legacy stream (the per-thread
// default stream does too).
bool isBlocking(cudaStream_t stream) {
  unsigned flags = 0;
  if (!isLegacyStream(stream) && stream != cudaStreamPerThread)
    cudaStreamGetFlags(stream, &flags);
  return !(flags & cudaStreamNonBlocking);
}

// CUDA's rule for potentially unsafe calls (cudaThreadExchangeStreamCaptureMode):
// a thread in global mode may not make them beside its own capture or
// another thread's global one, in thread-local mode beside its own, in
// relaxed mode always.
bool forbidsUnsafeCalls(const CaptureSequence &sequence) {
  if (threadCaptureMode == cudaStreamCaptureModeRelaxed)
    return false;
  if (sequence.thread == std::this_thread::get_id())
    return sequence.mode != cudaStreamCaptureModeRelaxed;
  return threadCaptureMode == cudaStreamCaptureModeGlobal &&
         sequence.mode == cudaStreamCaptureModeGlobal;
}

// Invalidates the captures of the streams `refuses` holds for; whether any.
template <typename Predicate>
bool invalidateWhere(CaptureState &state, Predicate refuses) {
  bool any = false;
  for (auto &[stream, point] : state.streams)
    if (refuses(point)) {
      point.sequence->invalidated = true;
      any = true;
    }
  return any;
}

// Work on the legacy stream waits for every blocking stream: beside a
// capturing one, a dependency on captured work, which a GPU refuses.
bool refusesLegacyWork(CaptureState &state) {
  return invalidateWhere(state, [](const CapturePoint &point) { return point.blocking; });
}

// Whether work issued on `stream` is captured (or refused) rather than
// done now.
bool goesToCapture(cudaStream_t stream) {
  CaptureState &state = captures();
  if (state.capturing == 0)
    return false;
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.streams.count(stream))
    return true;
  return isLegacyStream(stream) &&
         std::any_of(state.streams.begin(), state.streams.end(),
                     [](const auto &entry) { return entry.second.blocking; });
}

// Records `work` as the next node of `stream`'s capture.
std::optional<cudaError_t> record(cudaStream_t stream, NodeWork work) {
  CaptureState &state = captures();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.streams.find(stream);
  if (found == state.streams.end()) {
    if (isLegacyStream(stream) && refusesLegacyWork(state))
      return failed(cudaErrorStreamCaptureImplicit);
    return std::nullopt; // the capture ended meanwhile
  }
  CapturePoint &point = found->second;
  if (point.sequence->invalidated)
    return failed(cudaErrorStreamCaptureInvalidated);
  point.tips = {appendNode(point.sequence->graph, point.tips, std::move(work))};
  return cudaSuccess;
}

// The capture ends on every stream it reached.
void endSequence(CaptureState &state, const CaptureSequence *sequence) {
  std::erase_if(state.streams,
                [&](const auto &entry) { return entry.second.sequence.get() == sequence; });
  std::erase_if(state.events,
                [&](const auto &entry) { return entry.second.sequence.get() == sequence; });
  state.capturing = state.streams.size();
}

// Whether the work of every stream the capture forked into was joined back
// into the origin: each of their last nodes precedes the origin's.
bool isJoined(const CaptureState &state, const CaptureSequence *sequence,
              const std::vector<cudaGraphNode_t> &originTips) {
  std::set<cudaGraphNode_t> reached;
  std::vector<cudaGraphNode_t> pending = originTips;
  while (!pending.empty()) {
    cudaGraphNode_t node = pending.back();
    pending.pop_back();
    if (reached.insert(node).second)
      pending.insert(pending.end(), node->dependencies.begin(), node->dependencies.end());
  }
  for (const auto &[stream, point] : state.streams)
    if (point.sequence.get() == sequence)
      for (cudaGraphNode_t tip : point.tips)
        if (!reached.count(tip))
          return false;
  return true;
}

// Adds a node after `dependencies`, which must be nodes of `graph`.
cudaError_t addNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
                    const cudaGraphNode_t *dependencies, size_t count, NodeWork work) {
  if (!pNode || !graph || (count && !dependencies))
    return failed(cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> after(dependencies, dependencies + count);
  for (size_t i = 0; i < after.size(); ++i)
    if (!after[i] || after[i]->graph != graph ||
        std::find(after.begin(), after.begin() + i, after[i]) != after.begin() + i)
      return failed(cudaErrorInvalidValue);
  *pNode = appendNode(graph, std::move(after), std::move(work));
  return succeeded();
}

// Sets `params.height` rows of `params.width` elements of 1, 2 or 4 bytes.
cudaError_t setElements(const cudaMemsetParams &params, const char *function, const void *site) {
  char *row = static_cast<char *>(params.dst);
  for (size_t y = 0; y < params.height; ++y, row += params.pitch) {
    int error;
    if (params.elementSize == 1) {
      error = Runtime::get().fill(row, int(params.value), params.width, function, site);
    } else {
      std::vector<uint8_t> pattern(params.width * params.elementSize);
      for (size_t at = 0; at < pattern.size(); at += params.elementSize)
        std::memcpy(pattern.data() + at, &params.value, params.elementSize); // little-endian
      error = Runtime::get().copy(row, pattern.data(), pattern.size(), function, site);
    }
    if (error)
      return result(error);
  }
  return succeeded();
}

// The nodes for which `keep` holds: all of them into `nodes` (as many as
// *count says, nulls after them), or only their number.
template <typename Keep>
cudaError_t listNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *count, Keep keep) {
  if (!graph || !count)
    return failed(cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> kept;
  for (const std::unique_ptr<CUgraphNode_st> &node : graph->nodes)
    if (keep(*node))
      kept.push_back(node.get());
  if (nodes) {
    for (size_t i = 0; i < *count; ++i)
      nodes[i] = i < kept.size() ? kept[i] : nullptr;
    *count = std::min(*count, kept.size());
  } else {
    *count = kept.size();
  }
  return succeeded();
}

} // namespace

namespace simulee::runtime {

StreamWork allocationNodeWork(void *pointer, const void *site) {
  return [=] { return result(Runtime::get().reviveAllocation(pointer, site)); };
}

StreamWork freeNodeWork(void *pointer, const char *function, const void *site) {
  return [=] {
    return result(Runtime::get().free(pointer, AllocationKind::Device, function, site));
  };
}

std::optional<cudaError_t> captureWork(cudaStream_t stream, cudaGraphNodeType type,
                                       const StreamWork &work) {
  if (!goesToCapture(stream))
    return std::nullopt;
  return record(stream, NodeWork{type, std::nullopt, work});
}

std::optional<cudaError_t> captureLaunch(cudaStream_t stream, const void *kernel, dim3 grid,
                                         dim3 block, void **args, size_t sharedBytes,
                                         bool cooperative, const void *site) {
  if (!goesToCapture(stream))
    return std::nullopt;
  KernelLaunch launch{kernel, grid, block, sharedBytes, {}, site, cooperative};
  if (int error =
          Runtime::get().copyArguments(kernel, args, launch.arguments, "cudaLaunchKernel", site))
    return result(error);
  return record(stream, NodeWork{cudaGraphNodeTypeKernel, std::move(launch), {}});
}

cudaError_t checkCaptureAllows(CaptureSensitiveCall call) {
  CaptureState &state = captures();
  if (state.capturing == 0)
    return cudaSuccess;
  std::lock_guard<std::mutex> lock(state.mutex);
  if (call == CaptureSensitiveCall::DeviceSync) {
    invalidateWhere(state, [](const CapturePoint &) { return true; });
    return failed(cudaErrorStreamCaptureUnsupported);
  }
  if (invalidateWhere(state,
                      [](const CapturePoint &point) { return forbidsUnsafeCalls(*point.sequence); }))
    return failed(cudaErrorStreamCaptureUnsupported);
  if (call == CaptureSensitiveCall::LegacyStreamSync && refusesLegacyWork(state))
    return failed(cudaErrorStreamCaptureImplicit);
  return cudaSuccess;
}

cudaError_t checkNotCapturing(cudaStream_t stream) {
  CaptureState &state = captures();
  if (state.capturing == 0)
    return cudaSuccess;
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.streams.find(stream);
  if (found == state.streams.end())
    return cudaSuccess;
  found->second.sequence->invalidated = true;
  return failed(cudaErrorStreamCaptureUnsupported);
}

void eventRecorded(cudaEvent_t event, cudaStream_t stream) {
  CaptureState &state = captures();
  if (state.capturing == 0)
    return;
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.streams.find(stream);
  if (found == state.streams.end())
    state.events.erase(event); // recorded again outside the capture
  else
    state.events[event] = found->second;
}

cudaError_t streamWaitsForEvent(cudaStream_t stream, cudaEvent_t event) {
  CaptureState &state = captures();
  if (state.capturing == 0)
    return cudaSuccess;
  bool blocking = isBlocking(stream);
  std::lock_guard<std::mutex> lock(state.mutex);
  auto marked = state.events.find(event);
  if (marked == state.events.end())
    return cudaSuccess; // an event of uncaptured work: complete already
  const CapturePoint &mark = marked->second;
  auto waiting = state.streams.find(stream);
  if (waiting == state.streams.end()) {
    if (isLegacyStream(stream)) {
      mark.sequence->invalidated = true;
      return failed(cudaErrorStreamCaptureImplicit);
    }
    // The capture forks into `stream`.
    state.streams[stream] = CapturePoint{mark.sequence, mark.tips, blocking};
    state.capturing = state.streams.size();
    return cudaSuccess;
  }
  CapturePoint &point = waiting->second;
  if (point.sequence != mark.sequence) {
    point.sequence->invalidated = mark.sequence->invalidated = true;
    return failed(cudaErrorStreamCaptureMerge);
  }
  for (cudaGraphNode_t tip : mark.tips)
    if (std::find(point.tips.begin(), point.tips.end(), tip) == point.tips.end())
      point.tips.push_back(tip);
  return cudaSuccess;
}

} // namespace simulee::runtime

extern "C" {

// --- stream capture -------------------------------------------------------

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  if (isLegacyStream(stream))
    return failed(cudaErrorStreamCaptureUnsupported);
  if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
      mode != cudaStreamCaptureModeRelaxed)
    return failed(cudaErrorInvalidValue);
  bool blocking = isBlocking(stream);
  CaptureState &state = captures();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.streams.count(stream))
    return failed(cudaErrorIllegalState);
  auto sequence = std::make_shared<CaptureSequence>();
  sequence->graph = new CUgraph_st();
  sequence->origin = stream;
  sequence->mode = mode;
  sequence->id = state.nextId++;
  sequence->thread = std::this_thread::get_id();
  state.streams[stream] = CapturePoint{std::move(sequence), {}, blocking};
  state.capturing = state.streams.size();
  return succeeded();
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph) {
  if (!pGraph)
    return failed(cudaErrorInvalidValue);
  CaptureState &state = captures();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.streams.find(stream);
  if (found == state.streams.end())
    return failed(cudaErrorIllegalState);
  std::shared_ptr<CaptureSequence> sequence = found->second.sequence;
  if (sequence->origin != stream) {
    sequence->invalidated = true;
    return failed(cudaErrorStreamCaptureUnmatched);
  }
  bool joined = isJoined(state, sequence.get(), found->second.tips);
  endSequence(state, sequence.get());
  if (sequence->invalidated || !joined) {
    delete sequence->graph;
    *pGraph = nullptr;
    return failed(sequence->invalidated ? cudaErrorStreamCaptureInvalidated
                                        : cudaErrorStreamCaptureUnjoined);
  }
  *pGraph = sequence->graph;
  return succeeded();
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus) {
  if (!pCaptureStatus)
    return failed(cudaErrorInvalidValue);
  CaptureState &state = captures();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.streams.find(stream);
  *pCaptureStatus = found == state.streams.end()           ? cudaStreamCaptureStatusNone
                    : found->second.sequence->invalidated ? cudaStreamCaptureStatusInvalidated
                                                          : cudaStreamCaptureStatusActive;
  return succeeded();
}

// cuda_runtime_api.h maps cudaStreamGetCaptureInfo to this name.
cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream,
                                        enum cudaStreamCaptureStatus *captureStatus_out,
                                        unsigned long long *id_out, cudaGraph_t *graph_out,
                                        const cudaGraphNode_t **dependencies_out,
                                        size_t *numDependencies_out) {
  if (!captureStatus_out)
    return failed(cudaErrorInvalidValue);
  CaptureState &state = captures();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.streams.find(stream);
  if (found == state.streams.end()) {
    *captureStatus_out = cudaStreamCaptureStatusNone;
    return succeeded();
  }
  const CapturePoint &point = found->second;
  *captureStatus_out = point.sequence->invalidated ? cudaStreamCaptureStatusInvalidated
                                                   : cudaStreamCaptureStatusActive;
  if (id_out)
    *id_out = point.sequence->id;
  if (graph_out)
    *graph_out = point.sequence->graph;
  if (dependencies_out)
    *dependencies_out = point.tips.data();
  if (numDependencies_out)
    *numDependencies_out = point.tips.size();
  return succeeded();
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
  if (!mode)
    return failed(cudaErrorInvalidValue);
  std::swap(*mode, threadCaptureMode);
  return succeeded();
}

// --- graphs built node by node ---------------------------------------------

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
  if (!pGraph || flags != 0)
    return failed(cudaErrorInvalidValue);
  *pGraph = new CUgraph_st();
  return succeeded();
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  if (!graph)
    return failed(cudaErrorInvalidValue);
  delete graph;
  return succeeded();
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams) {
  KernelLaunch launch;
  if (cudaError_t error = kernelLaunchOf(pNodeParams, "cudaGraphAddKernelNode", CALLER, launch))
    return error;
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 NodeWork{cudaGraphNodeTypeKernel, std::move(launch), {}});
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                         struct cudaKernelNodeParams *pNodeParams) {
  if (!node || !pNodeParams || !node->work.kernel)
    return failed(cudaErrorInvalidValue);
  KernelLaunch &launch = *node->work.kernel;
  node->argumentPointers.clear();
  for (std::vector<uint8_t> &argument : launch.arguments)
    node->argumentPointers.push_back(argument.data());
  *pNodeParams = cudaKernelNodeParams{const_cast<void *>(launch.kernel),
                                      launch.grid,
                                      launch.block,
                                      unsigned(launch.sharedBytes),
                                      node->argumentPointers.data(),
                                      nullptr};
  return succeeded();
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *pNodeParams) {
  if (!node || !node->work.kernel)
    return failed(cudaErrorInvalidValue);
  KernelLaunch launch;
  if (cudaError_t error =
          kernelLaunchOf(pNodeParams, "cudaGraphKernelNodeSetParams", node->work.kernel->site, launch))
    return error;
  node->work.kernel = std::move(launch);
  return succeeded();
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams) {
  if (!pCopyParams)
    return failed(cudaErrorInvalidValue);
  StreamWork copy = [params = *pCopyParams, site = CALLER] {
    return simulee::runtime::copyPitched(params, "cudaGraphAddMemcpyNode", site);
  };
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 NodeWork{cudaGraphNodeTypeMemcpy, std::nullopt, std::move(copy)});
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind) {
  StreamWork copy = [=, site = CALLER] {
    return result(Runtime::get().copy(dst, src, count, "cudaGraphAddMemcpyNode1D", site));
  };
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 NodeWork{cudaGraphNodeTypeMemcpy, std::nullopt, std::move(copy)});
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams) {
  if (!pMemsetParams || (pMemsetParams->elementSize != 1 && pMemsetParams->elementSize != 2 &&
                         pMemsetParams->elementSize != 4))
    return failed(cudaErrorInvalidValue);
  StreamWork set = [params = *pMemsetParams, site = CALLER] {
    return setElements(params, "cudaGraphAddMemsetNode", site);
  };
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 NodeWork{cudaGraphNodeTypeMemset, std::nullopt, std::move(set)});
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams) {
  if (!pNodeParams || !pNodeParams->fn)
    return failed(cudaErrorInvalidValue);
  StreamWork call = [fn = pNodeParams->fn, userData = pNodeParams->userData] {
    fn(userData);
    return cudaSuccess;
  };
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 NodeWork{cudaGraphNodeTypeHost, std::nullopt, std::move(call)});
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies) {
  return addNode(pGraphNode, graph, pDependencies, numDependencies, NodeWork{});
}

// A graph's allocation has its address when the node is made, as on a GPU;
// each run of the node makes it live again there (after a free node, or a
// cudaFree outside the graph, freed it), its bytes unwritten.
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *nodeParams) {
  if (!nodeParams)
    return failed(cudaErrorInvalidValue);
  if (int error = Runtime::get().allocate(&nodeParams->dptr, nodeParams->bytesize,
                                          AllocationKind::Device, CALLER))
    return result(error);
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 NodeWork{cudaGraphNodeTypeMemAlloc, std::nullopt,
                          simulee::runtime::allocationNodeWork(nodeParams->dptr, CALLER)});
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                    void *dptr) {
  if (!dptr)
    return failed(cudaErrorInvalidValue);
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 NodeWork{cudaGraphNodeTypeMemFree, std::nullopt,
                          simulee::runtime::freeNodeWork(dptr, "cudaGraphAddMemFreeNode", CALLER)});
}

cudaError_t cudaDeviceGraphMemTrim(int device) {
  return device == 0 ? succeeded() : failed(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType, void *value) {
  if (device != 0 || !value)
    return failed(device != 0 ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
  *static_cast<uint64_t *>(value) = 0;
  return succeeded();
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType, void *value) {
  if (device != 0 || !value)
    return failed(device != 0 ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
  return succeeded();
}

// A copy of the graph, node for node, with the same dependencies; each
// clone node remembers the node it copies (cudaGraphNodeFindInClone).
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph) {
  if (!pGraphClone || !originalGraph)
    return failed(cudaErrorInvalidValue);
  auto clone = std::make_unique<CUgraph_st>();
  std::map<const CUgraphNode_st *, CUgraphNode_st *> copyOf;
  for (const std::unique_ptr<CUgraphNode_st> &node : originalGraph->nodes) {
    auto copy = std::make_unique<CUgraphNode_st>();
    copy->graph = clone.get();
    copy->work = node->work;
    copy->original = node.get();
    copyOf[node.get()] = copy.get();
    clone->nodes.push_back(std::move(copy));
  }
  for (const std::unique_ptr<CUgraphNode_st> &node : clone->nodes)
    for (const CUgraphNode_st *before : node->original->dependencies)
      node->dependencies.push_back(copyOf.at(before));
  *pGraphClone = clone.release();
  return succeeded();
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                     cudaGraph_t clonedGraph) {
  if (!pNode || !originalNode || !clonedGraph)
    return failed(cudaErrorInvalidValue);
  for (const std::unique_ptr<CUgraphNode_st> &node : clonedGraph->nodes)
    if (node->original == originalNode) {
      *pNode = node.get();
      return succeeded();
    }
  return failed(cudaErrorInvalidValue);
}

// The child graph as it is now, run whole when the node runs.
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       size_t numDependencies, cudaGraph_t childGraph) {
  if (!childGraph || childGraph == graph)
    return failed(cudaErrorInvalidValue);
  std::optional<CUgraphExec_st> child = instantiate(*childGraph);
  if (!child)
    return failed(cudaErrorInvalidValue);
  StreamWork run = [steps = std::move(child->steps)] { return runSteps(steps); };
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 NodeWork{cudaGraphNodeTypeGraph, std::nullopt, std::move(run)});
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, size_t numDependencies) {
  if (!graph || (numDependencies && (!from || !to)))
    return failed(cudaErrorInvalidValue);
  for (size_t i = 0; i < numDependencies; ++i) {
    if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph ||
        from[i] == to[i])
      return failed(cudaErrorInvalidValue);
    std::vector<cudaGraphNode_t> &inputs = to[i]->dependencies;
    if (std::find(inputs.begin(), inputs.end(), from[i]) != inputs.end())
      return failed(cudaErrorInvalidValue); // the edge exists
  }
  for (size_t i = 0; i < numDependencies; ++i)
    to[i]->dependencies.push_back(from[i]);
  return succeeded();
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType) {
  if (!node || !pType)
    return failed(cudaErrorInvalidValue);
  *pType = node->work.type;
  return succeeded();
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  return listNodes(graph, nodes, numNodes, [](const CUgraphNode_st &) { return true; });
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes) {
  return listNodes(graph, pRootNodes, pNumRootNodes,
                   [](const CUgraphNode_st &node) { return node.dependencies.empty(); });
}

// --- executable graphs -----------------------------------------------------

// Every flag is accepted: uploads and auto-free change nothing in a
// synchronous runtime.
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                 unsigned long long) {
  if (!pGraphExec || !graph)
    return failed(cudaErrorInvalidValue);
  std::optional<CUgraphExec_st> exec = instantiate(*graph);
  if (!exec)
    return failed(cudaErrorInvalidValue); // a cycle
  *pGraphExec = new CUgraphExec_st(std::move(*exec));
  return succeeded();
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags) {
  return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *instantiateParams) {
  if (!instantiateParams)
    return failed(cudaErrorInvalidValue);
  cudaError_t error = cudaGraphInstantiate(pGraphExec, graph, instantiateParams->flags);
  instantiateParams->errNode_out = nullptr;
  instantiateParams->result_out =
      error == cudaSuccess ? cudaGraphInstantiateSuccess : cudaGraphInstantiateInvalidStructure;
  return error;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  if (!graphExec)
    return failed(cudaErrorInvalidValue);
  delete graphExec;
  return succeeded();
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t) {
  return graphExec ? succeeded() : failed(cudaErrorInvalidValue);
}

// Runs the graph's nodes now; on a capturing stream the graph becomes a
// child graph node of the capture.
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (!graphExec)
    return failed(cudaErrorInvalidValue);
  if (goesToCapture(stream)) {
    StreamWork run = [steps = graphExec->steps] { return runSteps(steps); };
    if (std::optional<cudaError_t> captured =
            simulee::runtime::captureWork(stream, cudaGraphNodeTypeGraph, run))
      return *captured;
  }
  return runSteps(graphExec->steps);
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams) {
  if (!hGraphExec || !node)
    return failed(cudaErrorInvalidValue);
  auto at = std::find(hGraphExec->from.begin(), hGraphExec->from.end(), node);
  if (at == hGraphExec->from.end())
    return failed(cudaErrorInvalidValue);
  NodeWork &step = hGraphExec->steps[at - hGraphExec->from.begin()];
  if (!step.kernel)
    return failed(cudaErrorInvalidValue);
  KernelLaunch launch;
  if (cudaError_t error =
          kernelLaunchOf(pNodeParams, "cudaGraphExecKernelNodeSetParams", step.kernel->site, launch))
    return error;
  step.kernel = std::move(launch);
  return succeeded();
}

// The executable graph takes `hGraph`'s nodes' work when both have as many
// nodes, of the same types, with the same dependencies (paired in their
// topological orders).
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo) {
  if (!hGraphExec || !hGraph)
    return failed(cudaErrorInvalidValue);
  auto answer = [&](cudaGraphExecUpdateResult outcome, cudaGraphNode_t node) {
    if (resultInfo)
      *resultInfo = cudaGraphExecUpdateResultInfo{outcome, node, nullptr};
    return outcome == cudaGraphExecUpdateSuccess ? succeeded()
                                                 : failed(cudaErrorGraphExecUpdateFailure);
  };
  std::optional<CUgraphExec_st> updated = instantiate(*hGraph);
  if (!updated || updated->steps.size() != hGraphExec->steps.size())
    return answer(cudaGraphExecUpdateErrorTopologyChanged, nullptr);
  for (size_t i = 0; i < updated->steps.size(); ++i) {
    auto *node = const_cast<cudaGraphNode_t>(updated->from[i]);
    if (updated->steps[i].type != hGraphExec->steps[i].type)
      return answer(cudaGraphExecUpdateErrorNodeTypeChanged, node);
    if (updated->inputs[i] != hGraphExec->inputs[i])
      return answer(cudaGraphExecUpdateErrorTopologyChanged, node);
  }
  // The executable graph's nodes stay known by the nodes it was
  // instantiated from (cudaGraphExecKernelNodeSetParams).
  hGraphExec->steps = std::move(updated->steps);
  return answer(cudaGraphExecUpdateSuccess, nullptr);
}

} // extern "C"
