// simulee exec example: a histogram whose race shows only with the program's
// own skewed data. Values below kOutlier go to shared per-block bins (value
// modulo kBins) with atomics; the author assumed outliers (values of at least
// kOutlier) are so rare that a plain increment of one global counter would
// do. The program's data has an outlier every 1000 elements, so blocks
// increment `outliers` concurrently: a data race (line 25) that a search over
// small values or indices (`simulee histogram_skewed.cu`) never meets.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kBins = 64;
constexpr int kOutlier = 1 << 20;

__global__ void histogram(const int *values, int n, unsigned *bins, unsigned *outliers) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = values[i];
    if (v < kOutlier)
      atomicAdd(&local[v % kBins], 1u);
    else
      *outliers += 1; // the race: blocks meet here with the program's data
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 8192;
  int *values = new int[n];
  unsigned expected[kBins] = {}, expectedOutliers = 0;
  for (int i = 0; i < n; ++i) {
    // Skewed: most values in a few low bins, an outlier every 1000 elements.
    values[i] = i % 1000 == 999 ? kOutlier + i : (i * i) % 7;
    if (values[i] < kOutlier)
      ++expected[values[i] % kBins];
    else
      ++expectedOutliers;
  }
  int *dValues;
  unsigned *dBins, *dOutliers;
  cudaMalloc(&dValues, n * sizeof(int));
  cudaMalloc(&dBins, kBins * sizeof(unsigned));
  cudaMalloc(&dOutliers, sizeof(unsigned));
  cudaMemcpy(dValues, values, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dBins, 0, kBins * sizeof(unsigned));
  cudaMemset(dOutliers, 0, sizeof(unsigned));
  histogram<<<(n + 255) / 256, 256>>>(dValues, n, dBins, dOutliers);
  unsigned bins[kBins], outliers = 0;
  cudaMemcpy(bins, dBins, sizeof bins, cudaMemcpyDeviceToHost);
  cudaMemcpy(&outliers, dOutliers, sizeof outliers, cudaMemcpyDeviceToHost);
  for (int b = 0; b < kBins; ++b)
    if (bins[b] != expected[b]) {
      printf("FAILED: bin %d has %u, expected %u\n", b, bins[b], expected[b]);
      return 1;
    }
  printf("outliers: %u (expected %u)\n", outliers, expectedOutliers);
  printf("PASSED\n");
  delete[] values;
  return 0;
}
