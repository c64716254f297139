// Thread 5 traps.
__global__ void trapOnFive(int *out) {
  if (threadIdx.x == 5)
    __trap();
  out[threadIdx.x] = 1;
}
