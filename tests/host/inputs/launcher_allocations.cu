// Buffers the host sizes at run time, passed to launcher functions.
#include <cstdlib>

__global__ void fill(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 1.0f;
}

struct Sizes {
  int n;
  int unused;
};

void launch(float *d, int n) { fill<<<(n + 255) / 256, 256>>>(d, n); }
void twice(float *d, int n) {
  launch(d, n);
  launch(d, n);
}
void launchSized(const Sizes &s, float *d) { fill<<<(s.n + 127) / 128, 128>>>(d, s.n); }

int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  int m = std::atoi(argv[2]);
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, m * sizeof(float));
  twice(a, n);
  Sizes s;
  s.n = std::atoi(argv[3]);
  s.unused = 0;
  cudaMalloc(&c, s.n * sizeof(float));
  launchSized(s, c);
  // A size the launcher never reads: not known there.
  launch(b, n);
  return 0;
}
