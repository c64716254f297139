// Threads holding an even value raise one shared flag; every racing store
// writes 1, so the outcome does not depend on their order (a same-value
// race: a note by default, a warning under --strict).
__global__ void same_value_flag(const int *in, int *evenBlocks, int n) {
  __shared__ int sawEven;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    sawEven = 0;
  __syncthreads();
  if (i < n && in[i] % 2 == 0)
    sawEven = 1;
  __syncthreads();
  if (threadIdx.x == 0 && sawEven)
    atomicAdd(evenBlocks, 1);
}
