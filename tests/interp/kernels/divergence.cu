// Control flow that splits warps: nested ifs, loops with per-thread trip
// counts and exits, break/continue, early return, switch.
__global__ void nestedIfs(int *out) {
  int t = threadIdx.x;
  int value = 0;
  if (t % 2 == 0) {
    if (t % 4 == 0)
      value = 1;
    else
      value = 2;
  } else {
    if (t < 16)
      value = 3;
    else if (t < 48)
      value = 4;
    else
      value = 5;
  }
  out[t] = value;
}

__global__ void divergentLoop(int *out) {
  int t = threadIdx.x;
  int trips = t % 7;
  int sum = 0;
  int i = 0;
  while (i < trips) {
    sum += i * t;
    ++i;
  }
  out[t] = sum;
}

__global__ void breakContinue(int *out) {
  int t = threadIdx.x;
  int sum = 0;
  for (int i = 0; i < 32; ++i) {
    if (i % 3 == t % 3)
      continue;
    if (i > t)
      break;
    sum += i;
  }
  out[t] = sum;
}

__global__ void earlyReturn(int *out, int limit) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = -1;
  if (t >= limit)
    return;
  if (t % 5 == 0) {
    out[t] = 50;
    return;
  }
  out[t] = t;
}

__global__ void switchOnThread(int *out) {
  int t = threadIdx.x;
  int value;
  switch (t % 6) {
  case 0:
    value = 10;
    break;
  case 1:
  case 2:
    value = 20 + t;
    break;
  case 3:
    value = 30;
    // fall through
  case 4:
    value = 40 + (t % 6);
    break;
  default:
    value = -t;
    break;
  }
  out[t] = value;
}
