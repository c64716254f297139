// Integers computed where a launcher is called (`run(d, 2 * n, 1)`): the
// launch follows the caller's variables and the conditions on them.
#include <cstdlib>

__global__ void scale(float *d, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i * stride] *= 2.0f;
}

void run(float *d, int count, int stride) {
  scale<<<(count + 255) / 256, 256>>>(d, count, stride);
}

void half(float *d, int m) { run(d, m / 2, 2); }

int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  if (n % 512 != 0)
    return 1;
  float *d;
  cudaMalloc(&d, 8 * n * sizeof(float));
  run(d, 2 * n, 1);
  half(d, 4 * n);
  return 0;
}
