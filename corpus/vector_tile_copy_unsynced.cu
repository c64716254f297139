// The twin of vector_tile_copy.cu without its barrier: each block copies
// 256 floats of `in` into a shared tile with float4 copies (one 16-byte
// copy per thread of the first 64), and every thread reads the element 32
// places on at once, racing with the other warp's copy of it.

constexpr int kTile = 256;

__global__ void rotate_tile(const float *in, float *out) {
  __shared__ float tile[kTile];
  if (threadIdx.x < kTile / 4)
    reinterpret_cast<float4 *>(tile)[threadIdx.x] =
        reinterpret_cast<const float4 *>(in + blockIdx.x * kTile)[threadIdx.x];
  out[blockIdx.x * kTile + threadIdx.x] = tile[(threadIdx.x + 32) % kTile];
}

int main() {
  const int blocks = 4;
  float *in, *out;
  cudaMalloc(&in, blocks * kTile * sizeof(float));
  cudaMalloc(&out, blocks * kTile * sizeof(float));
  rotate_tile<<<blocks, kTile>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
