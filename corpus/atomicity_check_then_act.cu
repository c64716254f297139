// At most `limit` requests are granted a place; granted[i] says whether
// request i got one. The buggy kernel checks the count and then takes a
// place in a second atomic: every thread that checked before the others
// took theirs is granted, so more than `limit` can be.
__global__ void grant_checked(int *granted, int *used, int limit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int grant = 0;
  if (atomicAdd(used, 0) < limit) {
    atomicAdd(used, 1);
    grant = 1;
  }
  granted[i] = grant;
}

// The fix: the place is taken and checked in one atomic (a ticket).
__global__ void grant_ticket(int *granted, int *used, int limit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int ticket = atomicAdd(used, 1);
  granted[i] = ticket < limit ? 1 : 0;
}
