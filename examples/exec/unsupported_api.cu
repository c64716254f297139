// simulee exec example: a program using CUDA graphs, which simulee's runtime
// does not provide. `simulee exec` must refuse it with a clear error naming
// the functions (exit status 2), never run it with a silent wrong result.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(int *x) { x[threadIdx.x] = threadIdx.x; }

int main() {
  int *x;
  cudaMalloc(&x, 32 * sizeof(int));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaGraph_t graph;
  cudaGraphExec_t instance;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  touch<<<1, 32, 0, stream>>>(x);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&instance, graph, 0);
  cudaGraphLaunch(instance, stream);
  cudaStreamSynchronize(stream);
  printf("done\n");
  return 0;
}
