// Sums the weights into one total. The buggy kernel reads the total with one
// atomic and writes back the sum with another: a weight another thread added
// in between is overwritten (a lost update), although no access is plain.
__global__ void total_read_then_write(const int *weight, int *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int seen = atomicAdd(total, 0);
  atomicExch(total, seen + weight[i]);
}

// The fix without changing the read: a compare-and-swap loop that writes
// only if the total is still the value it read, and retries otherwise.
__global__ void total_cas_loop(const int *weight, int *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int seen = atomicAdd(total, 0);
  int assumed;
  do {
    assumed = seen;
    seen = atomicCAS(total, assumed, assumed + weight[i]);
  } while (seen != assumed);
}
