// Reverses each block's segment through dynamically sized shared memory.
__global__ void reverseDynamic(int *data) {
  extern __shared__ int segment[];
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  segment[t] = data[base + t];
  __syncthreads();
  data[base + t] = segment[blockDim.x - 1 - t];
}
