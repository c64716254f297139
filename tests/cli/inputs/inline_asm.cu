// A PTX instruction simulee does not model (the SIMD video instructions).
__global__ void inlineAsm(int *out, int a, int b) {
  int lane;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(lane) : "r"(a), "r"(b), "r"(0));
  out[threadIdx.x] = lane;
}
