// PTX inline assembly cannot be simulated.
__global__ void inlineAsm(int *out) {
  int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = lane;
}
