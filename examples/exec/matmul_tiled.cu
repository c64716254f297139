// simulee exec example: tiled matrix multiply with dim3 launches, shared
// memory tiles and a host check. Clean.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int kTile = 16;

__global__ void matmul(const float *a, const float *b, float *c, int m, int k, int n) {
  __shared__ float tileA[kTile][kTile];
  __shared__ float tileB[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < (k + kTile - 1) / kTile; ++t) {
    int ak = t * kTile + threadIdx.x, bk = t * kTile + threadIdx.y;
    tileA[threadIdx.y][threadIdx.x] = row < m && ak < k ? a[row * k + ak] : 0.0f;
    tileB[threadIdx.y][threadIdx.x] = bk < k && col < n ? b[bk * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < kTile; ++i)
      sum += tileA[threadIdx.y][i] * tileB[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n)
    c[row * n + col] = sum;
}

int main() {
  const int m = 40, k = 24, n = 33;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (int i = 0; i < m * k; ++i)
    a[i] = float(i % 7) - 3;
  for (int i = 0; i < k * n; ++i)
    b[i] = float(i % 5) * 0.5f;
  float *da, *db, *dc;
  cudaMalloc(&da, a.size() * sizeof(float));
  cudaMalloc(&db, b.size() * sizeof(float));
  cudaMalloc(&dc, c.size() * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(kTile, kTile);
  dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  matmul<<<grid, block>>>(da, db, dc, m, k, n);
  cudaDeviceSynchronize();
  cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (int r = 0; r < m; ++r)
    for (int col = 0; col < n; ++col) {
      float expected = 0;
      for (int i = 0; i < k; ++i)
        expected += a[r * k + i] * b[i * n + col];
      if (std::fabs(c[r * n + col] - expected) > 1e-3f) {
        printf("FAILED at (%d,%d): %f != %f\n", r, col, c[r * n + col], expected);
        return 1;
      }
    }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  printf("PASSED\n");
  return 0;
}
