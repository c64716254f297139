// simulee exec example: a program built on Thrust. The device_vector's fill,
// thrust::sequence and thrust::reduce launch CUB kernels from NVIDIA's
// headers; the program's own kernel squares the values in between. Every
// launch is checked, the library's included; none races, and barrier advice
// about code inside NVIDIA's headers is not given.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

__global__ void square(int *values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    values[i] *= values[i];
}

int main() {
  const int n = 1000;
  thrust::device_vector<int> values(n);
  thrust::sequence(values.begin(), values.end());
  square<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(values.data()), n);
  long sum = thrust::reduce(values.begin(), values.end(), 0L);
  long expected = long(n - 1) * n * (2 * n - 1) / 6;
  printf("sum of squares: %ld (expected %ld)\n", sum, expected);
  return sum == expected ? 0 : 1;
}
