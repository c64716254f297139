// Inclusive prefix sum of one block with Hillis-Steele steps. Two buffers
// alternate so no step reads what the same step writes: race-free.
#define MAX_BLOCK 1024

__global__ void inclusiveScan(const int *in, int *out) {
  __shared__ int buffers[2][MAX_BLOCK];
  int tid = threadIdx.x;
  int current = 0;
  buffers[current][tid] = in[tid];
  __syncthreads();
  for (int offset = 1; offset < (int)blockDim.x; offset *= 2) {
    int next = 1 - current;
    int value = buffers[current][tid];
    if (tid >= offset)
      value += buffers[current][tid - offset];
    buffers[next][tid] = value;
    __syncthreads();
    current = next;
  }
  out[tid] = buffers[current][tid];
}
