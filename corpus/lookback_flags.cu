// A chained scan of per-block sums (single-pass, "decoupled look-back"
// style): each block sums its tile, publishes the sum behind a ready bit
// with a volatile store, and its thread 0 waits for its predecessor's
// inclusive prefix with volatile loads. Volatile accesses are PTX's strong
// relaxed accesses at system scope, so the publication and the waits of
// different blocks are no data race. Blocks only wait on earlier blocks.
#define READY 0x100000000ull

__device__ unsigned long long waitFor(volatile unsigned long long *status, int block) {
  unsigned long long word;
  do {
    word = status[block];
  } while (!(word & READY));
  return word & (READY - 1);
}

__global__ void lookback_volatile(const unsigned *in, unsigned long long *status,
                                  unsigned long long *prefix) {
  __shared__ unsigned tile[64];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  if (t == 0) {
    unsigned long long sum = 0;
    for (int k = 0; k < blockDim.x; ++k)
      sum += tile[k];
    volatile unsigned long long *published = status;
    if (blockIdx.x > 0)
      sum += waitFor(published, blockIdx.x - 1);
    published[blockIdx.x] = sum | READY;
    prefix[blockIdx.x] = sum;
  }
}

// The same wait read with a plain load: it races with the predecessor's
// volatile store (only two volatile accesses are strong).
__global__ void lookback_plain_wait(const unsigned *in, unsigned long long *status,
                                    unsigned long long *prefix) {
  __shared__ unsigned tile[64];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  if (t == 0) {
    unsigned long long sum = 0;
    for (int k = 0; k < blockDim.x; ++k)
      sum += tile[k];
    if (blockIdx.x > 0)
      sum += status[blockIdx.x - 1] & (READY - 1);
    ((volatile unsigned long long *)status)[blockIdx.x] = sum | READY;
    prefix[blockIdx.x] = sum;
  }
}
