// A device-side assert that fails (issue 20, "Asserts"): the kernel checks
// that every index it is given lies inside the table. The first launch's
// indices do; the second's include one past the end, so a thread's assert
// fails. As on a GPU, the launch itself returns cudaSuccess, the next
// synchronizing call returns cudaErrorAssert, and from then on every call
// fails with it: the context is lost. Expected: one assertion-failed finding
// (line 17) in the 2nd launch, and the program's own output below.
#include <cassert>
#include <cstdio>

constexpr int kTable = 16;

__global__ void gather(const int *table, const int *index, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  assert(index[i] >= 0 && index[i] < kTable);
  out[i] = table[index[i]];
}

int main() {
  const int n = 64;
  int table[kTable], index[n], out[n];
  for (int i = 0; i < kTable; ++i)
    table[i] = 100 + i;
  for (int i = 0; i < n; ++i)
    index[i] = (i * 7) % kTable;
  int *dTable, *dIndex, *dOut;
  cudaMalloc(&dTable, sizeof table);
  cudaMalloc(&dIndex, sizeof index);
  cudaMalloc(&dOut, sizeof out);
  cudaMemcpy(dTable, table, sizeof table, cudaMemcpyHostToDevice);
  cudaMemcpy(dIndex, index, sizeof index, cudaMemcpyHostToDevice);

  gather<<<2, 32>>>(dTable, dIndex, dOut, n);
  printf("first launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  printf("out[3] = %d\n", out[3]);

  index[40] = kTable; // one past the table
  cudaMemcpy(dIndex, index, sizeof index, cudaMemcpyHostToDevice);
  gather<<<2, 32>>>(dTable, dIndex, dOut, n);
  cudaError_t status = cudaDeviceSynchronize();
  printf("synchronize: %s (%s)\n", cudaGetErrorName(status), cudaGetErrorString(status));
  int *more = nullptr;
  printf("cudaMalloc afterwards: %s\n", cudaGetErrorName(cudaMalloc(&more, 64)));
  printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return status == cudaErrorAssert ? 0 : 1;
}
