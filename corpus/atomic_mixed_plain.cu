// All threads increment counter[0] atomically; thread 0 of each block reads
// it with a plain load at the same time. An atomic and a plain access race.
__global__ void atomic_mixed_plain(int *counter, int *out) {
  atomicAdd(&counter[0], 1);
  if (threadIdx.x == 0)
    out[blockIdx.x] = counter[0];
}
