// simulee exec example: more of the runtime API a program may use, each
// checked by the program itself. Pitched 2-D and 3-D memory, stream-ordered
// allocation, host functions on a stream, device properties, occupancy,
// pointer attributes and a kernel argument taken from cudaGetSymbolAddress.
// Clean.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int table[32];

__global__ void fillPitched(char *base, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height)
    reinterpret_cast<float *>(base + y * pitch)[x] = float(y * 100 + x);
}

__global__ void writeTable(int *entries) { entries[threadIdx.x] = 7 * threadIdx.x; }

__global__ void sumTable(int *sum) {
  if (threadIdx.x == 0) {
    int total = 0;
    for (int i = 0; i < 32; ++i)
      total += table[i];
    *sum = total;
  }
}

static void CUDART_CB markDone(void *flag) { *static_cast<int *>(flag) = 1; }

#define EXPECT(condition)                                                                          \
  do {                                                                                             \
    if (!(condition)) {                                                                            \
      printf("FAILED: %s (line %d)\n", #condition, __LINE__);                                      \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main() {
  cudaDeviceProp properties;
  EXPECT(cudaGetDeviceProperties(&properties, 0) == cudaSuccess);
  EXPECT(properties.warpSize == 32 && properties.maxThreadsPerBlock == 1024);
  int major = 0, count = 0;
  EXPECT(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess);
  EXPECT(cudaGetDeviceCount(&count) == cudaSuccess && count == 1 && major == 8);
  int minGrid = 0, blockSize = 0;
  EXPECT(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, fillPitched) == cudaSuccess);
  EXPECT(blockSize > 0 && blockSize <= 1024 && minGrid > 0);

  // Pitched 2-D memory.
  const int width = 50, height = 6;
  float *pitched;
  size_t pitch = 0;
  EXPECT(cudaMallocPitch(reinterpret_cast<void **>(&pitched), &pitch, width * sizeof(float),
                         height) == cudaSuccess);
  EXPECT(pitch >= width * sizeof(float));
  fillPitched<<<dim3(1, height), 64>>>(reinterpret_cast<char *>(pitched), pitch, width, height);
  float rows[height][width];
  EXPECT(cudaMemcpy2D(rows, sizeof rows[0], pitched, pitch, width * sizeof(float), height,
                      cudaMemcpyDeviceToHost) == cudaSuccess);
  EXPECT(rows[5][49] == 549.0f && rows[0][0] == 0.0f);

  // Pitched 3-D memory.
  cudaExtent extent = make_cudaExtent(10 * sizeof(int), 4, 3);
  cudaPitchedPtr volume;
  EXPECT(cudaMalloc3D(&volume, extent) == cudaSuccess);
  EXPECT(cudaMemset3D(volume, 0, extent) == cudaSuccess);
  int cube[3][4][10];
  for (int i = 0; i < 120; ++i)
    (&cube[0][0][0])[i] = i;
  cudaMemcpy3DParms toDevice = {};
  toDevice.srcPtr = make_cudaPitchedPtr(cube, 10 * sizeof(int), 10, 4);
  toDevice.dstPtr = volume;
  toDevice.extent = extent;
  toDevice.kind = cudaMemcpyHostToDevice;
  EXPECT(cudaMemcpy3D(&toDevice) == cudaSuccess);
  int back[3][4][10] = {};
  cudaMemcpy3DParms toHost = {};
  toHost.srcPtr = volume;
  toHost.dstPtr = make_cudaPitchedPtr(back, 10 * sizeof(int), 10, 4);
  toHost.extent = extent;
  toHost.kind = cudaMemcpyDeviceToHost;
  EXPECT(cudaMemcpy3D(&toHost) == cudaSuccess);
  EXPECT(back[2][3][9] == 119 && back[1][2][3] == 63);

  // Stream-ordered allocation, a kernel argument from a __device__ symbol,
  // and a host function on the stream.
  cudaStream_t stream;
  EXPECT(cudaStreamCreate(&stream) == cudaSuccess);
  int *sum = nullptr, *entries = nullptr;
  EXPECT(cudaMallocAsync(reinterpret_cast<void **>(&sum), sizeof(int), stream) == cudaSuccess);
  EXPECT(cudaGetSymbolAddress(reinterpret_cast<void **>(&entries), table) == cudaSuccess);
  writeTable<<<1, 32, 0, stream>>>(entries);
  sumTable<<<1, 32, 0, stream>>>(sum);
  int done = 0, total = 0;
  EXPECT(cudaLaunchHostFunc(stream, markDone, &done) == cudaSuccess);
  EXPECT(cudaMemcpyAsync(&total, sum, sizeof total, cudaMemcpyDeviceToHost, stream) ==
         cudaSuccess);
  EXPECT(cudaStreamSynchronize(stream) == cudaSuccess);
  EXPECT(done == 1 && total == 7 * 31 * 32 / 2);
  cudaPointerAttributes attributes;
  EXPECT(cudaPointerGetAttributes(&attributes, sum) == cudaSuccess);
  EXPECT(attributes.type == cudaMemoryTypeDevice);
  // One device: no peer; a copy from device 0 to device 0 is a copy.
  int value = -1;
  EXPECT(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0) ==
         cudaErrorInvalidDevice);
  EXPECT(cudaDeviceEnablePeerAccess(0, 0) == cudaErrorInvalidDevice);
  EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
  int copied = 0;
  int *peer;
  EXPECT(cudaMalloc(&peer, sizeof(int)) == cudaSuccess);
  EXPECT(cudaMemcpyPeer(peer, 0, sum, 0, sizeof(int)) == cudaSuccess);
  EXPECT(cudaMemcpy(&copied, peer, sizeof copied, cudaMemcpyDeviceToHost) == cudaSuccess);
  EXPECT(copied == total && cudaMemcpyPeer(peer, 1, sum, 0, sizeof(int)) == cudaErrorInvalidDevice);
  EXPECT(cudaFree(peer) == cudaSuccess && cudaGetLastError() == cudaErrorInvalidDevice);
  EXPECT(cudaFreeAsync(sum, stream) == cudaSuccess);
  EXPECT(cudaGetLastError() == cudaSuccess);
  printf("PASSED\n");
  return 0;
}
