// Single-precision NaN results as a GPU gives them: whatever the inputs'
// payloads and whatever produced the NaN (a NaN operand, 0/0, sqrt of a
// negative), the result is the canonical quiet NaN 0x7fffffff. A host CPU
// instead keeps the first operand's payload, and makes 0/0 0xffc00000.
__global__ void nanResults(unsigned *out, float zero) {
  float p = __int_as_float(0x7fc00011), q = __int_as_float(0x7fc00022);
  out[0] = __float_as_uint(p + q);
  out[1] = __float_as_uint(q + p);
  out[2] = __float_as_uint(zero / zero);
  out[3] = __float_as_uint(p * 3.0f);
  out[4] = __float_as_uint(q - 1.0f);
  out[5] = __float_as_uint(fmaf(p, 2.0f, 1.0f));
  out[6] = __float_as_uint(sqrtf(zero - 1.0f));
  out[7] = __float_as_uint((float)((double)q * 0.5));
  out[8] = __float_as_uint(-p); // negation flips the sign bit only
}

// Each lane adds the same two NaNs, even lanes in one order and odd lanes in
// the other, and all store the sum to one word in the same step: the same
// bits on a GPU, so a same-value race (a note), not a warning.
__global__ void nanSums(float *out) {
  float p = __int_as_float(0x7fc00011), q = __int_as_float(0x7fc00022);
  bool odd = threadIdx.x & 1;
  float first = odd ? q : p, second = odd ? p : q;
  out[0] = first + second;
}
