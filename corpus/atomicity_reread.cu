// Each thread copies the balance of credits unless it is overdrawn, and then
// spends one. The buggy kernel checks the balance with one atomic and reads
// it again with another to copy it: a thread spending in between makes the
// copy disagree with the check (below zero, though checked not to be).
__global__ void copy_credits_reread(int *credits, int *copy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (atomicAdd(credits, 0) >= 0)
    copy[i] = atomicAdd(credits, 0);
  atomicSub(credits, 1);
}

// The fix: the value checked is the value copied (one read).
__global__ void copy_credits_once(int *credits, int *copy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int left = atomicAdd(credits, 0);
  if (left >= 0)
    copy[i] = left;
  atomicSub(credits, 1);
}
