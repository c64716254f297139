// Barriers and warp syncs as the SIMT tests need them: reached by part of a
// warp, after other threads exited, with a predicate count, and __syncwarp.
__global__ void barrierInHalfWarp(int *out) {
  int t = threadIdx.x;
  if (t < 16)
    __syncthreads();
  out[t] = t;
}

__global__ void barrierAfterExit(int *out) {
  int t = threadIdx.x;
  if (t >= 32)
    return;
  __syncthreads();
  out[t] = t + 100;
}

__global__ void countPositive(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = __syncthreads_count(in[t] > 0);
}

// Two stores and a load in lockstep, so every lane shares each step.
__global__ void lockstepAccesses(int *a, int *b) {
  int t = threadIdx.x;
  a[t] = t;
  b[t] = a[t ^ 1] + 1;
}

__global__ void warpSyncHandOff(int *out) {
  __shared__ int slots[32];
  int t = threadIdx.x;
  slots[t] = t * 3;
  __syncwarp();
  out[t] = slots[(t + 1) % 32];
}

// Only warp 0 waits at named barrier 2, whose count of 64 threads the block
// never reaches (warp 1 skips it): a deadlock on a GPU.
__global__ void incompleteNamedBarrier(int *out) {
  if (threadIdx.x < 32)
    asm volatile("bar.sync 2, 64;" ::: "memory");
  out[threadIdx.x] = threadIdx.x;
}
