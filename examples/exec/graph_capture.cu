// CUDA graphs (issue 20): work captured from a stream, and a graph built node
// by node, instantiated once and launched several times. Each kernel node
// runs as the equivalent launch would, checked like one, and the copies and
// host nodes in between happen in dependency order. A clone of the built
// graph runs the same work; a captured graph that allocates its scratch
// memory (cudaMallocAsync from the default pool) and frees it runs twice,
// the memory at one address. Expected: no finding, and the values a GPU
// computes.
#include <cstdint>
#include <cstdio>

__global__ void addOne(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

__global__ void scale(int *x, int factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= factor;
}

void CUDART_CB countRun(void *runs) { ++*static_cast<int *>(runs); }

int main() {
  const int n = 1000;
  int *x, host[n];
  cudaMalloc(&x, n * sizeof(int));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

  // Captured: x = 0; x += 1; x *= 3; copied back. Launched twice.
  cudaGraph_t captured;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(stream, &status);
  printf("capturing: %d\n", status == cudaStreamCaptureStatusActive);
  cudaMemsetAsync(x, 0, n * sizeof(int), stream);
  addOne<<<(n + 255) / 256, 256, 0, stream>>>(x, n);
  scale<<<(n + 255) / 256, 256, 0, stream>>>(x, 3, n);
  cudaMemcpyAsync(host, x, sizeof host, cudaMemcpyDeviceToHost, stream);
  printf("end capture: %s\n", cudaGetErrorName(cudaStreamEndCapture(stream, &captured)));
  cudaStreamIsCapturing(stream, &status);
  printf("capturing: %d\n", status == cudaStreamCaptureStatusActive);
  size_t nodes = 0;
  cudaGraphGetNodes(captured, nullptr, &nodes);
  printf("captured nodes: %zu\n", nodes);
  cudaGraphExec_t capturedExec;
  cudaGraphInstantiate(&capturedExec, captured, 0);
  host[5] = -1;
  printf("before launch: host[5] = %d\n", host[5]);
  for (int run = 0; run < 2; ++run) {
    cudaGraphLaunch(capturedExec, stream);
    cudaStreamSynchronize(stream);
    printf("captured run %d: host[5] = %d\n", run, host[5]);
  }

  // Built by hand: addOne, then scale by 2 and a host node, both after it.
  cudaGraph_t built;
  cudaGraphCreate(&built, 0);
  int count = n, factor = 2, runs = 0;
  void *addArgs[] = {&x, &count};
  void *scaleArgs[] = {&x, &factor, &count};
  cudaKernelNodeParams add = {(void *)addOne, dim3((n + 127) / 128), dim3(128), 0, addArgs, nullptr};
  cudaKernelNodeParams mul = {(void *)scale, dim3((n + 127) / 128), dim3(128), 0, scaleArgs, nullptr};
  cudaHostNodeParams hostNode = {countRun, &runs};
  cudaGraphNode_t addNode, mulNode, countNode;
  cudaGraphAddKernelNode(&addNode, built, nullptr, 0, &add);
  cudaGraphAddKernelNode(&mulNode, built, &addNode, 1, &mul);
  cudaGraphAddHostNode(&countNode, built, &addNode, 1, &hostNode);
  factor = 100; // the node copied its arguments when it was added
  cudaGraphExec_t builtExec;
  cudaGraphInstantiate(&builtExec, built, 0);
  for (int run = 0; run < 3; ++run)
    cudaGraphLaunch(builtExec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost);
  printf("built graph: host[5] = %d after %d runs\n", host[5], runs);

  cudaGraph_t clone;
  cudaGraphClone(&clone, built);
  cudaGraphExec_t cloneExec;
  cudaGraphInstantiate(&cloneExec, clone, 0);
  cudaGraphLaunch(cloneExec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost);
  printf("cloned graph: host[5] = %d after %d runs\n", host[5], runs);

  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  uint64_t keep = UINT64_MAX;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  int *scratch = nullptr, scratchOut[n];
  cudaGraph_t scratchGraph;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&scratch, n * sizeof(int), stream);
  cudaMemsetAsync(scratch, 0, n * sizeof(int), stream);
  addOne<<<(n + 255) / 256, 256, 0, stream>>>(scratch, n);
  cudaMemcpyAsync(scratchOut, scratch, sizeof scratchOut, cudaMemcpyDeviceToHost, stream);
  cudaFreeAsync(scratch, stream);
  cudaStreamEndCapture(stream, &scratchGraph);
  cudaGraphExec_t scratchExec;
  cudaGraphInstantiate(&scratchExec, scratchGraph, 0);
  for (int run = 0; run < 2; ++run) {
    scratchOut[7] = -1;
    cudaError_t launched = cudaGraphLaunch(scratchExec, stream);
    cudaStreamSynchronize(stream);
    printf("scratch graph run %d: %s, scratch[7] = %d\n", run, cudaGetErrorName(launched),
           scratchOut[7]);
  }

  bool ok = host[5] == ((((((3 + 1) * 2 + 1) * 2) + 1) * 2 + 1) * 2) && scratchOut[7] == 1;
  cudaGraphExecDestroy(capturedExec);
  cudaGraphExecDestroy(builtExec);
  cudaGraphExecDestroy(cloneExec);
  cudaGraphExecDestroy(scratchExec);
  cudaGraphDestroy(clone);
  cudaGraphDestroy(scratchGraph);
  cudaGraphDestroy(captured);
  cudaGraphDestroy(built);
  cudaStreamDestroy(stream);
  cudaFree(x);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
