// Scoped atomics and memory orders. block_counts counts into a counter per
// block with atomicAdd_block and into one total with atomicAdd: race-free.
// block_scoped_total counts every block into one total with
// atomicAdd_block, which is atomic only within a block: the blocks race on
// it (line 23). publish_release: block 0's first thread writes a value and
// publishes it with a release store of a device-scope atomic_ref; the other
// blocks' first threads read it once an acquire load sees the flag:
// race-free. publish_relaxed publishes with a relaxed store, which orders
// nothing: the read races with the write (lines 45 and 51).
#include <cuda/atomic>

__global__ void block_counts(const int *in, int *perBlock, int *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    atomicAdd_block(&perBlock[blockIdx.x], 1);
    atomicAdd(total, 1);
  }
}

__global__ void block_scoped_total(const int *in, int *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    atomicAdd_block(total, 1);
}

__global__ void publish_release(int *value, int *flag, int *seen) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    *value = 42;
    ready.store(1, cuda::memory_order_release);
    return;
  }
  while (ready.load(cuda::memory_order_acquire) == 0) {
  }
  seen[blockIdx.x] = *value;
}

__global__ void publish_relaxed(int *value, int *flag, int *seen) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    *value = 42;
    ready.store(1, cuda::memory_order_relaxed);
    return;
  }
  while (ready.load(cuda::memory_order_relaxed) == 0) {
  }
  seen[blockIdx.x] = *value;
}
