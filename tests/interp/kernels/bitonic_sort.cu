// Sorts blockDim.x (a power of two) ints ascending in shared memory with a
// bitonic network; one block.
#define MAX_BLOCK 1024

__global__ void bitonicSort(int *data) {
  __shared__ int keys[MAX_BLOCK];
  unsigned tid = threadIdx.x;
  keys[tid] = data[tid];
  __syncthreads();
  for (unsigned size = 2; size <= blockDim.x; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      unsigned partner = tid ^ stride;
      if (partner > tid) {
        bool ascending = (tid & size) == 0;
        int mine = keys[tid];
        int theirs = keys[partner];
        if ((mine > theirs) == ascending) {
          keys[tid] = theirs;
          keys[partner] = mine;
        }
      }
      __syncthreads();
    }
  }
  data[tid] = keys[tid];
}
