// Kernels that end a run with an error or report bad accesses.
__global__ void spinUntilSet(volatile int *flag) {
  while (flag[0] == 0) {
  }
}

__device__ int depth(int n) {
  if (n == 0)
    return 0;
  return 1 + depth(n - 1);
}

__global__ void recurse(int *out, int n) {
  out[threadIdx.x] = depth(n);
}

// Reads and writes 100 elements past the thread's slot.
__global__ void outOfBounds(const int *in, int *out, int *far) {
  int t = threadIdx.x;
  out[t] = in[t + 100] + 1;
  far[t + 100] = 5;
}

__global__ void nullRead(int *out, unsigned long long address) {
  int *p = (int *)address;
  out[threadIdx.x] = *p + 1;
}

__global__ void trapOnLaneSeven(int *out) {
  if (threadIdx.x == 7)
    __trap();
  out[threadIdx.x] = 1;
}

__global__ void twoParams(int *out, int value) {
  out[threadIdx.x] = value;
}
