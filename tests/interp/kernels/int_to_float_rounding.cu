// Integers converted to floats in each rounding direction, as the CUDA
// intrinsics (__int2float_rz, __ull2double_ru ...) and PTX's cvt.rz/.rm/.rp
// give them: values one past a float's or double's precision, both signs.
__global__ void intToFloatRounding(const long long *in, float *f, double *d) {
  int small = int(in[0]);                  // 2^24 + 1
  long long large = in[1];                 // -(2^53 + 1)
  unsigned long long huge = (unsigned long long)in[2]; // 2^53 + 1
  f[0] = __int2float_rz(small);
  f[1] = __int2float_ru(small);
  f[2] = __int2float_rd(small);
  f[3] = __int2float_rn(small);
  f[4] = __int2float_rz(-small);
  f[5] = __int2float_ru(-small);
  f[6] = __int2float_rd(-small);
  f[7] = __uint2float_ru(unsigned(small));
  f[8] = __ll2float_rd(large);
  f[9] = __ull2float_ru(huge);
  d[0] = __ll2double_rz(large);
  d[1] = __ll2double_ru(large);
  d[2] = __ll2double_rd(large);
  d[3] = __ull2double_rz(huge);
  d[4] = __ull2double_ru(huge);
  float viaPtx;
  asm("cvt.rp.f32.s32 %0, %1;" : "=f"(viaPtx) : "r"(small));
  f[10] = viaPtx;
  asm("cvt.rm.f32.s32 %0, %1;" : "=f"(viaPtx) : "r"(-small));
  f[11] = viaPtx;
}
