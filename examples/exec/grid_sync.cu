// Grid-wide synchronization (issue 20, "Grid-wide and tile synchronization"):
// a cooperative kernel relaxes an array for several steps, each thread
// reading its neighbours' values of the previous step, with
// this_grid().sync() between the steps (a loop: the barrier is reached once
// per iteration), then sums the array in two phases: every block writes its
// partial sum, the grid syncs, and the grid's first thread adds the partials.
// It is launched with cudaLaunchCooperativeKernel, as many blocks as the
// occupancy query allows at most. Expected: no finding, and the program's
// own check passes; the same kernel launched with <<<...>>> is not
// cooperative, so its grid group is invalid (is_valid() is false), as on a
// GPU.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kBlock = 128;

__global__ void relaxThenSum(int *a, int *b, int *partial, int *total, int n, int steps) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int sums[kBlock];
  int i = int(grid.thread_rank());
  for (int s = 0; s < steps; ++s) {
    if (i < n) {
      int left = a[i > 0 ? i - 1 : i];
      int right = a[i + 1 < n ? i + 1 : i];
      b[i] = (left + 2 * a[i] + right) / 4;
    }
    grid.sync();
    int *t = a;
    a = b;
    b = t;
  }
  sums[threadIdx.x] = i < n ? a[i] : 0;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      sums[threadIdx.x] += sums[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sums[0];
  grid.sync();
  if (grid.thread_rank() == 0) {
    int sum = 0;
    for (unsigned block = 0; block < gridDim.x; ++block)
      sum += partial[block];
    *total = sum;
  }
}

__global__ void isCooperative(int *valid) { *valid = cg::this_grid().is_valid() ? 1 : 0; }

int main() {
  const int n = 2048, steps = 5, blocks = n / kBlock;
  int cooperative = 0, perMultiprocessor = 0, multiprocessors = 0;
  cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, 0);
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perMultiprocessor, relaxThenSum, kBlock, 0);
  if (!cooperative || blocks > perMultiprocessor * multiprocessors) {
    printf("cooperative launch of %d blocks not possible\n", blocks);
    return 1;
  }
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = (i * 37) % 101;
  int *a, *b, *partial, *total;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&partial, blocks * sizeof(int));
  cudaMallocManaged(&total, sizeof(int));
  cudaMemcpy(a, host, sizeof host, cudaMemcpyHostToDevice);
  int nArg = n, stepsArg = steps;
  void *args[] = {&a, &b, &partial, &total, &nArg, &stepsArg};
  cudaError_t status = cudaLaunchCooperativeKernel((void *)relaxThenSum, blocks, kBlock, args);
  cudaDeviceSynchronize();
  printf("cooperative launch: %s\n", cudaGetErrorName(status));

  // The same relaxation on the host.
  int next[n];
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      next[i] = (host[i > 0 ? i - 1 : i] + 2 * host[i] + host[i + 1 < n ? i + 1 : i]) / 4;
    for (int i = 0; i < n; ++i)
      host[i] = next[i];
  }
  int expected = 0;
  for (int i = 0; i < n; ++i)
    expected += host[i];
  printf("total %d, expected %d\n", *total, expected);

  int *valid;
  cudaMallocManaged(&valid, sizeof(int));
  isCooperative<<<1, 1>>>(valid);
  cudaDeviceSynchronize();
  printf("grid group valid in a <<<>>> launch: %d\n", *valid);
  void *validArgs[] = {&valid};
  cudaLaunchCooperativeKernel((void *)isCooperative, 1, 1, validArgs);
  cudaDeviceSynchronize();
  printf("grid group valid in a cooperative launch: %d\n", *valid);
  bool ok = *total == expected;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
