// Threads borrow from a pool counter, marking it -1 while they hold it. The
// buggy kernel takes the count (leaving -1) and puts back one more with a
// second atomic: another thread taking in between sees -1, the
// intermediate value, and puts back 0.
__global__ void borrow_with_sentinel(int *pool, int *taken, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int count = atomicExch(pool, -1);
  atomicExch(pool, count + 1);
  taken[i] = count;
}

// The fix: one atomicAdd updates the pool; no intermediate value exists.
__global__ void borrow_with_add(int *pool, int *taken, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  taken[i] = atomicAdd(pool, 1);
}
