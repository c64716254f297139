// simulee exec example: texture objects of the other kinds simulee's runtime
// provides, each checked against the host. tex1Dfetch over linear memory
// (cudaResourceTypeLinear, int2 texels, element reads); tex2D over a CUDA
// array (cudaMallocArray, cudaMemcpy2DToArray) with normalized coordinates,
// wrap addressing and point sampling, so a sample past the right edge comes
// from the left; and the descriptors read back. The program then launches
// once more with the texture it has destroyed: a host finding at that launch
// (line 88); the kernel's fetches through the dead handle: undefined (l. 15).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void gather(cudaTextureObject_t pairs, const int *index, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int2 pair = tex1Dfetch<int2>(pairs, index[i]);
    out[i] = pair.x * pair.y;
  }
}

__global__ void shifted(cudaTextureObject_t grid, float *out, int width, int height) {
  int x = threadIdx.x, y = blockIdx.x;
  // One texel to the right, in normalized coordinates: wraps at the edge.
  out[y * width + x] = tex2D<float>(grid, (x + 1.5f) / width, (y + 0.5f) / height);
}

int main() {
  const int n = 96, pairsCount = 40, width = 16, height = 6;
  int2 pairs[pairsCount];
  int index[n], products[n];
  for (int p = 0; p < pairsCount; ++p)
    pairs[p] = make_int2(p + 1, 3 - p % 7);
  for (int i = 0; i < n; ++i)
    index[i] = (i * 11) % pairsCount;
  int2 *dPairs;
  int *dIndex, *dOut;
  cudaMalloc(&dPairs, sizeof pairs);
  cudaMalloc(&dIndex, sizeof index);
  cudaMalloc(&dOut, sizeof products);
  cudaMemcpy(dPairs, pairs, sizeof pairs, cudaMemcpyHostToDevice);
  cudaMemcpy(dIndex, index, sizeof index, cudaMemcpyHostToDevice);
  cudaResourceDesc linear = {};
  linear.resType = cudaResourceTypeLinear;
  linear.res.linear.devPtr = dPairs;
  linear.res.linear.desc = cudaCreateChannelDesc<int2>();
  linear.res.linear.sizeInBytes = sizeof pairs;
  cudaTextureDesc elements = {};
  elements.readMode = cudaReadModeElementType;
  cudaTextureObject_t pairTexture = 0;
  cudaCreateTextureObject(&pairTexture, &linear, &elements, nullptr);
  gather<<<(n + 63) / 64, 64>>>(pairTexture, dIndex, dOut, n);
  cudaMemcpy(products, dOut, sizeof products, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += products[i] != pairs[index[i]].x * pairs[index[i]].y;

  float cells[height][width], result[height][width];
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      cells[y][x] = float(y * 100 + x);
  cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &format, width, height);
  cudaMemcpy2DToArray(array, 0, 0, cells, sizeof cells[0], sizeof cells[0], height,
                      cudaMemcpyHostToDevice);
  cudaResourceDesc arrayResource = {};
  arrayResource.resType = cudaResourceTypeArray;
  arrayResource.res.array.array = array;
  cudaTextureDesc wrapped = {};
  wrapped.addressMode[0] = wrapped.addressMode[1] = cudaAddressModeWrap;
  wrapped.filterMode = cudaFilterModePoint;
  wrapped.normalizedCoords = 1;
  cudaTextureObject_t gridTexture = 0;
  cudaCreateTextureObject(&gridTexture, &arrayResource, &wrapped, nullptr);
  float *dGrid;
  cudaMalloc(&dGrid, sizeof result);
  shifted<<<height, width>>>(gridTexture, dGrid, width, height);
  cudaMemcpy(result, dGrid, sizeof result, cudaMemcpyDeviceToHost);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      wrong += result[y][x] != cells[y][(x + 1) % width];

  cudaResourceDesc back = {};
  cudaGetTextureObjectResourceDesc(&back, gridTexture);
  wrong += back.resType != cudaResourceTypeArray || back.res.array.array != array;
  printf("products[5] = %d, grid[2][%d] = %.0f\n", products[5], width - 1, result[2][width - 1]);

  cudaDestroyTextureObject(pairTexture);
  gather<<<1, 32>>>(pairTexture, dIndex, dOut, 32); // the destroyed texture
  cudaDestroyTextureObject(gridTexture);
  cudaFreeArray(array);
  printf(wrong ? "FAILED\n" : "PASSED\n");
  return wrong ? 1 : 0;
}
