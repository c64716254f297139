// simulee exec example: vector addition with a host-side check. Clean.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 5000; // the element count: `-- N`
  size_t bytes = n * sizeof(float);
  float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    ha[i] = i;
    hb[i] = 2 * i;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice);
  int threads = 256, blocks = (n + threads - 1) / threads;
  vectorAdd<<<blocks, threads>>>(da, db, dc, n);
  if (cudaGetLastError() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (hc[i] != 3.0f * i) {
      printf("FAILED at %d: %f\n", i, hc[i]);
      return 1;
    }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(ha);
  free(hb);
  free(hc);
  printf("%d elements: PASSED\n", n);
  return 0;
}
