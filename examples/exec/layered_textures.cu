// simulee exec example: CUDA arrays of more than two dimensions, made with
// cudaMalloc3DArray and filled with cudaMemcpy3D: a layered 2-D texture
// (tex2DLayered: each layer its own image, never filtered across), a cube
// map (texCubemap: a direction picks a face and a texel in it) and a 3-D
// array copied in and out again. Each kernel thread checks one texel
// against the value the host put there. Expected: every texel matches, the
// linear filter halfway between two texels gives their mean, and no
// finding.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kWidth = 8, kHeight = 4, kLayers = 3, kFace = 4;

__global__ void readLayers(cudaTextureObject_t layers, int *mismatches, float *between) {
  int x = threadIdx.x, y = threadIdx.y, layer = blockIdx.x;
  float texel = tex2DLayered<float>(layers, x + 0.5f, y + 0.5f, layer);
  if (texel != layer * 100 + y * 10 + x)
    atomicAdd(mismatches, 1);
  if (x == 0 && y == 0 && layer == 1)
    *between = tex2DLayered<float>(layers, 1.0f, 0.5f, layer);
}

// The direction through the centre of texel (x, y) of `face` (+x, -x, +y,
// -y, +z, -z), after the Programming Guide's table of cube map fetches.
__device__ float3 towards(int face, int x, int y) {
  float s = (x + 0.5f) / kFace * 2 - 1, t = (y + 0.5f) / kFace * 2 - 1;
  switch (face) {
  case 0: return make_float3(1, -t, -s);
  case 1: return make_float3(-1, -t, s);
  case 2: return make_float3(s, 1, t);
  case 3: return make_float3(s, -1, -t);
  case 4: return make_float3(s, -t, 1);
  default: return make_float3(-s, -t, -1);
  }
}

__global__ void readCube(cudaTextureObject_t cube, int *mismatches) {
  int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
  float3 d = towards(face, x, y);
  if (texCubemap<float>(cube, d.x, d.y, d.z) != face * 1000 + y * 10 + x)
    atomicAdd(mismatches, 1);
}

cudaTextureObject_t textureOver(cudaArray_t array, cudaTextureFilterMode filter, bool normalized) {
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc sampling = {};
  sampling.filterMode = filter;
  sampling.normalizedCoords = normalized;
  cudaTextureObject_t texture = 0;
  cudaCreateTextureObject(&texture, &resource, &sampling, nullptr);
  return texture;
}

void copyIn(cudaArray_t array, float *host, cudaExtent extent, int rowElements, int rows) {
  cudaMemcpy3DParms copy = {};
  copy.srcPtr = make_cudaPitchedPtr(host, rowElements * sizeof(float), rowElements, rows);
  copy.dstArray = array;
  copy.extent = extent;
  copy.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&copy);
}

int main() {
  cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  int *mismatches;
  float *between;
  cudaMallocManaged(&mismatches, 2 * sizeof(int));
  cudaMallocManaged(&between, sizeof(float));
  mismatches[0] = mismatches[1] = 0;

  static float layered[kLayers][kHeight][kWidth];
  for (int l = 0; l < kLayers; ++l)
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x)
        layered[l][y][x] = l * 100 + y * 10 + x;
  cudaArray_t layerArray;
  cudaExtent layerExtent = make_cudaExtent(kWidth, kHeight, kLayers);
  cudaMalloc3DArray(&layerArray, &format, layerExtent, cudaArrayLayered);
  copyIn(layerArray, &layered[0][0][0], layerExtent, kWidth, kHeight);
  cudaTextureObject_t layers = textureOver(layerArray, cudaFilterModeLinear, false);
  readLayers<<<kLayers, dim3(kWidth, kHeight)>>>(layers, &mismatches[0], between);

  static float faces[6][kFace][kFace];
  for (int f = 0; f < 6; ++f)
    for (int y = 0; y < kFace; ++y)
      for (int x = 0; x < kFace; ++x)
        faces[f][y][x] = f * 1000 + y * 10 + x;
  cudaArray_t cubeArray;
  cudaExtent cubeExtent = make_cudaExtent(kFace, kFace, 6);
  cudaMalloc3DArray(&cubeArray, &format, cubeExtent, cudaArrayCubemap);
  copyIn(cubeArray, &faces[0][0][0], cubeExtent, kFace, kFace);
  cudaTextureObject_t cube = textureOver(cubeArray, cudaFilterModePoint, true);
  readCube<<<6, dim3(kFace, kFace)>>>(cube, &mismatches[1]);
  cudaDeviceSynchronize();

  // A 3-D array: the layered image copied in, a slice copied back out.
  cudaArray_t volume;
  cudaMalloc3DArray(&volume, &format, layerExtent, 0);
  copyIn(volume, &layered[0][0][0], layerExtent, kWidth, kHeight);
  static float slice[kHeight][kWidth];
  cudaMemcpy3DParms out = {};
  out.srcArray = volume;
  out.srcPos = make_cudaPos(0, 0, 2);
  out.dstPtr = make_cudaPitchedPtr(&slice[0][0], kWidth * sizeof(float), kWidth, kHeight);
  out.extent = make_cudaExtent(kWidth, kHeight, 1);
  out.kind = cudaMemcpyDeviceToHost;
  cudaError_t copied = cudaMemcpy3D(&out);
  cudaExtent info;
  unsigned flags;
  cudaArrayGetInfo(nullptr, &info, &flags, cubeArray);
  cudaArray_t notSquare; // a cube map's faces are square: refused as on a GPU
  cudaError_t refused =
      cudaMalloc3DArray(&notSquare, &format, make_cudaExtent(4, 3, 6), cudaArrayCubemap);
  cudaGetLastError();

  printf("layered: %d of %d texels differ, halfway between 100 and 101: %.1f\n", mismatches[0],
         kLayers * kWidth * kHeight, *between);
  printf("cube map: %d of %d texels differ (%zux%zux%zu, flags %u)\n", mismatches[1],
         6 * kFace * kFace, info.width, info.height, info.depth, flags);
  printf("3-D array slice 2: %s, texel (7, 3) = %.0f\n", cudaGetErrorString(copied),
         slice[3][7]);
  printf("a 4x3 cube map: %s\n", cudaGetErrorName(refused));
  bool ok = mismatches[0] == 0 && mismatches[1] == 0 && *between == 100.5f &&
            copied == cudaSuccess && slice[3][7] == 237 && refused == cudaErrorInvalidValue;
  printf("%s\n", ok ? "PASS" : "FAIL");
  cudaDestroyTextureObject(layers);
  cudaDestroyTextureObject(cube);
  cudaFreeArray(layerArray);
  cudaFreeArray(cubeArray);
  cudaFreeArray(volume);
  return ok ? 0 : 1;
}
