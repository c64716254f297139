// Float arithmetic in each rounding direction, as the CUDA intrinsics
// (__dadd_rd, __fdiv_ru, __fma_rz ...) give it: sums and quotients that are
// not representable, both signs; square roots and reciprocals. Interval
// arithmetic is built on these.
__global__ void directedRounding(const double *in, const float *fin, double *d, float *f) {
  double one = in[0], tiny = in[1], three = in[2];     // 1, 2^-60, 3
  float fone = fin[0], ftiny = fin[1], fthree = fin[2]; // 1, 2^-30, 3
  d[0] = __dadd_rd(one, tiny);
  d[1] = __dadd_ru(one, tiny);
  d[2] = __dadd_rz(-one, -tiny);
  d[3] = __ddiv_rd(one, three);
  d[4] = __ddiv_ru(one, three);
  d[5] = __dmul_ru(-one - tiny * 0, one + 4 * tiny * (1 << 30)); // -(1 + 2^-28): exact
  d[6] = __fma_rd(one, one, tiny);
  d[7] = __fma_ru(one, one, tiny);
  f[0] = __fadd_rd(fone, ftiny);
  f[1] = __fadd_ru(fone, ftiny);
  f[2] = __fdiv_rd(fone, fthree);
  f[3] = __fdiv_ru(fone, fthree);
  f[4] = __fmul_rz(-fthree, fone / fthree);
  f[5] = __fmaf_ru(fone, fone, ftiny);
  f[6] = __fadd_rn(fone, ftiny);
  d[8] = __dsqrt_rd(one + one);
  d[9] = __dsqrt_ru(one + one);
  d[10] = __drcp_rd(three);
  d[11] = __drcp_ru(three);
  f[7] = __fsqrt_rd(fone + fone);
  f[8] = __fsqrt_ru(fone + fone);
  f[9] = __frcp_rz(fthree);
}
