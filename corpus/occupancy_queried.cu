// Two kernels handed to an occupancy report; the host launches only
// halve_all. pair_sums (each thread adds its right neighbour's element in
// place: a race in any launch of more than one thread) is only measured:
// the report passes it to cudaOccupancyMaxPotentialBlockSize and
// cudaFuncGetAttributes, which never launch it, so no launch the program
// makes reaches it and the search reports it as not launched.
#include <cstdio>

__global__ void halve_all(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= 0.5f;
}

__global__ void pair_sums(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    data[i] += data[i + 1];
}

template <typename Kernel> void report(const char *name, Kernel kernel) {
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, 0, 0);
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, kernel);
  printf("%s: %d threads a block, %d registers\n", name, block, attributes.numRegs);
}

int main() {
  const int n = 4096;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  report("halve_all", halve_all);
  report("pair_sums", pair_sums);
  halve_all<<<n / 256, 256>>>(data, n);
  cudaDeviceSynchronize();
  return 0;
}
