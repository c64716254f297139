// Packed half-precision arithmetic (issue 20): cuda_fp16.h's and
// cuda_bf16.h's half2 intrinsics compile to inline PTX on .f16x2 and
// .bf16x2 registers, which simulee rewrites into IR. Each operation is
// checked on values where the answer is exact, where rounding to nearest
// even decides it (2048 + 1 in half precision is 2048), and where fusing
// decides it (fma(a, b, -a*b) keeps the product's low bits that a*b
// rounded away). Expected: no finding, and the values a GPU prints.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>

__global__ void halves(float *out) {
  __half2 a = __floats2half2_rn(1.5f, 2048.0f), b = __floats2half2_rn(2.25f, 1.0f);
  __half2 sum = __hadd2(a, b), difference = __hsub2(a, b), product = __hmul2(a, b);
  __half2 greater = __hgt2(a, b), larger = __hmax2(a, b), negated = __hneg2(b);
  __half2 near = __floats2half2_rn(1.0009765625f, 1.0009765625f); // 1 + 2^-10
  __half2 rounded = __hmul2(near, near);
  __half2 residue = __hfma2(near, near, __hneg2(rounded));
  __half2 results[] = {sum, difference, product, greater, larger, negated, rounded, residue};
  for (int i = 0; i < 8; ++i) {
    out[2 * i] = __low2float(results[i]);
    out[2 * i + 1] = __high2float(results[i]);
  }
  __nv_bfloat162 x = __floats2bfloat162_rn(3.0f, 256.0f), y = __floats2bfloat162_rn(0.5f, 1.0f);
  __nv_bfloat162 bsum = __hadd2(x, y), bproduct = __hmul2(x, y);
  out[16] = __low2float(bsum);
  out[17] = __high2float(bsum); // 257 is not a bfloat16: 256
  out[18] = __low2float(bproduct);
  out[19] = __high2float(bproduct);
}

int main() {
  float *out;
  cudaMallocManaged(&out, 20 * sizeof(float));
  halves<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  const char *names[] = {"add", "sub", "mul", "gt", "max", "neg", "near*near", "fma residue"};
  for (int i = 0; i < 8; ++i)
    printf("%-12s %g %g\n", names[i], out[2 * i], out[2 * i + 1]);
  printf("bf16 add     %g %g\n", out[16], out[17]);
  printf("bf16 mul     %g %g\n", out[18], out[19]);
  return 0;
}
