// Scoped atomics and memory orders (issue 20, "Fences and atomics"). Each
// block counts its positive inputs into a counter of its own with
// atomicAdd_block (atomic within the block, which is all that counter needs)
// and into a grid-wide total with atomicAdd. Then a chained scan: block b
// waits until block b - 1 has published its running count, adds its own,
// writes the result and publishes it with a release store of a device-scope
// cuda::atomic_ref; the acquire load that sees the flag orders the previous
// block's write before this block's read. Expected: no finding. With
// memory_order_relaxed on line 36 the read on line 32 would race with the
// write on line 34 of the block before.
#include <cstdio>
#include <cuda/atomic>

constexpr int kBlock = 64;

__global__ void countAndScan(const int *in, int *perBlock, int *total,
                             int *running, int *published, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    atomicAdd_block(&perBlock[blockIdx.x], 1);
    atomicAdd(total, 1);
  }
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  int before = 0;
  if (blockIdx.x > 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> ready(
        published[blockIdx.x - 1]);
    while (ready.load(cuda::memory_order_acquire) == 0) {
    }
    before = running[blockIdx.x - 1];
  }
  running[blockIdx.x] = before + perBlock[blockIdx.x];
  cuda::atomic_ref<int, cuda::thread_scope_device>(published[blockIdx.x])
      .store(1, cuda::memory_order_release);
}

int main() {
  const int n = 1000, blocks = (n + kBlock - 1) / kBlock;
  int *in, *perBlock, *total, *running, *published;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&perBlock, blocks * sizeof(int));
  cudaMallocManaged(&total, sizeof(int));
  cudaMallocManaged(&running, blocks * sizeof(int));
  cudaMallocManaged(&published, blocks * sizeof(int));
  for (int i = 0; i < n; ++i)
    in[i] = i % 3 == 0 ? 1 : -1;
  cudaMemset(perBlock, 0, blocks * sizeof(int));
  cudaMemset(total, 0, sizeof(int));
  cudaMemset(published, 0, blocks * sizeof(int));
  countAndScan<<<blocks, kBlock>>>(in, perBlock, total, running, published, n);
  cudaDeviceSynchronize();
  printf("block 0: %d, block %d: %d\n", perBlock[0], blocks - 1,
         perBlock[blocks - 1]);
  printf("total %d, running count after the last block %d\n", *total,
         running[blocks - 1]);
  bool ok = *total == 334 && running[blocks - 1] == 334;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
