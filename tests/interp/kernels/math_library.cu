// One output per math function so the test can check each against the host's
// C library: float and double versions, the fast intrinsics and conversions.
__global__ void floatMath(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i]; // in (0.1, 0.9)
  float *o = out + i * 32;
  o[0] = sinf(x);
  o[1] = cosf(x);
  o[2] = tanf(x);
  o[3] = asinf(x);
  o[4] = acosf(x);
  o[5] = atanf(x);
  o[6] = atan2f(x, 0.5f);
  o[7] = sinhf(x) + coshf(x) + tanhf(x);
  o[8] = expf(x);
  o[9] = exp2f(x);
  o[10] = expm1f(x);
  o[11] = logf(x);
  o[12] = log2f(x);
  o[13] = log10f(x);
  o[14] = log1pf(x);
  o[15] = powf(x, 1.5f);
  o[16] = sqrtf(x);
  o[17] = rsqrtf(x);
  o[18] = cbrtf(x);
  o[19] = floorf(x * 10.0f) + ceilf(x * 10.0f) + truncf(-x * 10.0f) + roundf(x * 10.0f);
  o[20] = fminf(x, 0.5f) + fmaxf(x, 0.5f) + fabsf(-x);
  o[21] = fmodf(x * 10.0f, 3.0f);
  o[22] = hypotf(x, 1.0f);
  o[23] = fmaf(x, 2.0f, 1.0f);
  o[24] = erff(x) + erfcf(x) * 2.0f;
  int exponent;
  float mantissa = frexpf(x * 100.0f, &exponent);
  o[25] = mantissa + (float)exponent;
  float whole;
  o[26] = modff(x * 10.0f, &whole) + whole * 100.0f;
  float s, c;
  sincosf(x, &s, &c);
  o[27] = s * 10.0f + c;
  o[28] = __expf(x) + __logf(x);
  o[29] = __saturatef(x * 2.0f - 0.5f) + (float)__float2int_rn(x * 10.0f);
  o[30] = __int_as_float(__float_as_int(x)) + ldexpf(x, 3);
  o[31] = std::sqrt(x) + std::abs(-x) + (isnan(x) ? 100.0f : 0.0f) + (isinf(x / 0.0f) ? 1.0f : 0.0f);
}

__global__ void doubleMath(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double x = in[i];
  double *o = out + i * 8;
  o[0] = sin(x) + cos(x);
  o[1] = exp(x) + log(x);
  o[2] = pow(x, 2.5);
  o[3] = sqrt(x) + cbrt(x);
  o[4] = atan2(x, 0.25) + tanh(x);
  o[5] = fma(x, x, 1.0) + floor(x * 7.0) + fabs(-x);
  o[6] = fmin(x, 0.5) + fmax(x, 0.5) + fmod(x * 10.0, 3.0);
  o[7] = __longlong_as_double(__double_as_longlong(x)) + (double)__double2int_rn(x * 10.0);
}
