// simulee exec example: an image sharpened in place through a surface object
// over a CUDA array (cudaMallocArray with cudaArraySurfaceLoadStore,
// cudaMemcpy2DToArray, cudaCreateSurfaceObject, cudaMemcpy2DFromArray).
// Each thread subtracts half of its left neighbour from its pixel, reading
// the neighbour from the same surface it writes: thread x reads pixel x-1
// while thread x-1 overwrites it, a data race (lines 18 and 20). Column 1,
// whose left neighbour (column 0) nobody writes, comes out right whatever
// the order; the program checks only that, and the race is the finding.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sharpen(cudaSurfaceObject_t image, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || x >= width || y >= height)
    return;
  float left = surf2Dread<float>(image, (x - 1) * sizeof(float), y);
  float self = surf2Dread<float>(image, x * sizeof(float), y);
  surf2Dwrite(self - 0.5f * left, image, x * sizeof(float), y);
}

int main() {
  const int width = 64, height = 8;
  float image[height][width], result[height][width];
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      image[y][x] = float((x * 3 + y * 5) % 11);

  cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &format, width, height, cudaArraySurfaceLoadStore);
  cudaMemcpy2DToArray(array, 0, 0, image, sizeof image[0], sizeof image[0], height,
                      cudaMemcpyHostToDevice);
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaSurfaceObject_t surface = 0;
  if (cudaCreateSurfaceObject(&surface, &resource) != cudaSuccess) {
    printf("FAILED: cudaCreateSurfaceObject\n");
    return 1;
  }

  sharpen<<<dim3(width / 32, height / 4), dim3(32, 4)>>>(surface, width, height);
  cudaMemcpy2DFromArray(result, sizeof result[0], array, 0, 0, sizeof result[0], height,
                        cudaMemcpyDeviceToHost);
  cudaDestroySurfaceObject(surface);
  cudaFreeArray(array);

  int wrong = 0;
  for (int y = 0; y < height; ++y) {
    wrong += result[y][0] != image[y][0];
    wrong += std::fabs(result[y][1] - (image[y][1] - 0.5f * image[y][0])) > 1e-6f;
  }
  printf(wrong ? "FAILED\n" : "columns 0 and 1: PASSED\n");
  return wrong ? 1 : 0;
}
