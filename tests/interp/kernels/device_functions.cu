// Calls into non-inlined device functions, one of them recursive.
__device__ __noinline__ int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

__device__ __noinline__ int fibonacci(int n) {
  if (n < 2)
    return n;
  return fibonacci(n - 1) + fibonacci(n - 2);
}

__device__ __noinline__ void accumulate(int *target, int value) { *target += value; }

__global__ void deviceCalls(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = in[i];
  int result = factorial(n % 8);
  accumulate(&result, fibonacci(n % 10));
  out[i] = result;
}
