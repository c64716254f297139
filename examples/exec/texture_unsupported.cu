// simulee exec example: a texture simulee's runtime cannot model. The
// program asks for sRGB-to-linear conversion of uchar4 texels
// (cudaTextureDesc::sRGB), which the simulated texture unit does not do:
// cudaCreateTextureObject stops the program with an error naming the call
// and the feature (exit status 2) rather than sample without it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shade(cudaTextureObject_t image, float4 *out, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < width)
    out[x] = tex2D<float4>(image, x + 0.5f, 0.5f);
}

int main() {
  const int width = 32, height = 4;
  uchar4 *dImage;
  float4 *dOut;
  size_t pitch;
  cudaMallocPitch(reinterpret_cast<void **>(&dImage), &pitch, width * sizeof(uchar4), height);
  cudaMalloc(&dOut, width * sizeof(float4));
  cudaMemset2D(dImage, pitch, 0x80, width * sizeof(uchar4), height);

  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypePitch2D;
  resource.res.pitch2D.devPtr = dImage;
  resource.res.pitch2D.desc = cudaCreateChannelDesc<uchar4>();
  resource.res.pitch2D.width = width;
  resource.res.pitch2D.height = height;
  resource.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc sampling = {};
  sampling.addressMode[0] = sampling.addressMode[1] = cudaAddressModeClamp;
  sampling.filterMode = cudaFilterModeLinear;
  sampling.readMode = cudaReadModeNormalizedFloat;
  sampling.sRGB = 1;
  cudaTextureObject_t texture = 0;
  cudaCreateTextureObject(&texture, &resource, &sampling, nullptr);
  shade<<<1, width>>>(texture, dOut, width);
  cudaDeviceSynchronize();
  printf("unreachable under simulee\n");
  return 0;
}
