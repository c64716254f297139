// The single-pass sum whose last block adds the partial sums of the others:
// each block's thread 0 writes its partial, fences it (__threadfence), then
// takes a ticket with atomicInc; the block that draws the last ticket reads
// every partial and resets the counter. The fenced atomic orders each
// block's partial before the last block's reads (and its atomic before the
// reset), so last_block_sum is race-free. last_block_sum_unfenced drops the
// fence: nothing orders the partials before the reads any more.

__device__ unsigned int tickets = 0;
__device__ unsigned int unfencedTickets = 0;

__global__ void last_block_sum(const float *in, float *partial, float *total, int n) {
  __shared__ bool isLast;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = i < n ? in[i] : 0.0f;
    __threadfence();
    unsigned int ticket = atomicInc(&tickets, gridDim.x);
    isLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (isLast && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *total = sum;
    tickets = 0;
  }
}

__global__ void last_block_sum_unfenced(const float *in, float *partial, float *total, int n) {
  __shared__ bool isLast;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = i < n ? in[i] : 0.0f;
    unsigned int ticket = atomicInc(&unfencedTickets, gridDim.x);
    isLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (isLast && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *total = sum;
    unfencedTickets = 0;
  }
}
