// Maximum of non-negative floats with an atomicCAS loop on their bit
// patterns; the result does not depend on the order of the updates.
__device__ float atomicMaxFloat(float *address, float value) {
  int *bits = (int *)address;
  int old = *bits;
  while (__int_as_float(old) < value) {
    int assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(value));
    if (old == assumed)
      break;
  }
  return __int_as_float(old);
}

__global__ void floatMaxCas(const float *in, float *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMaxFloat(result, in[i]);
}
