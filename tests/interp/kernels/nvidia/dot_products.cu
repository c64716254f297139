// The integer dot products of sm_61_intrinsics.h, which NVIDIA writes as
// inline PTX (dp4a, dp2a.lo, dp2a.hi): bytes and halves extended by their
// operand's signedness, their products summed with the accumulator. The
// header is included directly, as code written for nvcc does.
#include <sm_61_intrinsics.h>

__global__ void dotProducts(const int *a, const int *b, int *out, unsigned *outUnsigned) {
  int i = threadIdx.x;
  out[4 * i] = __dp4a(a[i], b[i], i);
  out[4 * i + 1] = __dp2a_lo(a[i], b[i], -i);
  out[4 * i + 2] = __dp2a_hi(a[i], b[i], 7);
  out[4 * i + 3] = __dp4a(a[i], (int)(unsigned)b[i] & 0x7f7f7f7f, 0);
  outUnsigned[2 * i] = __dp4a((unsigned)a[i], (unsigned)b[i], 1u);
  outUnsigned[2 * i + 1] = __dp2a_hi((unsigned)a[i], (unsigned)b[i], 2u);
}
