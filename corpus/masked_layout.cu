// Scan layouts that place thread t at 2t - (t & (size - 1)), as a scan of
// size-element segments does: distinct places whenever size is a power of
// two, the callers' convention (the kernel masks with size - 1). At any
// other size two threads share a place, which only a note reports.
__global__ void pair_layout(const unsigned *in, unsigned *out, unsigned size, unsigned n) {
  __shared__ unsigned s[2048];
  if (size == 0 || size > blockDim.x)
    return;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
  s[pos + size] = i < n ? in[i] : 0;
  __syncthreads();
  unsigned mirror = blockDim.x - 1 - threadIdx.x;
  unsigned other = 2 * mirror - (mirror & (size - 1)) + size;
  if (i < n)
    out[i] = s[other];
}

// The same layout scanned in place with one barrier per step, where two
// are needed: a thread reads its neighbour's slot while the neighbour
// overwrites it, at every size. Each thread then reads back its own slot.
__global__ void segment_scan_one_barrier(unsigned *data, unsigned size, unsigned n) {
  __shared__ unsigned s[3072]; // places below 3 * blockDim.x
  if (size == 0 || size > blockDim.x)
    return;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1)) + size;
  for (unsigned k = threadIdx.x; k < 3072; k += blockDim.x)
    s[k] = 0;
  __syncthreads();
  s[pos] = i < n ? data[i] : 0;
  for (unsigned offset = 1; offset < size; offset <<= 1) {
    __syncthreads();
    unsigned mine = s[pos];
    unsigned other = s[pos - offset];
    s[pos] = mine + other;
  }
  if (i < n)
    data[i] = s[pos];
}
