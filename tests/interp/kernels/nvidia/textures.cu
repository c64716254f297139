// Texture and surface kernels for TextureKernelTest.cpp.
#include <cuda_runtime.h>

// One tex2D<float> sample per thread at (u[i], v[i]).
__global__ void sample2D(cudaTextureObject_t tex, const float *u, const float *v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex2D<float>(tex, u[i], v[i]);
}

// All four channels of a tex2D<float4> sample (uchar4 texels read as floats).
__global__ void sample2DChannels(cudaTextureObject_t tex, const float *u, const float *v,
                                 float4 *out) {
  int i = threadIdx.x;
  out[i] = tex2D<float4>(tex, u[i], v[i]);
}

// tex1Dfetch<int> around the texture's ends (zero outside), tex1D and tex3D.
__global__ void fetchAndSample(cudaTextureObject_t ints, cudaTextureObject_t line,
                               cudaTextureObject_t volume, int *fetched, float *sampled,
                               float *sampled3D) {
  int i = threadIdx.x;
  fetched[i] = tex1Dfetch<int>(ints, i - 2);
  sampled[i] = tex1D<float>(line, 0.25f * i);
  sampled3D[i] = tex3D<float>(volume, 0.5f + i % 2, 0.5f + (i / 2) % 2, 0.5f + i / 4);
}

// Each thread writes its pixel, reads it back, and reads its right
// neighbour's input pixel (clamped at the right edge).
__global__ void surfaceRoundTrip(cudaSurfaceObject_t in, cudaSurfaceObject_t out, float *back,
                                 float *neighbour, int width) {
  int x = threadIdx.x, y = blockIdx.x;
  float value = surf2Dread<float>(in, x * 4, y);
  surf2Dwrite(value * 2.0f + 1.0f, out, x * 4, y);
  back[y * width + x] = surf2Dread<float>(out, x * 4, y);
  neighbour[y * width + x] = surf2Dread<float>(in, (x + 1) * 4, y, cudaBoundaryModeClamp);
}

// Layered and cube map fetches, and a layered surface: layer[i] samples
// texel i % 2 of layer i / 2 - 1 of a 1-D layered texture (out-of-range
// layers clamp); faces[f] looks along axis f (+x, -x, +y, -y, +z, -z) of a
// cube map; each thread writes its value + 1 into layer i / 2 of a 2-D
// layered surface and reads it back.
__global__ void layeredAndCube(cudaTextureObject_t layers, cudaTextureObject_t cube,
                               cudaSurfaceObject_t slices, float *layer, float *faces,
                               float *back) {
  int i = threadIdx.x;
  layer[i] = tex1DLayered<float>(layers, 0.5f + i % 2, i / 2 - 1);
  if (i < 6) {
    float d[3] = {0, 0, 0};
    d[i / 2] = i % 2 ? -1.0f : 1.0f;
    faces[i] = texCubemap<float>(cube, d[0], d[1], d[2]);
  }
  if (i < 8) {
    surf2DLayeredwrite(float(i) + 1.0f, slices, (i % 2) * 4, 0, i / 2);
    back[i] = surf2DLayeredread<float>(slices, (i % 2) * 4, 0, i / 2);
  }
}
