// Each thread records its id as the latest visitor and reports the visitor
// it recorded. The buggy kernel writes its id with one atomic and reads it
// back with another: a thread writing in between makes it report another's.
__global__ void visit_read_back(int *latest, int *reported, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicExch(latest, i);
  reported[i] = atomicAdd(latest, 0);
}

// The fix: the thread reports the id it wrote, and keeps the one it
// replaced, both from the one exchange.
__global__ void visit_exchange(int *latest, int *reported, int *previous, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  previous[i] = atomicExch(latest, i);
  reported[i] = i;
}

// Monotonic: a running maximum checked and raised with atomicMax is correct
// whatever another thread does between the check and the raise.
__global__ void raise_maximum(const int *value, int *maximum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (value[i] > atomicAdd(maximum, 0))
    atomicMax(maximum, value[i]);
}
