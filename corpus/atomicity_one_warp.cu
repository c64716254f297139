// One warp: lane 0 takes a place if the count allows (a check, then an act),
// the other lanes give one back. Lockstep execution runs the two sides of
// the branch one after the other, so nothing comes between lane 0's check
// and act; with independent thread scheduling (Volta and later) the other
// lanes' atomicSub can run between them.
__global__ void take_or_give_back(int *count, int *taken, int limit) {
  int lane = threadIdx.x % 32;
  if (lane == 0) {
    int got = 0;
    if (atomicAdd(count, 0) < limit) {
      atomicAdd(count, 1);
      got = 1;
    }
    taken[threadIdx.x / 32] = got;
  } else {
    atomicSub(count, 1);
  }
}

// The same with a __syncwarp between lane 0's pair and the others' updates:
// no lane's update can run between the check and the act.
__global__ void take_then_give_back(int *count, int *taken, int limit) {
  int lane = threadIdx.x % 32;
  if (lane == 0) {
    int got = 0;
    if (atomicAdd(count, 0) < limit) {
      atomicAdd(count, 1);
      got = 1;
    }
    taken[threadIdx.x / 32] = got;
  }
  __syncwarp();
  if (lane != 0)
    atomicSub(count, 1);
}
