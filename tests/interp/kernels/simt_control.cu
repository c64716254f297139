// Control flow that splits a warp, written so that every path stores into
// its own buffer: the SIMT-stack tests read the active mask of each path
// from the access events.
__global__ void nestedDivergence(int *quad, int *evenOther, int *evenJoin, int *odd, int *after) {
  int t = threadIdx.x;
  if (t % 2 == 0) {
    if (t % 4 == 0)
      quad[t] = 1;
    else
      evenOther[t] = 2;
    evenJoin[t] = 3;
  } else {
    odd[t] = 4;
  }
  after[t] = 5;
}

// Lane t runs t iterations: lanes leave the loop one by one.
__global__ void laneDependentLoop(int *visits, int *out) {
  int t = threadIdx.x;
  int sum = 0;
  for (int i = 0; i < t; ++i) {
    visits[t] += 1;
    sum += i;
  }
  out[t] = sum;
}

// Iteration i is skipped when i == t % 5 and ends the loop when i > t % 11.
__global__ void breakContinue(int *touched, int *out) {
  int t = threadIdx.x;
  int sum = 0;
  for (int i = 0; i < 16; ++i) {
    if (i == t % 5)
      continue;
    if (i > t % 11)
      break;
    touched[t * 16 + i] = 1;
    sum += i;
  }
  out[t] = sum;
}

__device__ __noinline__ int logUnlessMultipleOfThree(int t, int *log) {
  if (t % 3 == 0)
    return -1;
  log[t] = t;
  return 2 * t;
}

// Early return from a device function and from the kernel.
__global__ void earlyReturns(int *log, int *out, int *tail) {
  int t = threadIdx.x;
  out[t] = logUnlessMultipleOfThree(t, log);
  if (t % 4 == 1)
    return;
  tail[t] = 7;
}

// Four-way divergence on the lane id.
__global__ void switchOnLane(int *zero, int *one, int *two, int *other, int *after) {
  int t = threadIdx.x;
  switch (t % 4) {
  case 0:
    zero[t] = 10;
    break;
  case 1:
    one[t] = 11;
    break;
  case 2:
    two[t] = 12;
    break;
  default:
    other[t] = 13;
    break;
  }
  after[t] = t;
}
