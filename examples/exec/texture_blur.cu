// simulee exec example: a 2-D image blurred through a texture object over
// pitched device memory (cudaMallocPitch, cudaMemcpy2D, cudaResourceTypePitch2D)
// with linear filtering and clamped addressing. Each output pixel averages
// four bilinear samples taken half a pixel off its centre, which is a 3x3
// tent filter ([1 2 1] / 4 in each direction) over the clamped image. The
// host computes the same filter and compares: PASSED, and no findings.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void blur(cudaTextureObject_t image, float *out, size_t outPitch, int width,
                     int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  // Texel centres are at +0.5; each sample sits on a texel corner and so
  // averages the four texels around it.
  float u = x + 0.5f, v = y + 0.5f;
  float sum = tex2D<float>(image, u - 0.5f, v - 0.5f) + tex2D<float>(image, u + 0.5f, v - 0.5f) +
              tex2D<float>(image, u - 0.5f, v + 0.5f) + tex2D<float>(image, u + 0.5f, v + 0.5f);
  float *row = reinterpret_cast<float *>(reinterpret_cast<char *>(out) + y * outPitch);
  row[x] = sum / 4;
}

static float pixel(const float *image, int width, int height, int x, int y) {
  x = x < 0 ? 0 : x >= width ? width - 1 : x;
  y = y < 0 ? 0 : y >= height ? height - 1 : y;
  return image[y * width + x];
}

int main() {
  const int width = 45, height = 30; // rows of 180 bytes: padded by the pitch
  float *image = new float[width * height], *result = new float[width * height];
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      image[y * width + x] = float((x * 7 + y * 13) % 17) + (x == 20 && y == 10 ? 100.0f : 0.0f);

  float *dImage, *dOut;
  size_t imagePitch, outPitch;
  cudaMallocPitch(reinterpret_cast<void **>(&dImage), &imagePitch, width * sizeof(float), height);
  cudaMallocPitch(reinterpret_cast<void **>(&dOut), &outPitch, width * sizeof(float), height);
  cudaMemcpy2D(dImage, imagePitch, image, width * sizeof(float), width * sizeof(float), height,
               cudaMemcpyHostToDevice);

  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypePitch2D;
  resource.res.pitch2D.devPtr = dImage;
  resource.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  resource.res.pitch2D.width = width;
  resource.res.pitch2D.height = height;
  resource.res.pitch2D.pitchInBytes = imagePitch;
  cudaTextureDesc sampling = {};
  sampling.addressMode[0] = sampling.addressMode[1] = cudaAddressModeClamp;
  sampling.filterMode = cudaFilterModeLinear;
  sampling.readMode = cudaReadModeElementType;
  cudaTextureObject_t texture = 0;
  if (cudaCreateTextureObject(&texture, &resource, &sampling, nullptr) != cudaSuccess) {
    printf("FAILED: cudaCreateTextureObject\n");
    return 1;
  }
  cudaTextureDesc back = {};
  cudaGetTextureObjectTextureDesc(&back, texture);
  if (back.filterMode != cudaFilterModeLinear) {
    printf("FAILED: cudaGetTextureObjectTextureDesc\n");
    return 1;
  }

  dim3 block(16, 8), grid((width + 15) / 16, (height + 7) / 8);
  blur<<<grid, block>>>(texture, dOut, outPitch, width, height);
  cudaMemcpy2D(result, width * sizeof(float), dOut, outPitch, width * sizeof(float), height,
               cudaMemcpyDeviceToHost);

  int wrong = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float expected = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          expected += (2 - dx * dx) * (2 - dy * dy) * pixel(image, width, height, x + dx, y + dy);
      expected /= 16;
      if (std::fabs(result[y * width + x] - expected) > 1e-3f * (1 + std::fabs(expected))) {
        if (wrong++ < 3)
          printf("pixel (%d,%d): %f, expected %f\n", x, y, result[y * width + x], expected);
      }
    }
  printf("pitch %zu bytes, blurred pixel (20,10): %.4f\n", imagePitch, result[10 * width + 20]);
  cudaDestroyTextureObject(texture);
  cudaFree(dImage);
  cudaFree(dOut);
  delete[] image;
  delete[] result;
  printf(wrong ? "FAILED\n" : "PASSED\n");
  return wrong ? 1 : 0;
}
